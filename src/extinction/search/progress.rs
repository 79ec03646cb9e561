//! Live progress of a running search, readable from another thread while it runs: the nodes
//! every search thread has counted so far, the iteration under way and the number of root
//! moves. XBoard's `.` status request (`stat01`) reads it; the iteration reports count their
//! node totals from it.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Counters the search threads update and anyone may read.
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes counted by all threads, in the steps each thread adds them (1024 at a time).
    nodes: AtomicU64,
    /// Nominal depth of the iteration under way (0 before the first one starts).
    depth: AtomicU32,
    /// Moves searched at the root.
    root_moves: AtomicU32,
    /// Root moves of this iteration finished so far (the main thread's count).
    root_moves_searched: AtomicU32,
}

/// What [`Progress`] said when it was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgressReport {
    /// Milliseconds since the search started.
    pub elapsed_ms: u64,
    /// Nodes counted so far by all threads.
    pub nodes: u64,
    /// Nominal depth of the iteration under way.
    pub depth: u32,
    /// Moves searched at the root.
    pub root_moves: u32,
    /// Root moves of the iteration under way searched so far.
    pub root_moves_searched: u32,
}

impl Progress {
    /// Where the search threads add their node counts.
    pub fn node_counter(&self) -> &AtomicU64 {
        &self.nodes
    }

    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The main thread begins iteration `depth` over `root_moves` moves.
    pub fn begin_iteration(&self, depth: u32, root_moves: usize) {
        self.depth.store(depth, Ordering::Relaxed);
        self.root_moves
            .store(root_moves.min(u32::MAX as usize) as u32, Ordering::Relaxed);
        self.root_moves_searched.store(0, Ordering::Relaxed);
    }

    /// The main thread begins the root move at `index` of the iteration under way (the ones
    /// before it are searched).
    pub fn searching_root_move(&self, index: usize) {
        self.root_moves_searched
            .store(index.min(u32::MAX as usize) as u32, Ordering::Relaxed);
    }

    /// The counters as they are now, `elapsed_ms` into the search.
    pub fn report(&self, elapsed_ms: u64) -> ProgressReport {
        ProgressReport {
            elapsed_ms,
            nodes: self.nodes(),
            depth: self.depth.load(Ordering::Relaxed),
            root_moves: self.root_moves.load(Ordering::Relaxed),
            root_moves_searched: self.root_moves_searched.load(Ordering::Relaxed),
        }
    }
}
