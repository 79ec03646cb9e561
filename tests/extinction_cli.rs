//! The `extinction` command line through the release binary: `analyze`, `bench` and `perft`
//! (output formats, threads, clean errors), and every subcommand meeting a closed output pipe.

mod common;

use std::time::Duration;

use common::sample_game_final_fen;

/// Run `extinction args`: (success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let r = common::extinction(args);
    (r.code == 0, r.stdout, r.stderr)
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
    let (ok, text, _) = run(&["analyze", "--fen", &fen, "--depth", "12"]);
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

/// A PGN file in a fresh temporary path; removed when dropped.
struct TempPgn(std::path::PathBuf);

impl TempPgn {
    fn new(name: &str, text: &str) -> TempPgn {
        let path =
            std::env::temp_dir().join(format!("extinction-{name}-{}.pgn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempPgn(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempPgn {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn analyze_pgn_reads_every_game_of_a_cutechess_file() {
    // Two games as cutechess-cli's -pgnout writes them: tags, clock comments, a blank line.
    let pgn = TempPgn::new(
        "two-games",
        "[Event \"m\"]\n[White \"Extinction\"]\n[Black \"FSF\"]\n[Result \"1-0\"]\n\
         [FEN \"rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n\
         1. a3 {+0.52/7 0.012s} e6 {-9.80/8 0.011s} 2. exd5 {+99.99/1 0.001s} 1-0\n\n\
         [Event \"m\"]\n[White \"FSF\"]\n[Black \"Extinction\"]\n[Result \"*\"]\n\n\
         1. e4 {+0.30/6 0.01s} d5 {-0.25/6 0.01s} *\n",
    );
    let (ok, out, err) = run(&["analyze", "--pgn", pgn.path(), "--depth", "2", "--json"]);
    assert!(ok, "{err}");
    let games: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"type\":\"game\""))
        .collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(games[1].contains("\"white\":\"FSF\""), "{}", games[1]);
    let moves_of = |game: &str| {
        out.lines()
            .filter(|l| l.contains("\"type\":\"move\"") && l.contains(game))
            .count()
    };
    assert_eq!(
        (moves_of("\"game\":1,"), moves_of("\"game\":2,")),
        (3, 2),
        "{out}"
    );
    assert_eq!(
        out.lines().last(),
        Some("{\"type\":\"summary\",\"games\":2,\"moves\":5,\"blunders\":2}")
    );
    let (ok, text, err) = run(&["analyze", "--pgn", pgn.path(), "--depth", "2"]);
    assert!(ok, "{err}");
    assert!(text.contains("Game 2: FSF - Extinction *"), "{text}");
    assert!(text.contains("2 games, 5 moves analysed"), "{text}");
}

#[test]
fn analyze_pgn_reports_moves_after_the_end_of_the_game() {
    // 2.exd5 takes Black's last bishop; the two moves after it cannot have been played.
    let pgn = TempPgn::new(
        "after-end",
        "[FEN \"rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1\"]\n\n\
         1. a3 e6 2. exd5 Nc6 3. Nf3 1-0\n",
    );
    let (ok, out, err) = run(&["analyze", "--pgn", pgn.path(), "--depth", "2", "--json"]);
    assert!(ok, "{err}");
    let warning = out
        .lines()
        .find(|l| l.contains("\"type\":\"warning\""))
        .unwrap_or_else(|| panic!("no warning in\n{out}"));
    assert!(
        warning.contains("2 moves after the end of the game (ply 4 on) not analysed: Nc6 Nf3"),
        "{warning}"
    );
    let (ok, text, _) = run(&["analyze", "--pgn", pgn.path(), "--depth", "2"]);
    assert!(ok);
    assert!(
        text.contains("warning: game 1: 2 moves after the end of the game"),
        "{text}"
    );
}

#[test]
fn analyze_pgn_without_moves_is_an_error() {
    for (name, text, message) in [
        ("empty", "", "holds no PGN game"),
        ("comment", "{ nothing here }\n", "holds no PGN game"),
        (
            "tags-only",
            "[Event \"x\"]\n[Result \"*\"]\n\n*\n",
            "holds no moves to analyse",
        ),
    ] {
        let pgn = TempPgn::new(name, text);
        let r = common::extinction(&["analyze", "--pgn", pgn.path(), "--depth", "1"]);
        assert_eq!(r.code, 2, "{name}: {}", r.stdout);
        assert!(r.stderr.contains(message), "{name}: {}", r.stderr);
    }
}

#[test]
fn analyze_options_that_a_pgn_cannot_use_are_usage_errors() {
    let pgn = TempPgn::new("options", "1. e4 *\n");
    for extra in [["--moves", "e2e4"], ["--multipv", "2"]] {
        let mut args = vec!["analyze", "--pgn", pgn.path(), "--depth", "1"];
        args.extend(extra);
        let r = common::extinction(&args);
        assert_eq!(r.code, 2, "{extra:?}: {}", r.stdout);
        assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    }
}

#[test]
fn perft_threads_are_capped_like_uci_threads() {
    for threads in ["0", "65", "100000"] {
        let r = common::extinction(&["perft", "--depth", "1", "--threads", threads]);
        assert_eq!(r.code, 2, "--threads {threads}: {}", r.stdout);
        assert!(r.stderr.contains("not in 1..=64"), "{}", r.stderr);
    }
    let r = common::extinction(&["perft", "--depth", "2", "--threads", "64"]);
    assert_eq!(r.stdout.trim(), "Nodes searched: 400");
}

#[test]
fn help_describes_this_binary_only() {
    let (ok, out, _) = run(&["--help"]);
    assert!(ok);
    assert!(out.starts_with("Extinction chess engine"), "{out}");
    assert!(!out.contains("Apocalypse"), "{out}");
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

#[test]
fn divide_lines_and_total() {
    // Fairy-Stockfish 11.1: go perft 3 from the start gives 8902, e.g. e2e4: 600.
    let r = common::extinction(&["perft", "--depth", "3", "--divide", "--threads", "2"]);
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 600"));
    assert_eq!(lines[20], "Nodes searched: 8902");
}

#[test]
fn fen_option_and_threads() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let r = common::extinction(&["perft", "--depth", "3", "--fen", fen, "--threads", "2"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.trim(), "Nodes searched: 98456");
    let r = common::extinction(&["perft", "--depth", "1", "--fen", fen, "--divide"]);
    assert!(r.stdout.contains("e1g1: 1") && r.stdout.contains("e1c1: 1"));
}

#[test]
fn bad_fen_is_one_line_exit_2() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "garbage",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "P7/8/8/8/8/8/8/k6K w - -",
    ] {
        let r = common::extinction(&["perft", "--depth", "2", "--fen", fen]);
        assert_eq!(r.code, 2, "{fen}");
        assert!(r.stdout.is_empty());
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
}

#[test]
fn every_subcommand_survives_a_closed_output_pipe() {
    let dir = std::env::temp_dir().join(format!("extinction-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let openings = file("openings.epd", &format!("{start}\n"));
    let pgn = file(
        "game.pgn",
        "[Result \"0-1\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. a3 e5 5. b4 Bxb4 0-1\n",
    );
    let labelled = file("labelled.txt", &format!("{start} | 0.5\n").repeat(120));
    let (selfplay, imported, weights) = (
        dir.join("selfplay.txt"),
        dir.join("imported.txt"),
        dir.join("weights.rs"),
    );
    let sample = sample_game_final_fen();
    let session = "uci\nposition startpos\ngo depth 3\nisready\n";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perft", "--depth", "3", "--divide"], ""),
        (vec!["perft", "--depth", "3", "--threads", "2"], ""),
        (vec!["analyze", "--depth", "4"], ""),
        (
            vec!["analyze", "--fen", &sample, "--depth", "4", "--json"],
            "",
        ),
        (vec!["analyze", "--pgn", &pgn, "--depth", "2"], ""),
        (vec!["bench", "--depth", "1"], ""),
        (
            vec![
                "datagen",
                "--games",
                "1",
                "--nodes",
                "200",
                "--openings",
                &openings,
            ],
            "",
        ),
        (vec!["import-pgn", "--pgn", &pgn, "--skip-plies", "0"], ""),
        (
            vec![
                "tune",
                "--data",
                &labelled,
                "--epochs",
                "1",
                "--holdout",
                "0",
            ],
            "",
        ),
        (vec!["uci"], session),
        (vec!["xboard"], "xboard\nprotover 2\nping 1\n"),
        (vec![], session),
        (vec!["--help"], ""),
    ];
    for (mut args, input) in cases {
        match args.first() {
            Some(&"datagen") => args.extend(["--out", selfplay.to_str().unwrap()]),
            Some(&"import-pgn") => args.extend(["--out", imported.to_str().unwrap()]),
            Some(&"tune") => args.extend(["--out", weights.to_str().unwrap()]),
            _ => {}
        }
        let (status, err) =
            common::extinction_into_closed_pipe(&args, input, Duration::from_secs(120));
        assert!(
            status.success() && !err.contains("panicked"),
            "{args:?}: {status:?}, {err}"
        );
    }
    // The tools that write files did write them.
    assert!(std::fs::read_to_string(&imported).unwrap().contains(" | 0"));
    assert!(std::fs::read_to_string(&weights)
        .unwrap()
        .contains("pub const TUNED_WEIGHTS"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn import_pgn_labels_both_sides_of_a_scored_move() {
    // Engine A's scores label the position before each of its moves and the one after it,
    // as White's expected score; B's moves and scores are not used.
    let dir = std::env::temp_dir().join(format!("extinction-score-of-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("scored.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
         1. e4 {+0.50/10 0.1s} e5 {-0.30/9 0.1s} 2. Nf3 {+1.00/10 0.1s} Nc6 {+M3/9 0.1s} 1-0\n",
    )
    .unwrap();
    let out = dir.join("labels.txt");
    let (ok, _, err) = run(&[
        "import-pgn",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--score-of",
        "A",
        "--skip-plies",
        "0",
    ]);
    assert!(ok, "{err}");
    let labels = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let lines: Vec<&str> = labels.lines().collect();
    let expect = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5715",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 0.5715",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 0.6401",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 | 0.6401",
    ];
    assert_eq!(lines, expect, "{labels}");
}

/// The JSON text of `key`'s value in a one-line object, up to the next top-level field.
fn json_value<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        + key.len()
        + 3;
    let rest = &line[start..];
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' if depth > 0 => depth -= 1,
            ',' | '}' if depth == 0 => return &rest[..i],
            _ => {}
        }
    }
    rest
}

#[test]
fn analyze_result_is_the_last_reported_line() {
    // A node limit stops the search inside an iteration: the answer is still the line of
    // the last completed one, the same as the last info line.
    for nodes in ["1", "700", "5000"] {
        let (ok, out, err) = run(&["analyze", "--nodes", nodes, "--json"]);
        assert!(ok, "{err}");
        let info = out
            .lines()
            .rfind(|l| l.contains("\"type\":\"info\""))
            .expect("an info line");
        let result = out
            .lines()
            .find(|l| l.contains("\"type\":\"result\""))
            .expect("a result line");
        for key in ["score", "depth", "pv_san"] {
            assert_eq!(
                json_value(info, key),
                json_value(result, key),
                "nodes {nodes}: {key}\n{info}\n{result}"
            );
        }
    }
}

#[test]
fn analyze_depth_zero_searches_depth_one() {
    let (ok, out, err) = run(&["analyze", "--depth", "0", "--json"]);
    assert!(ok, "{err}");
    let result = out
        .lines()
        .find(|l| l.contains("\"type\":\"result\""))
        .expect("a result line");
    assert_eq!(json_value(result, "depth"), "1", "{result}");
    assert!(json_value(result, "score").contains("cp"), "{result}");
    let nodes: u64 = json_value(result, "nodes").parse().expect("nodes");
    assert!(nodes > 0, "{result}");
}
