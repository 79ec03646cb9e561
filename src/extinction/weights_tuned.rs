//! Evaluation weights written by `extinction tune` (not tuned yet: the hand-set defaults).

use super::evaluate::{Weights, DEFAULT_WEIGHTS};

/// The weights the evaluation uses.
pub const TUNED_WEIGHTS: Weights = DEFAULT_WEIGHTS;
