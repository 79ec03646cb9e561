//! The engine over UCI, driven through pipes like a GUI: handshake, whole games, options,
//! stop latency, bad input, closed stdin, and the sample game's forced loss.

mod common;

use std::time::{Duration, Instant};

use common::engine_process::EngineProcess;
use common::{legal_moves, random_move, sample_game_final_fen};
use variant_engines::extinction::{parse_uci, Game, Position};
use variant_engines::rng::Rng;

const T: Duration = Duration::from_secs(10);

fn handshake(e: &mut EngineProcess) -> Vec<String> {
    e.send("uci");
    let (_, before) = e.expect_prefix(T, "uciok");
    e.send("isready");
    e.expect_prefix(T, "readyok");
    before
}

fn bestmove(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

#[test]
fn handshake_lists_options_and_variant() {
    let mut e = EngineProcess::start(&["uci"]);
    let lines = handshake(&mut e);
    assert!(lines.iter().any(|l| l.starts_with("id name")));
    for option in ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "missing {option}"
        );
    }
    assert!(lines
        .iter()
        .any(|l| l.contains("option name UCI_Variant type combo") && l.contains("var extinction")));
    assert!(e.close_and_wait(T).expect("exits").success());
}

#[test]
fn auto_detects_uci_from_first_line() {
    let mut e = EngineProcess::start(&[]);
    handshake(&mut e);
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

/// Engine (fixed depth) against a random mover that the test referees with the rules core.
#[test]
fn whole_game_against_random_mover_is_legal_and_ends_properly() {
    for seed in [1u64, 7] {
        let mut e = EngineProcess::start(&["uci"]);
        handshake(&mut e);
        e.send("setoption name UCI_Variant value extinction");
        e.send("ucinewgame");
        let mut game = Game::new(Position::startpos());
        let mut rng = Rng::new(seed);
        let mut moves: Vec<String> = Vec::new();
        let engine_white = seed % 2 == 1;
        let mut plies = 0;
        while game.outcome().is_none() && plies < 300 {
            let engine_turn = (game.position().turn() == shakmaty::Color::White) == engine_white;
            let m = if engine_turn {
                e.send(&format!("position startpos moves {}", moves.join(" ")));
                e.send("go depth 3");
                let (line, _) = e.expect_prefix(T, "bestmove");
                let text = bestmove(&line).to_string();
                let m = parse_uci(game.position(), &text)
                    .unwrap_or_else(|err| panic!("engine move {text}: {err}"));
                assert!(
                    legal_moves(game.position()).contains(&m),
                    "engine played illegal {text}"
                );
                m
            } else {
                random_move(&game, &mut rng)
            };
            moves.push(m.to_string());
            assert!(game.play(m));
            plies += 1;
        }
        let outcome = game.outcome().expect("a game against a random mover ends");
        // A depth-3 engine must beat a random mover.
        let engine_color = if engine_white {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        assert_eq!(
            outcome.winner,
            Some(engine_color),
            "outcome {outcome} after {plies} plies"
        );
        // Asked to move in the finished position, it answers with the null move.
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 2");
        let (line, _) = e.expect_prefix(T, "bestmove");
        assert_eq!(bestmove(&line), "0000");
        e.send("quit");
        assert!(e.wait(T).expect("exits").success());
    }
}

#[test]
fn stop_during_infinite_answers_quickly() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // No bestmove may arrive before stop.
    assert!(e
        .drain(Duration::from_millis(50))
        .iter()
        .all(|l| !l.starts_with("bestmove")));
    let sent = Instant::now();
    e.send("stop");
    let (line, _) = e.expect_prefix(T, "bestmove");
    let latency = sent.elapsed();
    assert!(
        latency < Duration::from_millis(250),
        "stop took {latency:?}"
    );
    let mut game = Game::new(Position::startpos());
    game.play_uci("e2e4").unwrap();
    game.play_uci("e7e5").unwrap();
    let m = parse_uci(game.position(), bestmove(&line)).expect("parsable bestmove");
    assert!(legal_moves(game.position()).contains(&m));
}

#[test]
fn ucinewgame_during_a_search_still_answers_that_go() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ucinewgame");
    e.expect_prefix(T, "bestmove");
    // The engine is ready for the new game and answers the next search once.
    e.send("isready");
    e.expect_prefix(T, "readyok");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    e.expect_prefix(T, "bestmove");
    let extra = e.drain(Duration::from_millis(200));
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "{extra:?}"
    );
}

#[test]
fn infinite_search_of_a_solved_position_still_waits_for_stop() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send(&format!("position fen {}", sample_game_final_fen()));
    e.send("go infinite");
    let extra = e.drain(Duration::from_millis(500));
    assert!(
        extra.iter().all(|l| !l.starts_with("bestmove")),
        "bestmove before stop: {extra:?}"
    );
    e.send("stop");
    e.expect_prefix(T, "bestmove");
}

#[test]
fn ponder_then_ponderhit_produces_a_move() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    let early = e.drain(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")));
    e.send("ponderhit");
    let (line, _) = e.expect_prefix(Duration::from_secs(3), "bestmove");
    assert!(bestmove(&line).len() >= 4);
}

#[test]
fn bad_input_is_reported_and_state_stays_sane() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    let errors = |e: &mut EngineProcess, cmd: &str| {
        e.send(cmd);
        e.send("isready");
        let (_, before) = e.expect_prefix(T, "readyok");
        assert!(
            before.iter().any(|l| l.starts_with("info string error")),
            "no error for '{cmd}': {before:?}"
        );
    };
    errors(&mut e, "frobnicate now");
    errors(&mut e, "go depth banana");
    errors(&mut e, "position fen not/a/fen w - - 0 1");
    errors(&mut e, "setoption name Hash value -3");
    errors(&mut e, "setoption name NoSuchOption value 1");
    errors(&mut e, "setoption name UCI_Variant value chess");
    errors(&mut e, "position");
    // An illegal move keeps the position up to the last legal move.
    errors(&mut e, "position startpos moves e2e4 e7e5 e1e5 d7d5");
    e.send("d");
    let (fen_line, _) = e.expect_prefix(T, "info string fen");
    let mut game = Game::new(Position::startpos());
    game.play_uci("e2e4").unwrap();
    game.play_uci("e7e5").unwrap();
    assert_eq!(
        fen_line.trim_start_matches("info string fen "),
        game.position().fen()
    );
    // Still searches normally.
    e.send("go depth 2");
    let (line, _) = e.expect_prefix(T, "bestmove");
    let m = parse_uci(game.position(), bestmove(&line)).expect("legal bestmove");
    assert!(legal_moves(game.position()).contains(&m));
    // Garbage, long lines and invalid UTF-8 do not kill it.
    e.send_bytes(b"\xff\xfe\x00garbage\n");
    e.send(&"x".repeat(100_000));
    e.send("go wtime -100 btime -100");
    e.expect_prefix(T, "bestmove");
    e.send("isready");
    e.expect_prefix(T, "readyok");
    assert!(e.close_and_wait(T).expect("exits").success());
}

#[test]
fn option_changes_take_effect() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("setoption name Hash value 1");
    e.send("setoption name Threads value 2");
    e.send("setoption name Move Overhead value 5");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Clear Hash");
    e.send("position startpos");
    e.send("go depth 4");
    let (_, before) = e.expect_prefix(T, "bestmove");
    let depth4: Vec<&String> = before
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(depth4.len(), 3, "{before:?}");
    for (i, l) in depth4.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", i + 1)), "{l}");
    }
    // Distinct first moves in the three lines.
    let firsts: std::collections::HashSet<&str> = depth4
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn closed_stdin_during_search_ends_the_process() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let status = e
        .close_and_wait(Duration::from_secs(3))
        .expect("exits after stdin closes");
    assert!(status.success());
}

#[test]
fn sample_game_final_position_is_lost_in_four_within_a_second() {
    let fen = sample_game_final_fen();
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send(&format!("position fen {fen}"));
    e.send("go movetime 1000");
    let (line, before) = e.expect_prefix(T, "bestmove");
    let mate_line = before
        .iter()
        .find(|l| l.contains(" score mate -4 "))
        .unwrap_or_else(|| panic!("no mate -4 in {before:?}"));
    let time: u64 = mate_line
        .split(" time ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(time <= 1000, "{mate_line}");
    let pos = Position::from_fen(&fen).unwrap();
    assert!(legal_moves(&pos).contains(&parse_uci(&pos, bestmove(&line)).unwrap()));
    // The reported PV really ends the game with White's loss after 4 White moves.
    let pv: Vec<&str> = mate_line
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    let mut game = Game::new(pos);
    for m in &pv {
        game.play_uci(m)
            .unwrap_or_else(|err| panic!("pv move {m}: {err}"));
    }
    let outcome = game.outcome().expect("pv ends the game");
    assert_eq!(outcome.winner, Some(shakmaty::Color::Black));
    assert_eq!(pv.len(), 8);
}

#[test]
fn closed_stdout_ends_quietly_without_panic() {
    // The GUI stops reading before the engine has written anything; stdin stays open.
    let (status, err) = common::extinction_into_closed_pipe(
        &["uci"],
        "uci\nposition startpos\ngo depth 4\n",
        Duration::from_secs(10),
    );
    assert!(status.success(), "status {status:?}, stderr {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The reference engine (Fairy-Stockfish 11.1, `.ci/run` installs it) must report the same
/// forced result for the sample game's final position as we do.
#[test]
fn fairy_stockfish_agrees_on_the_sample_game_loss() {
    let fsf = "/usr/games/fairy-stockfish";
    if !common::outside_program_present(
        "Fairy-Stockfish 11.1 (/usr/games/fairy-stockfish)",
        common::executable(fsf),
    ) {
        return;
    }
    let fen = sample_game_final_fen();
    let final_score = |lines: &[String]| -> String {
        let last = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("an info line with a score");
        let tail = last.split(" score ").nth(1).unwrap();
        tail.split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut ours = EngineProcess::start(&["uci"]);
    handshake(&mut ours);
    ours.send(&format!("position fen {fen}"));
    ours.send("go depth 12");
    let (_, ours_lines) = ours.expect_prefix(T, "bestmove");

    let mut child = std::process::Command::new(fsf)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start fairy-stockfish");
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(
            stdin,
            "uci\nsetoption name UCI_Variant value extinction\nposition fen {fen}\ngo depth 14"
        )
        .unwrap();
    }
    let stdout = child.stdout.take().unwrap();
    let mut fsf_lines = Vec::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        fsf_lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        final_score(&ours_lines),
        final_score(&fsf_lines),
        "ours {ours_lines:?}\nFSF {fsf_lines:?}"
    );
    assert!(final_score(&ours_lines).starts_with("mate -"));
}

/// White's only queen on d4 is attacked by e5xd4, and losing it loses the game.
const QUEEN_EN_PRISE: &str = "rnbqkbnr/ppp2ppp/3p4/4p3/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";

/// Whether the side to move loses on the spot after `m` (the opponent captures a last piece).
fn loses_at_once(pos: &Position, m: variant_engines::extinction::Move) -> bool {
    let mut after = pos.clone();
    after.do_move(m);
    legal_moves(&after)
        .into_iter()
        .any(|reply| after.winner_after(reply) == Some(after.turn()))
}

#[test]
fn the_smallest_budgets_still_search_before_moving() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    let pos = Position::from_fen(QUEEN_EN_PRISE).expect("fen");
    for go in [
        "go wtime 100 btime 100",
        "go wtime 0 btime 0",
        "go wtime 1 btime 1 movestogo 1",
        "go depth 0",
        "go movetime 0",
        "go nodes 1",
    ] {
        e.send(&format!("position fen {QUEEN_EN_PRISE}"));
        e.send(go);
        let (line, before) = e.expect_prefix(T, "bestmove");
        assert!(
            before.iter().any(|l| l.starts_with("info depth")),
            "'{go}' moved without a search: {before:?} {line}"
        );
        let m = parse_uci(&pos, bestmove(&line)).expect("legal bestmove");
        assert!(!loses_at_once(&pos, m), "'{go}' blundered: {line}");
    }
}

#[test]
fn every_go_gets_exactly_one_bestmove_even_a_broken_one() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    let start = Position::startpos();
    for go in [
        "go depth -1",
        "go banana",
        "go depth 2 garbage",
        "go wtime 1000.5 btime 1000.5",
        "go wtime 99999999999999999999 btime 99999999999999999999",
        "go depth",
        "go searchmoves e2e5 zz",
    ] {
        e.send("position startpos");
        e.send(go);
        let (line, before) = e.expect_prefix(T, "bestmove");
        assert!(
            before.iter().any(|l| l.starts_with("info string error")),
            "no error for '{go}': {before:?}"
        );
        parse_uci(&start, bestmove(&line)).expect("legal bestmove");
        e.send("isready");
        let (_, after) = e.expect_prefix(T, "readyok");
        assert!(
            after.iter().all(|l| !l.starts_with("bestmove")),
            "'{go}' answered twice: {after:?}"
        );
    }
    // The valid part of a go still applies: only the named legal moves are searched.
    e.send("position startpos");
    e.send("go depth 3 searchmoves a2a3 zz");
    let (line, before) = e.expect_prefix(T, "bestmove");
    assert_eq!(bestmove(&line), "a2a3", "{before:?}");
    // A go during a search answers the running one first, then its own.
    e.send("go infinite");
    e.send("go depth 1");
    e.expect_prefix(T, "bestmove");
    e.expect_prefix(T, "bestmove");
    e.send("isready");
    let (_, after) = e.expect_prefix(T, "readyok");
    assert!(
        after.iter().all(|l| !l.starts_with("bestmove")),
        "{after:?}"
    );
}

#[test]
fn go_perft_leaves_the_engine_listening() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go perft 2");
    let (line, rows) = e.expect_prefix(T, "Nodes searched");
    assert_eq!(line, "Nodes searched: 400");
    assert_eq!(rows.len(), 20, "{rows:?}");
    e.send("go perft 99");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    e.send("isready");
    e.expect_prefix(Duration::from_secs(2), "readyok");
    e.send("stop");
    e.expect_prefix(Duration::from_secs(2), "info string perft stopped");
    e.send("go perft 99");
    e.send("quit");
    assert!(
        e.wait(Duration::from_secs(3))
            .expect("quit during perft")
            .success(),
        "after {:?}",
        asked.elapsed()
    );
}

#[test]
fn movetime_is_the_time_to_use_whatever_the_move_overhead() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    // The default Move Overhead (50 ms) protects clocks, not a fixed move time.
    e.send("position startpos");
    e.send("go movetime 150");
    let sent = Instant::now();
    let (_, before) = e.expect_prefix(T, "bestmove");
    let took = sent.elapsed();
    let last_info_ms: u64 = before
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "time")?;
            words.get(at + 1)?.parse().ok()
        })
        .expect("an info line with a time");
    // It searched most of the 150 ms (the reply slack is a few ms, not 50)...
    assert!(
        took >= Duration::from_millis(140),
        "answered after {took:?}"
    );
    assert!(last_info_ms <= 150, "last report at {last_info_ms} ms");
    // ...and did not overrun it by much (generous: the machine may be loaded).
    assert!(took < Duration::from_millis(600), "answered after {took:?}");
}

#[test]
fn bestmove_and_ponder_are_the_last_printed_line() {
    let mut e = EngineProcess::start(&["uci"]);
    handshake(&mut e);
    // Node limits stop a search inside an iteration: the answer is still the line printed.
    for (position, nodes) in [
        // Each of these answered with another move or ponder move than its last PV before.
        ("startpos", 12000),
        ("startpos moves e2e4", 4000),
        ("startpos moves d2d4 d7d5", 1000),
        ("startpos moves d2d4 d7d5", 12000),
    ] {
        e.send(&format!("position {position}"));
        e.send(&format!("go nodes {nodes}"));
        let (line, before) = e.expect_prefix(T, "bestmove");
        let pv: Vec<&str> = before
            .iter()
            .rev()
            .find_map(|l| l.split_once(" pv ").map(|(_, pv)| pv))
            .expect("an info line with a pv")
            .split_whitespace()
            .collect();
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            words.get(1),
            pv.first(),
            "{position}: {line} after pv {pv:?}"
        );
        assert_eq!(
            words.get(3),
            pv.get(1),
            "{position}: {line} after pv {pv:?}"
        );
    }
}
