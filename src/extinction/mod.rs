//! Extinction chess, in layers that import only downwards:
//!
//! * `rules/`: board, moves, notation, game results, perft, and the "check" queries;
//! * `eval/`: the static evaluation and its weights;
//! * `search/`: iterative deepening, alpha-beta, move ordering, SEE, the table, the clock;
//! * `engine.rs`: the facade (settings, table, the search thread, a blocking search);
//! * `protocol/` (UCI and XBoard sessions) and `tools/` (analyze, bench, perft, datagen,
//!   tune), side by side on top.
//!
//! The rules' main types are re-exported here.

pub mod engine;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;

pub use rules::{
    divide, divide_parallel, parse_pgn, parse_pgn_games, parse_san, parse_uci, perft,
    perft_threaded, san, FenError, Game, Move, MoveError, MoveList, Outcome, PgnError, PgnGame,
    Position, Undo, MAX_MOVES,
};
