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
