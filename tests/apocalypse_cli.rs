//! The `apocalypse` command line: output of `moves` and `play`, and clean errors (exit 2).

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(args)
        .output()
        .expect("run apocalypse");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn moves_lists_both_sides() {
    let (code, out, _) = run(&["moves", "start"]);
    assert_eq!(code, 0);
    assert!(out.contains("White (10): a1c2 a1b3 b1b2 c1c2 d1d2 e1c2 e1d3 a2a3 e2e3 0000"));
    assert!(out.contains("Black (10): a5c4 a5b3 b5b4 c5c4 d5d4 e5c4 e5d3 a4a3 e4e3 0000"));
}

#[test]
fn play_prints_the_new_position_first() {
    let (code, out, _) = run(&["play", "npppn/p3p/5/P3P/NPPPN 00 0 1", "C1-C2 e4e3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("npppn/p4/4p/P1P1P/NP1PN 00 0 2"));
    let (code, out, _) = run(&["play", "start", "c1c3", "e4e3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("npppn/p4/4p/P3P/NPPPN 10 0 2"));
    assert!(out.contains("illegal"));
}

#[test]
fn malformed_input_is_one_line_on_stderr_with_exit_code_2() {
    for args in [
        vec!["moves", "npppn/p3p/5/P3P"],
        vec!["moves", "Ppppn/p3p/5/P3P/NPPPN"],
        vec!["play", "start", "c1c2"],
        vec!["play", "start", "c1c9 e4e3"],
        vec!["play", "nonsense", "c1c2 e4e3"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn solve_json_has_the_documented_shape() {
    let (code, out, _) = run(&["solve", "4n/5/1p1N1/5/N3P", "--turns", "1", "--json"]);
    assert_eq!(code, 0);
    // Hand-solved matching game (see tests/apocalypse_solver.rs): White's strategy is unique.
    assert!(
        out.starts_with(r#"{"value": 0.5, "white": {"a1b3": 0.5, "d3b2": 0.5}, "black": {"#),
        "{out}"
    );
    assert!(out.contains(r#""turns": 1, "nodes": "#), "{out}");
    assert_eq!(out.trim().lines().count(), 1);
    for method in [&[][..], &["--plain"][..]] {
        let mut args = vec!["solve", "start", "--turns", "2", "--json"];
        args.extend_from_slice(method);
        let (code, out, _) = run(&args);
        assert_eq!(code, 0);
        assert!(out.starts_with(r#"{"value": 0, "white": {"#), "{out}");
    }
}

#[test]
fn solve_text_output_lists_strategies_and_exploitability() {
    let (code, out, _) = run(&["solve", "4n/5/1p1N1/5/N3P 00 0 1", "--turns", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("value (White): 0.500000000"), "{out}");
    assert!(out.contains("White: a1b3 0.500000, d3b2 0.500000"), "{out}");
    assert!(out.contains("exploitability: "), "{out}");
    let (code, _, err) = run(&["solve", "start", "--turns", "x"]);
    assert_eq!(code, 2);
    assert!(!err.contains("panicked"));
    let (code, _, err) = run(&["solve", "5/p4/5/P4/5 0", "--turns", "2"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1);
}

/// Runs `apocalypse args` with its stdout a pipe whose reading end is already closed (as when
/// `| head -1` has gone away), stdin fed `input`; returns the exit code and stderr.
fn run_with_stdout_closed(args: &[&str], input: &str) -> (Option<i32>, String) {
    use std::io::Write;
    use std::process::Stdio;
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run apocalypse");
    // The child may exit before reading its input; a failed write is fine then.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().expect("wait for apocalypse");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_subcommand_ends_quietly_when_its_output_is_closed() {
    let dir = std::env::temp_dir().join(format!("apoc-cli-pipe-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    // A tablebase directory to probe and verify (K = 3 takes well under a second), named as
    // the other commands name it.
    let (code, _, err) = run(&["tb", "build", "--max-pieces", "3", "--tb-dir", d]);
    assert_eq!(code, 0, "tb build: {err}");
    assert!(dir.join("classic").join("PNvp-00.tb").exists());
    // A build whose report has nobody to read it stops after its first class, quietly.
    let (code, err) = run_with_stdout_closed(&["tb", "build", "--max-pieces", "4", "--dir", d], "");
    assert_eq!(code, Some(0), "tb build: {err}");
    let small = "4p/5/1N3/2P2/5 00";
    let cases: Vec<Vec<&str>> = vec![
        vec!["moves", "start"],
        vec!["play", "start", "c1c2 e4e3"],
        vec!["solve", "start", "--turns", "2"],
        vec!["solve", "start", "--turns", "2", "--json"],
        vec!["solve", "start", "--depth", "2", "--tb-dir", d],
        vec!["tb", "probe", small, "--dir", d],
        vec!["tb", "verify", "--dir", d],
        vec!["exploit", small, "--depth", "1", "--tb-dir", d],
        vec![
            "exploit",
            "--tb-class",
            "PNvp-00",
            "--depth",
            "1",
            "--step",
            "400",
            "--tb-dir",
            d,
        ],
        vec!["play-human", small, "--movetime", "10", "--tb-dir", d],
        vec![
            "selfplay",
            "--games",
            "2",
            "--movetime",
            "10",
            "--tb-dir",
            d,
        ],
        vec!["bench", "--file", "benches/apocalypse-positions.txt"],
        // The server's one line of output is its address: with nobody to read it, it stops.
        vec!["serve", "--port", "0", "--tb-dir", d],
        vec!["--help"],
    ];
    for args in cases {
        let (code, err) = run_with_stdout_closed(&args, "c2c3\nquit\n");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_position_is_a_usage_error_that_says_so() {
    for args in [
        vec!["moves"],
        vec!["solve", "--turns", "2"],
        vec!["tb", "probe"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(
            err.contains("required") && err.contains("<POSITION>"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_tablebase_directory_that_does_not_exist_is_reported_and_the_search_goes_on() {
    let (code, out, err) = run(&[
        "solve",
        "start",
        "--depth",
        "1",
        "--tb-dir",
        "/nonexistent/apocalypse-tables",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("depth  1"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("/nonexistent/apocalypse-tables") && err.contains("does not exist"),
        "{err}"
    );
    // Without --tb-dir a missing default directory is no news.
    let (code, _, err) = run(&["solve", "start", "--depth", "1"]);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn options_the_exact_solve_cannot_honour_are_usage_errors() {
    // The N-turn game's values are not the tablebases' (those of the game without a turn
    // limit), so --tb-dir cannot help --turns; --plain only selects an exact solver.
    for args in [
        vec!["solve", "start", "--turns", "2", "--tb-dir", "tablebases"],
        vec!["solve", "start", "--depth", "1", "--plain"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
}

#[test]
fn rules_flag_selects_the_vchess_reading_on_every_subcommand() {
    let (code, out, _) = run(&["moves", "start", "--rules", "vchess"]);
    assert_eq!(code, 0);
    assert!(out.contains("White (16): "), "{out}");
    assert!(out.contains(" a2b3 e2d3 0000"), "{out}");
    let (code, out, _) = run(&["play", "--rules", "vchess", "start", "a2b3 a5b3"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("1pppn/p3p/1P3/4P/NPPPN 00 0 2"));
    // Classic is the default; vchess changes the exact values of this position (White's
    // last footman may advance: under classic it is a draw by rule 4.3, under vchess White
    // must move or forfeit).
    let classic = run(&["solve", "4p/3P1/5/5/5", "--turns", "2", "--json"]).1;
    let vchess = run(&[
        "solve",
        "4p/3P1/5/5/5",
        "--turns",
        "2",
        "--json",
        "--rules",
        "vchess",
    ])
    .1;
    assert!(classic.starts_with(r#"{"value": 0,"#), "{classic}");
    assert!(!vchess.starts_with(r#"{"value": 0,"#), "{vchess}");
    let (code, _, err) = run(&["moves", "start", "--rules", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown rule set 'chess'"), "{err}");
}
