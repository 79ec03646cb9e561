//! Apocalypse: the 5x5 simultaneous-move game and its solvers.

pub mod anytime;
pub mod board;
pub mod commands;
pub mod eval;
pub mod exploit;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod play;
pub mod report;
pub mod resolve;
pub mod solver;
pub mod tablebase;
pub mod zobrist;

pub use board::{Piece, Position, Side, Square};
pub use moves::Move;
pub use outcome::Outcome;
