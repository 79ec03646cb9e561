//! Two variant-chess engines in one crate: Extinction chess and Apocalypse.
//!
//! The two games live in separate module trees and share only the logging setup and the
//! zero-sum matrix-game solver.

pub mod apocalypse;
pub mod extinction;
pub mod logging;
pub mod matrix_game;
