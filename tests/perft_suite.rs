//! Checks every depth listed in `tests/data/perft-suite.epd` (counts from Fairy-Stockfish 11.1).

use variant_engines::extinction::{perft, Position};

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
