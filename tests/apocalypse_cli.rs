//! The `apocalypse` command line: output of `moves` and `play`, and clean errors (exit 2).

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
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
