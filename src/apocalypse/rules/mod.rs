//! The rules of Apocalypse, the bottom layer: the board, the declarable moves, the
//! simultaneous resolution of a turn, the end of the game, notation, Zobrist keys and the
//! description of what happened in a turn, under either rule set (`ruleset` holds every
//! difference between them). Nothing here knows of solvers or tools.

pub mod board;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod report;
pub mod resolve;
pub mod ruleset;
pub mod zobrist;

pub use board::{Piece, Position, Side, Square};
pub use moves::Move;
pub use outcome::Outcome;
pub use ruleset::RuleSet;
