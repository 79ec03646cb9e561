//! `extinction bench`: a fixed set of positions searched to a fixed depth with a fresh table,
//! printing the total node count (deterministic: one thread, fresh state per position) and speed.

use std::io::Write;
use std::time::Instant;

use crate::console::outln;
use crate::extinction::engine::{Engine, EngineOptions};
use crate::extinction::rules::{Game, Position};
use crate::extinction::search::timeman::Limits;
use crate::extinction::search::SearchOptions;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 8;
/// Hash size used by bench, in MiB.
pub const BENCH_HASH_MB: usize = 16;

/// Arguments of `extinction bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(long, short, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
}

/// Bench positions: the start, then positions from early, middle and late phases of games
/// between this engine and Fairy-Stockfish (all six types present for both sides).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pp2pp2/2n2np1/2Pp3p/5P2/2P1PN2/PP4PP/RNBQKB1R b KQkq - 0 4",
    "rn1qkb1r/pp2pp2/2B3p1/2P4p/5P2/2P1PQ2/PP4PP/RNB1K2R b KQkq - 0 8",
    "r2qkn1r/pQ2ppb1/2p3p1/2P4p/5P2/2P1P3/PP4PP/RNB1K2R w KQkq - 6 12",
    "r2qkb1r/pp1b1p2/4pnp1/n2p3p/2P2P2/P4N2/1P2P1PP/RNBQKB1R b KQkq - 4 8",
    "r3kb1r/pp1b1p2/4p1p1/3p3p/1q3Pn1/5N2/2R1P1PP/1N1QKB1R w Kkq - 0 16",
    "r3k2r/pp1N1pb1/4p1p1/1bq4p/4nP2/2p4P/2N1P1P1/Q3KB1R b Kkq - 8 23",
    "r2qkb1r/1pp1p1pp/p4p1n/3p1b2/1n1P1P2/1P2P3/PBP2NPP/RN1QKB1R w KQkq - 1 5",
    "r3kb1r/1p2p1pp/p1p2p1n/3p1q2/3PPP2/1PP5/PBn2NPP/RN1Q1RK1 b kq - 0 9",
    "r3kb1r/1p4pp/p1p1pq1n/5pN1/3P1P2/1PP5/PB2Q1PP/RN3RK1 w kq - 0 14",
    "r2qkb1r/1pp1n1pp/p1n1bp2/4p3/4BP2/1P4P1/PBPP1N1P/RN1QK2R w KQkq - 1 8",
    "r2q3r/2p1nkbp/p1p1b3/5p2/2P5/1PN1Q1P1/PB1P1N1P/R3K2R w KQ - 0 15",
    "r1n4r/2pq2kp/p1p2b2/5P1Q/2P5/1PN5/PB1P1N1P/2KR4 w - - 1 22",
    "rnbqk2r/1pp1p2p/p4p1n/3p4/6p1/2QP4/PPPNPPPP/RN1K1B1R b kq - 1 5",
    "rnbqk2r/1pp4p/p7/2Q1pp2/3p2n1/3P1NP1/PPP1PPP1/RN2KB1R w kq - 0 10",
    "1rbqk2r/1pp4p/n7/p4p2/2QPp1N1/3P2P1/PP2PPP1/RN2KB1R b k - 0 14",
    "r1b1k2r/1pp1pp1p/3q1n1b/1P1pn1p1/8/3PP3/PB1K1PPP/RN2QBNR w kq - 3 7",
    "r3k2r/1ppnpp1p/3q1n2/1P1p4/5PbQ/3P4/PB1K2P1/RN3BNR b kq - 6 13",
    "rnb2k1B/1pp1Rp1p/1q6/1P1p4/7Q/2NP4/P2K2P1/5BNR w - - 1 20",
    "r1bqkbnr/2pn1p1p/1p2p3/pP1p2p1/P2P4/2P3B1/4PPPP/RN1QKBNR b KQkq - 1 4",
    "r1bq1b1r/2pk1p2/1p2p3/pP1p1npp/P2P4/2PQ2B1/4PPPP/RN2KB1R b KQ - 1 8",
    "r1bq1b1r/2pkn3/1p2ppQ1/pP1p2p1/P2P4/2P3B1/4PPPP/RN2KB1R w KQ - 3 12",
    "rnb1k2r/2p2ppp/1p1bpq2/pP1pN3/P2Pn3/2P4P/4PPB1/RNBQ1RK1 b kq - 8 8",
    "2b1k2r/r1pn1ppp/1p2p3/pP1P1q2/P7/3n3P/4P1B1/RNBQ2K1 w k - 0 16",
    "2b1k3/r1pn1pp1/1p4r1/pP1p3p/P4Q2/3P1B1q/1BR2K2/1N6 b - - 1 23",
    "r2qkbnr/p3pppp/2b5/3p4/4P3/4BQ2/P1PP1PPP/RN2K1NR w KQkq - 2 7",
    "r3kbnr/pq2pppp/8/3bB3/8/P5Q1/3PNPPP/RN2K2R w KQkq - 1 13",
    "r3kbnr/p3ppp1/1q6/6Qp/5B2/P4P2/3P2PP/R3K1NR w KQkq - 3 19",
    "r3k2r/pb1qppbp/1p2n1p1/1Pp5/5n2/B1P1QP2/P2P2PP/RN2KBNR w KQkq - 4 11",
    "5rk1/4pp1p/1pb1n1p1/1pp5/1q6/r4PP1/2QPN2P/b1B1KBNR w K - 0 21",
    "3r2k1/4pp1p/1pb1n1p1/8/5b2/1q1p1PPN/1p3KBP/1Q2R3 b - - 1 31",
    "rn2kbnr/pp1b2pp/2qp4/2pN1p2/2P5/1Q1P1P2/PP1B2PP/R3KBNR w KQkq - 4 7",
    "r3kbnr/Q2b2pp/2qp4/1p3p2/1pP5/3PBP1P/PP2N1P1/R3KB1R w KQk - 1 13",
    "r5nr/1q1bbk1p/8/3p1pp1/PpQ5/3PBPNP/1P4P1/R3KB1R w KQ - 0 19",
    "rn1qkb1r/ppp1n2p/5pb1/1P1pp3/6Pp/B3P3/P1PP1P2/RN1QKBNR b KQkq - 1 6",
    "r3kb1r/pp1nn2p/5p2/1Ppp4/q3bpPR/B3PN2/P1PP1K2/RN1Q1B2 w kq - 4 12",
    "1r2k2r/pp1n3p/5pn1/1PpQ4/q3P1P1/B3K2R/P1P5/bN2NB2 w k - 1 18",
];

/// Result of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

/// Search every bench position to `depth`; `verbose` prints per-position lines to stderr.
pub fn run_positions(depth: u32, verbose: bool) -> BenchResult {
    let started = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            log::error!("bench: bad FEN {fen}");
            continue;
        };
        // A fresh engine, so every position starts from an empty table.
        let mut engine = Engine::new(EngineOptions {
            hash_mb: BENCH_HASH_MB,
            ..EngineOptions::default()
        });
        let game = Game::new(pos);
        let result = engine.search(&game, Limits::depth(depth), SearchOptions::default(), None);
        nodes += result.nodes;
        if verbose {
            // Progress goes to stderr; a closed stderr must not stop the bench.
            let _ = writeln!(
                std::io::stderr(),
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

/// Run `extinction bench`: print `Nodes searched` and `Nodes/second`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let r = run_positions(args.depth, true);
    outln!("Nodes searched: {}", r.nodes);
    outln!("Nodes/second: {}", r.nodes * 1000 / r.time_ms.max(1));
    Ok(())
}
