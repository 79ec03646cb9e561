//! Perft against the reference implementation, Fairy-Stockfish 11.1 (`UCI_Variant
//! extinction`, `go perft N`), which produced every number here: hand-picked tricky positions,
//! and every depth listed in `tests/data/perft-suite.epd`.

use variant_engines::extinction::{perft, perft_threaded, Position};

/// (FEN, perft 1..=4) as printed by Fairy-Stockfish 11.1.
const CASES: &[(&str, [u64; 4])] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [20, 400, 8902, 197742],
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2049, 98456, 4183740],
    ),
    (
        "r3k2r/pPppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPp/R3K2R b KQkq - 0 1",
        [39, 2292, 89535, 5151694],
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        [31, 747, 23099, 588737],
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQK2R w KQkq - 0 1",
        [29, 577, 16853, 372370],
    ),
    (
        "r3k2r/pbnq4/8/8/8/8/PBNQ4/R3K2R w KQkq - 0 1",
        [50, 2395, 115341, 5438722],
    ),
    (
        "r3k2r/pbnq4/8/8/8/8/PBNQ4/R3K2R b KQkq - 0 1",
        [50, 2395, 115341, 5438722],
    ),
    (
        "rnbqk1nr/1P3ppp/8/8/8/1Q6/8/RNB1KBNR w KQkq - 0 1",
        [66, 2288, 140207, 5032675],
    ),
    (
        "k1k1k1k1/p1p1p1pp/1q1r1b1n/8/8/1Q1R1B1N/P1P1P1PP/K1K1K1K1 w - - 0 1",
        [51, 2482, 119502, 5716418],
    ),
    ("4k3/1P4p1/8/8/8/8/1p4P1/4K3 w - - 0 1", [0, 0, 0, 0]),
    (
        "nbrqk3/PPPPPPPP/8/8/8/8/pppppppp/NBRQK3 w - - 0 1",
        [72, 1829, 62838, 2064997],
    ),
    (
        "r1bqkbnr/pPpppppp/8/8/8/8/PpPPPPPP/R1BQKBNR w KQkq - 0 1",
        [33, 1074, 31619, 921652],
    ),
    (
        "rnbqkbnr/p1pppppp/8/8/PpP5/8/1P1PPPPP/RNBQKBNR b KQkq c3 0 3",
        [22, 462, 10547, 250829],
    ),
    (
        "rnbqkbnr/p1pppppp/8/8/PpP5/8/1P1PPPPP/RNBQKBNR b KQkq a3 0 3",
        [22, 462, 10529, 250514],
    ),
];

#[test]
fn perft_matches_fairy_stockfish() {
    for (fen, expected) in CASES {
        let mut pos = Position::from_fen(fen).unwrap();
        let key = pos.key();
        for (i, &n) in expected.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(&mut pos, depth), n, "perft({depth}) of {fen}");
            assert_eq!(pos.key(), key, "make/unmake restored the key for {fen}");
        }
    }
}

#[test]
fn start_position_depth_5() {
    assert_eq!(perft(&mut Position::startpos(), 5), 4_896_744);
}

#[test]
fn threaded_perft_agrees() {
    let pos = Position::from_fen(CASES[1].0).unwrap();
    assert_eq!(perft_threaded(&pos, 4, 2), CASES[1].1[3]);
}

const SUITE: &str = include_str!("data/perft-suite.epd");

/// One suite line: FEN and (depth, expected nodes) pairs.
fn parse_line(line: &str) -> (String, Vec<(u32, u64)>) {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap().trim().to_string();
    let depths = parts
        .map(|p| {
            let mut it = p.split_whitespace();
            let tag = it.next().expect("depth tag");
            let depth = tag
                .strip_prefix('D')
                .expect("tag starts with D")
                .parse()
                .expect("depth number");
            let nodes = it.next().expect("node count").parse().expect("node number");
            (depth, nodes)
        })
        .collect();
    (fen, depths)
}

#[test]
fn perft_suite_matches_fairy_stockfish() {
    let mut positions = 0;
    let mut failures = Vec::new();
    for line in SUITE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (fen, depths) = parse_line(line);
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        positions += 1;
        for (depth, expected) in depths {
            let got = perft(&mut pos, depth);
            if got != expected {
                failures.push(format!(
                    "{fen} depth {depth}: expected {expected}, got {got}"
                ));
            }
        }
    }
    assert!(positions >= 60, "suite has only {positions} positions");
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}
