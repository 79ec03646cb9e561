//! `extinction analyze` and `extinction bench` through the release binary.

mod engine_process;

use std::process::Command;

use engine_process::sample_game_final_fen;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_extinction"))
        .args(args)
        .output()
        .expect("run extinction");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn json_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(&rest[..end])
}

#[test]
fn analyze_reports_loss_in_four_within_a_second() {
    let fen = sample_game_final_fen();
    let (ok, out, err) = run(&["analyze", "--fen", &fen, "--movetime", "1000", "--json"]);
    assert!(ok, "{err}");
    let mate = out
        .lines()
        .find(|l| l.contains("\"type\":\"info\"") && l.contains("\"score\":{\"mate\":-4}"))
        .unwrap_or_else(|| panic!("no mate -4 line in\n{out}"));
    let time: u64 = json_field(mate, "time_ms").unwrap().parse().unwrap();
    assert!(time <= 1000, "{mate}");
    let result = out.lines().last().unwrap();
    assert!(
        result.contains("\"type\":\"result\"") && result.contains("\"score\":{\"mate\":-4}"),
        "{result}"
    );
    // Text mode shows the board and the score as #-4 with a SAN principal variation.
    let (ok, text, _) = run(&["analyze", "--fen", &fen, "--depth", "8"]);
    assert!(ok);
    assert!(text.starts_with("8  r . b . . . k ."), "{text}");
    assert!(text.contains("#-4") && text.contains("14. "), "{text}");
}

#[test]
fn analyze_pgn_flags_a_missed_extinction() {
    // Black's only bishop stands on d5 and White's e4 pawn can take it: 1.a3 misses the win,
    // 1...e6 leaves it en prise again, 2.exd5 wins.
    let pgn = "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. a3 e6 2. exd5 1-0\n";
    let path = std::env::temp_dir().join(format!("extinction-missed-{}.pgn", std::process::id()));
    std::fs::write(&path, pgn).unwrap();
    let (ok, out, err) = run(&[
        "analyze",
        "--pgn",
        path.to_str().unwrap(),
        "--depth",
        "4",
        "--json",
    ]);
    let _ = std::fs::remove_file(&path);
    assert!(ok, "{err}");
    let moves: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"type\":\"move\""))
        .collect();
    assert_eq!(moves.len(), 3, "{out}");
    assert_eq!(json_field(moves[0], "move"), Some("\"a3\""));
    assert_eq!(json_field(moves[0], "blunder"), Some("true"));
    assert_eq!(json_field(moves[1], "blunder"), Some("true"));
    assert_eq!(json_field(moves[2], "blunder"), Some("false"));
    assert!(moves[0].contains("\"best_move\":\"exd5"), "{}", moves[0]);
    assert!(out.lines().last().unwrap().contains("\"blunders\":2"));
}

#[test]
fn analyze_rejects_bad_input_cleanly() {
    for args in [
        vec!["analyze", "--fen", "not a fen"],
        vec!["analyze", "--moves", "e2e5"],
        vec!["analyze", "--pgn", "/nonexistent/file.pgn"],
    ] {
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?} should fail");
        assert!(
            err.starts_with("error: ") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    let (ok, out, _) = run(&[
        "analyze",
        "--fen",
        "rn1qk1nr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert!(ok);
    assert!(
        out.contains("Game over: 1-0 {Black's bishops are extinct}"),
        "{out}"
    );
}

#[test]
fn bench_is_deterministic() {
    let (ok1, out1, _) = run(&["bench", "--depth", "3"]);
    let (ok2, out2, _) = run(&["bench", "--depth", "3"]);
    assert!(ok1 && ok2);
    let nodes = |s: &str| -> u64 {
        s.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .expect("node line")
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!(nodes(&out1), nodes(&out2));
    assert!(nodes(&out1) > 1000);
    assert!(out1.lines().any(|l| l.starts_with("Nodes/second: ")));
}
