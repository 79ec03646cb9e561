//! Two variant-chess engines in one crate: Extinction chess and Apocalypse.
//!
//! The two games live in separate module trees and share only the console (logging and
//! pipe-safe output), the seeded random number generator and the zero-sum matrix-game solver.

pub mod apocalypse;
pub mod console;
pub mod extinction;
pub mod matrix_game;
pub mod rng;
