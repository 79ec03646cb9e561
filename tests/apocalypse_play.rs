//! Playing: the terminal game handles bad input and closed stdin; engine matches run.

use std::io::Write;
use std::process::{Command, Stdio};

fn play_human(input: &[u8]) -> (Option<i32>, String, String) {
    play_human_with(input, &[])
}

fn play_human_with(input: &[u8], options: &[&str]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args([
            "play-human",
            "4p/5/1N3/2P2/5 00",
            "--movetime",
            "50",
            "--seed",
            "3",
            "--tb-dir",
            "/nonexistent",
        ])
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_text_reprompts_illegal_moves_warn_and_closed_stdin_ends_cleanly() {
    let (code, out, err) = play_human(b"hello\nc2c4\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("invalid move 'hello'"), "{out}");
    assert!(out.contains("warning: c2c4 is not a legal move"), "{out}");
    assert!(
        out.contains("White declared c2c4 (illegal): void, one penalty point"),
        "{out}"
    );
    assert!(out.contains("end of input"), "{out}");
    assert!(!err.contains("panicked"));
}

#[test]
fn input_that_is_not_utf8_reprompts_instead_of_ending_the_game() {
    let (code, out, err) = play_human(b"\xff\xfe junk\nb3c5\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("unreadable input (not UTF-8 text); try again"),
        "{out}"
    );
    assert!(out.contains("You declared b3c5"), "{out}");
}

#[test]
fn the_engine_answers_every_declared_move_and_the_board_is_redrawn() {
    let (code, out, _) = play_human(b"b3c5\nc5b3\n");
    assert_eq!(code, Some(0));
    let turns = out.matches("You declared").count();
    // Two turns, unless the game ended after the first.
    assert!(
        turns == 2 || (turns == 1 && out.contains("game over")),
        "{out}"
    );
    assert!(out.matches("   a b c d e").count() > turns, "{out}");
}

#[test]
fn the_engine_says_what_it_thinks_of_the_person_unless_told_not_to_model_them() {
    let (code, out, _) = play_human(b"b3c5\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("Engine's model of you: trust 0 %"), "{out}");
    let (code, out, _) = play_human_with(b"b3c5\n", &["--no-exploit"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("You declared b3c5"), "{out}");
    assert!(!out.contains("model of you"), "{out}");
}

/// A 4-game match at depth 1 without tablebases, with these extra options: exit code, stdout.
fn selfplay(options: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args([
            "selfplay",
            "--games",
            "4",
            "--depth",
            "1",
            "--tb-dir",
            "/nonexistent",
        ])
        .args(options)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn selfplay_against_random_reports_a_score_with_an_error_bar() {
    let (code, text) = selfplay(&["--position", "p1n2/1p3/5/1P3/2N1P 00"]);
    assert_eq!(code, Some(0));
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 4);
    assert!(text.contains("4 games: W"), "{text}");
    assert!(text.contains("+/-"), "{text}");
}

#[test]
fn random_openings_are_unfinished_reproducible_and_varied() {
    use variant_engines::apocalypse::play::random_opening;
    use variant_engines::apocalypse::rules::board::Position;
    use variant_engines::apocalypse::rules::outcome::outcome;
    use variant_engines::apocalypse::rules::ruleset::RuleSet;
    use variant_engines::rng::Rng;
    let rules = RuleSet::Classic;
    let start = Position::start();
    let mut rng = Rng::new(5);
    let openings: Vec<Position> = (0..20)
        .map(|_| random_opening(&start, 3, rules, &mut rng).unwrap())
        .collect();
    for p in &openings {
        assert_eq!(p.turn, start.turn + 3);
        assert!(!outcome(p, rules).is_over());
    }
    let distinct: std::collections::HashSet<u64> = openings.iter().map(|p| p.key).collect();
    assert!(
        distinct.len() >= 15,
        "{} distinct openings of 20",
        distinct.len()
    );
    let mut again = Rng::new(5);
    assert_eq!(
        random_opening(&start, 3, rules, &mut again).unwrap(),
        openings[0]
    );
    // No turns: the start itself.
    assert_eq!(random_opening(&start, 0, rules, &mut again).unwrap(), start);
}

#[test]
fn exploiting_the_alphabeta_player_by_its_own_search_works_at_a_fixed_depth() {
    // Without a clock the prediction searches to the engine's depth (it used to need a
    // movetime and predicted nothing).
    let (code, text) = selfplay(&[
        "--opponent",
        "alphabeta",
        "--engine",
        "safe",
        "--alphabeta-model",
        "--random-turns",
        "2",
    ]);
    assert_eq!(code, Some(0), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("exploitation: "))
        .unwrap_or_else(|| panic!("{text}"));
    let predicted: u32 = line
        .trim_start_matches("exploitation: ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(predicted > 0, "{line}");
}

#[test]
fn selfplay_with_random_openings_against_the_alphabeta_player_runs() {
    let (code, text) = selfplay(&["--opponent", "alphabeta", "--random-turns", "2"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("4 games: W"), "{text}");
}

#[test]
fn the_default_player_exploits_and_the_equilibrium_engine_is_one_flag_away() {
    let (code, text) = selfplay(&["--opponent", "alphabeta", "--random-turns", "2"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("exploitation: "), "{text}");
    let (code, text) = selfplay(&[
        "--opponent",
        "alphabeta",
        "--random-turns",
        "2",
        "--engine",
        "equilibrium",
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("exploitation: "), "{text}");
    // The alpha-beta model is only for a match against the alpha-beta player.
    let (code, _) = selfplay(&["--opponent", "random", "--alphabeta-model"]);
    assert_eq!(code, Some(2));
}
