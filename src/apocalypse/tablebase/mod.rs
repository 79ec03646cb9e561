//! Endgame tablebases: exact values of every position with few pieces.
//!
//! Positions are split into material-and-penalty classes (footmen and horsemen per side,
//! penalty points per side). Captures, collisions, promotions and penalties only go one way, so
//! every successor of a class lies in the class itself or in a class built earlier; each class
//! is solved by value iteration over its matrix games. Colour symmetry (swapping sides and
//! flipping ranks negates the value) halves the classes stored; the file mirror (a<->e keeps
//! the value) halves the positions stored per class.

pub mod block;
pub mod build;
pub mod format;
pub mod index;
pub mod iterate;
pub mod limit;
pub mod probe;
pub mod successors;
pub mod values;

pub use index::{ClassIndex, ClassKey};
pub use probe::{ProgressStrategy, RootGame, Tablebases};

/// Tolerance of the fixed-point check: a stored value equals its matrix game's value to this.
pub const VERIFY_TOLERANCE: f64 = 1e-9;
