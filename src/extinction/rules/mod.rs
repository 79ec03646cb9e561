//! The rules of Extinction chess: board, moves and what each move is (quiet, winning,
//! self-extinguishing), text formats, game results and perft. This layer knows nothing about
//! evaluation, search or protocols; everything above imports it.

pub mod game;
pub mod move_kind;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod threats;
pub mod types;
pub mod zobrist;

pub use game::Game;
pub use move_kind::{is_quiet, is_self_extinction, wins_by_extinction};
pub use notation::{board_diagram, parse_san, parse_uci, san, FenError, MoveError};
pub use outcome::Outcome;
pub use perft::{divide, divide_parallel, divide_until, perft, perft_threaded, perft_until};
pub use pgn::{parse_pgn, parse_pgn_games, PgnError, PgnGame};
pub use position::{Position, Undo};
pub use types::{Move, MoveList, MAX_MOVES};
