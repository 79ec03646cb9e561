//! The search: iterative deepening with Lazy SMP (`deepening.rs`) over a principal variation
//! search (`alphabeta.rs`), whose margins, depths and counts are named in `params.rs`; move
//! ordering, static exchange evaluation, the transposition table, what a thread keeps between
//! moves (histories, evaluation correction), the clock, the live progress others may read and
//! mate-score arithmetic each have a file of their own. It sits on the rules and the
//! evaluation; the engine facade drives it.

pub mod alphabeta;
pub mod correction;
pub mod deepening;
pub mod memory;
pub mod movepick;
pub mod params;
pub mod progress;
pub mod score;
pub mod see;
pub mod timeman;
pub mod tt;

pub use deepening::{
    search, search_threads, SearchInfo, SearchOptions, SearchResult, SEARCH_STACK_BYTES,
};
pub use score::{is_loss, is_win, mate_moves, INFINITE, MATE, MATE_BOUND, MAX_PLY};
