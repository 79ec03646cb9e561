//! Perft of hand-picked tricky positions; every number was produced by Fairy-Stockfish 11.1
//! (`UCI_Variant extinction`, `go perft N`), the reference implementation.

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
