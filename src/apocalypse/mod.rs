//! Apocalypse: the 5x5 simultaneous-move game and its solvers.

pub mod cli;
pub mod play;
pub mod rules;
pub mod search;
pub mod solver;
pub mod tablebase;

pub use rules::{Move, Outcome, Piece, Position, RuleSet, Side, Square};
