//! `extinction bench`: a fixed set of positions searched to a fixed depth with a fresh table,
//! printing the total node count (deterministic: one thread, fresh state per position) and speed.

use std::time::Instant;

use super::analyze::search_blocking;
use super::position::Position;
use super::search::SearchOptions;
use super::timeman::Limits;
use super::tt::TranspositionTable;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 7;
/// Hash size used by bench, in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// Bench positions: openings, middle games and endgames (all six types present for both sides).
pub const POSITIONS: &[&str] = &["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"];

/// Result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

/// Search every bench position to `depth`; `verbose` prints per-position lines to stderr.
pub fn run(depth: u32, verbose: bool) -> BenchResult {
    let started = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            eprintln!("bench: bad FEN {fen}");
            continue;
        };
        let tt = TranspositionTable::new(BENCH_HASH_MB);
        let options = SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
            report: false,
        };
        let result = search_blocking(&pos, &[], &tt, Limits::depth(depth), &options, &mut |_| {});
        nodes += result.nodes;
        if verbose {
            eprintln!(
                "position {:>2}/{}: {:>9} nodes  best {}  {}",
                i + 1,
                POSITIONS.len(),
                result.nodes,
                result
                    .best_move
                    .map_or("(none)".to_string(), |m| m.to_string()),
                fen
            );
        }
    }
    BenchResult {
        nodes,
        time_ms: started.elapsed().as_millis() as u64,
    }
}

/// Run the bench and print `Nodes searched` and `Nodes/second`.
pub fn run_and_print(depth: u32) {
    let r = run(depth, true);
    println!("Nodes searched: {}", r.nodes);
    println!("Nodes/second: {}", r.nodes * 1000 / r.time_ms.max(1));
}
