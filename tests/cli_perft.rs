//! The `extinction perft` subcommand: output format, threads, and error handling.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_extinction"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn divide_lines_and_total() {
    // Fairy-Stockfish 11.1: go perft 3 from the start gives 8902, e.g. e2e4: 600.
    let (code, out, _) = run(&["perft", "--depth", "3", "--divide", "--threads", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 600"));
    assert_eq!(lines[20], "Nodes searched: 8902");
}

#[test]
fn fen_option_and_threads() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (code, out, _) = run(&["perft", "--depth", "3", "--fen", fen, "--threads", "2"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "Nodes searched: 98456");
    let (_, out, _) = run(&["perft", "--depth", "1", "--fen", fen, "--divide"]);
    assert!(out.contains("e1g1: 1") && out.contains("e1c1: 1"));
}

#[test]
fn bad_fen_is_one_line_exit_2() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "garbage",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "P7/8/8/8/8/8/8/k6K w - -",
    ] {
        let (code, out, err) = run(&["perft", "--depth", "2", "--fen", fen]);
        assert_eq!(code, 2, "{fen}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"));
    }
}
