//! Extinction chess: rules, search, evaluation and protocols.
//!
//! The rules core (this module's `position`, `movegen`, `notation`, ...) knows nothing
//! about search or protocols.

pub mod game;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod types;
pub mod zobrist;

pub use game::Game;
pub use notation::{parse_san, parse_uci, san, FenError, MoveError};
pub use outcome::Outcome;
pub use perft::{divide, divide_parallel, perft, perft_threaded};
pub use pgn::{parse_pgn, PgnError, PgnGame};
pub use position::{Position, Undo};
pub use types::{Move, MoveList, MAX_MOVES};

// Engine: search, evaluation and protocols.
pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod engine;
pub mod evaluate;
pub mod movepick;
pub mod protocol;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod uci_command;
pub mod weights_tuned;
pub mod xboard;
pub mod xboard_command;
