//! Extinction chess: rules, search, evaluation and protocols.
//!
//! The rules core (`rules/`) knows nothing about search or protocols; its main types are
//! re-exported here.

pub mod rules;

pub use rules::game::Game;
pub use rules::notation::{parse_san, parse_uci, san, FenError, MoveError};
pub use rules::outcome::Outcome;
pub use rules::perft::{divide, divide_parallel, perft, perft_threaded};
pub use rules::pgn::{parse_pgn, PgnError, PgnGame};
pub use rules::position::{Position, Undo};
pub use rules::types::{Move, MoveList, MAX_MOVES};

// Engine: search, evaluation and protocols.
pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod tune;
