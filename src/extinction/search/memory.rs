//! What one search thread learns and keeps from one move of a game to the next: the move
//! statistics that order moves and the correction of the static evaluation. The engine keeps
//! one per thread and clears them for a new game; a search given fresh ones starts cold.

use super::correction::CorrectionHistory;
use super::movepick::History;

/// The learned tables of one search thread.
#[derive(Default)]
pub struct SearchMemory {
    /// Move statistics (butterfly, continuation and capture histories).
    pub history: History,
    /// Static evaluation corrections by pawn structure.
    pub correction: CorrectionHistory,
}

/// `threads` fresh memories, one per search thread.
pub fn fresh(threads: usize) -> Vec<SearchMemory> {
    (0..threads.max(1))
        .map(|_| SearchMemory::default())
        .collect()
}
