//! The engine over XBoard/CECP v2, driven through pipes like a GUI: features, variant setup,
//! whole games with result claims, bad input, analysis, highlight, closed stdin.

mod common;

use std::time::Duration;

use common::engine_process::EngineProcess;
use common::{legal_moves, random_move, sample_game_final_fen};
use variant_engines::extinction::{parse_uci, Game, Position};
use variant_engines::rng::Rng;

const T: Duration = Duration::from_secs(10);

fn start() -> EngineProcess {
    let mut e = EngineProcess::start(&["xboard"]);
    e.send("xboard");
    e.send("protover 2");
    let (_, before) = e.expect(T, "feature done=1", |l| l.contains("done=1"));
    let features = before.join(" ");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "playother=1",
        "analyze=1",
        "highlight=1",
        "memory=1",
        "smp=1",
    ] {
        assert!(features.contains(f), "missing {f} in {features}");
    }
    assert!(features.contains("variants=\"extinction\""));
    assert!(features.contains("myname=\""));
    e
}

fn ping(e: &mut EngineProcess, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let (_, before) = e.expect(T, "pong", |l| l == format!("pong {n}"));
    before
}

#[test]
fn variant_setup_and_auto_detection() {
    let mut e = EngineProcess::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect(T, "done=1", |l| l.contains("done=1"));
    e.send("variant extinction");
    let lines = ping(&mut e, 1);
    assert!(lines.iter().any(|l| l
        == "setup (PNBRQKpnbrqk) 8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    assert!(lines.iter().any(|l| l.starts_with("piece K& ")));
    e.send("variant crazyhouse");
    assert!(ping(&mut e, 2).iter().any(|l| l.starts_with("Error")));
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

/// The engine plays a whole game against a random mover and claims the result.
#[test]
fn whole_game_with_result_claim() {
    for (seed, engine_white) in [(3u64, false), (11, true)] {
        let mut e = start();
        e.send("new");
        e.send("variant extinction");
        e.send("sd 3");
        e.send("post");
        let mut game = Game::new(Position::startpos());
        let mut rng = Rng::new(seed);
        if engine_white {
            e.send("go");
        }
        let mut claim = None;
        for _ in 0..300 {
            if game.outcome().is_some() {
                break;
            }
            let engine_turn = (game.position().turn() == shakmaty::Color::White) == engine_white;
            if engine_turn {
                let (line, _) = e.expect_prefix(T, "move ");
                let text = line.trim_start_matches("move ");
                let m = parse_uci(game.position(), text)
                    .unwrap_or_else(|err| panic!("engine move {text}: {err}"));
                assert!(
                    legal_moves(game.position()).contains(&m),
                    "illegal engine move {text}"
                );
                game.play(m);
            } else {
                let m = random_move(&game, &mut rng);
                game.play(m);
                e.send(&format!("usermove {m}"));
            }
            if game.outcome().is_some() {
                let (line, _) = e.expect(T, "result claim", |l| {
                    l.starts_with("1-0 {") || l.starts_with("0-1 {") || l.starts_with("1/2-1/2 {")
                });
                claim = Some(line);
            }
        }
        let outcome = game.outcome().expect("game ends");
        let claim = claim.expect("engine claimed the result");
        assert_eq!(
            claim,
            format!("{} {{{}}}", outcome.result_str(), outcome.reason)
        );
        let engine_color = if engine_white {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        assert_eq!(outcome.winner, Some(engine_color));
        e.send(&format!("result {}", outcome.result_str()));
        e.send("quit");
        assert!(e.wait(T).expect("exits").success());
    }
}

#[test]
fn bad_input_gets_cecp_errors() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    e.send("usermove xyz");
    e.send("frobnicate");
    e.send("level x y z");
    e.send("setboard this is not a fen");
    e.send_bytes(b"\xc3\x28 junk\n");
    let lines = ping(&mut e, 7);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Illegal move") && l.ends_with(": e2e5")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Illegal move") && l.ends_with(": xyz")));
    assert!(lines
        .iter()
        .any(|l| l == "Error (unknown command): frobnicate"));
    assert!(lines.iter().any(|l| l.starts_with("Error (level")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("tellusererror Illegal position")));
    // The position is unchanged: e2e4 still legal, then the engine answers.
    e.send("usermove e2e4");
    e.send("sd 2");
    e.send("go");
    let (line, _) = e.expect_prefix(T, "move ");
    let mut game = Game::new(Position::startpos());
    game.play_uci("e2e4").unwrap();
    assert!(game.play(parse_uci(game.position(), line.trim_start_matches("move ")).expect("legal")));
    assert!(e.close_and_wait(T).expect("exits").success());
}

#[test]
fn user_move_that_ends_the_game_is_claimed() {
    let mut e = start();
    e.send("new");
    e.send("variant extinction");
    e.send("force");
    // Black has one bishop left on d5; exd5 makes Black's bishops extinct.
    e.send("setboard rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    e.send("usermove e4d5");
    let lines = ping(&mut e, 3);
    assert!(
        lines
            .iter()
            .any(|l| l == "1-0 {Black's bishops are extinct}"),
        "{lines:?}"
    );
}

#[test]
fn analyze_finds_the_forced_loss_and_exit_stops() {
    let mut e = start();
    e.send("new");
    e.send("variant extinction");
    e.send("force");
    e.send(&format!("setboard {}", sample_game_final_fen()));
    e.send("post");
    e.send("analyze");
    let (line, _) = e.expect(Duration::from_secs(3), "-100004 score", |l| {
        l.split_whitespace().nth(1) == Some("-100004")
    });
    let centis: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(centis <= 100, "{line}");
    e.send("exit");
    ping(&mut e, 4);
    assert!(
        e.drain(Duration::from_millis(200)).is_empty(),
        "analysis kept running"
    );
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

#[test]
fn move_now_and_time_controls() {
    let mut e = start();
    e.send("new");
    e.send("variant extinction");
    e.send("level 40 0:30 0");
    e.send("time 3000");
    e.send("otim 3000");
    e.send("usermove d2d4");
    e.send("?");
    e.expect_prefix(Duration::from_secs(3), "move ");
    e.send("st 0.2");
    e.send("usermove e2e4");
    e.expect_prefix(Duration::from_secs(3), "move ");
    // playother: engine takes the side not on move, then waits for the user's move.
    e.send("force");
    e.send("playother");
    assert!(ping(&mut e, 5).iter().all(|l| !l.starts_with("move ")));
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

#[test]
fn highlight_undo_remove_memory_cores_options() {
    let mut e = start();
    e.send("new");
    e.send("force");
    e.send("lift g1");
    e.send("memory 8");
    e.send("cores 1");
    e.send("option Move Overhead=20");
    e.send("option Bogus=1");
    let lines = ping(&mut e, 6);
    assert!(
        lines.iter().any(|l| l == "highlight 8/8/8/8/8/5Y1Y/8/8"),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Error") && l.contains("Bogus")));
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("remove");
    e.send("usermove d2d4");
    e.send("undo");
    e.send("usermove c2c4");
    e.send("sd 1");
    e.send("go");
    let (line, _) = e.expect_prefix(T, "move ");
    let mut game = Game::new(Position::startpos());
    game.play_uci("c2c4").unwrap();
    assert!(game.play(parse_uci(game.position(), line.trim_start_matches("move ")).expect("legal")));
    assert!(e.close_and_wait(T).expect("exits").success());
}

/// The engine's side after `new`, `variant extinction`, `post` and the commands in `setup`.
fn new_game(e: &mut EngineProcess, setup: &[&str]) {
    e.send("new");
    e.send("variant extinction");
    for line in setup {
        e.send(line);
    }
    ping(e, 100);
}

#[test]
fn a_level_without_time_commands_uses_the_level_clock() {
    let mut e = start();
    // One second for the whole game: the first move must come well within it (it took
    // 5 s, a fixed default, before).
    new_game(&mut e, &["level 0 0:01 0"]);
    let sent = std::time::Instant::now();
    e.send("usermove e2e4");
    e.expect_prefix(T, "move ");
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(1500), "thought {took:?}");
}

#[test]
fn go_in_a_finished_position_claims_the_result() {
    let mut e = start();
    // White has no queen left: Black has already won.
    new_game(
        &mut e,
        &[
            "force",
            "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
        ],
    );
    e.send("go");
    let (line, _) = e.expect(T, "a result claim", |l| l.contains('{'));
    assert!(line.starts_with("0-1 {"), "{line}");
}

#[test]
fn usermove_is_one_move_and_never_the_engines() {
    let mut e = start();
    new_game(&mut e, &["force"]);
    e.send("usermove e2e4 e7e5");
    assert!(ping(&mut e, 1).iter().any(|l| l.starts_with("Error")));
    // Nothing was played: e2e4 is still White's move to make.
    e.send("usermove e2e4");
    let lines = ping(&mut e, 2);
    assert!(lines.iter().all(|l| !l.starts_with("Illegal")), "{lines:?}");

    // While the engine thinks on its own move (White), a usermove is refused and changes
    // nothing: the engine's move that follows is a legal White move of the start position.
    new_game(&mut e, &["st 1"]);
    e.send("go");
    e.send("usermove d2d4");
    let (error, _) = e.expect_prefix(T, "Error");
    assert!(error.contains("usermove d2d4"), "{error}");
    let (line, _) = e.expect_prefix(T, "move ");
    let m = parse_uci(&Position::startpos(), line.trim_start_matches("move ")).expect("legal");
    assert!(legal_moves(&Position::startpos()).contains(&m));
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

/// Depth and PV of a thinking-output line (`depth score time nodes pv...`).
fn thinking(line: &str) -> Option<(u32, u64, Vec<String>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let depth = words.first()?.parse().ok()?;
    let nodes = words.get(3)?.parse().ok()?;
    Some((
        depth,
        nodes,
        words[4..].iter().map(|w| w.to_string()).collect(),
    ))
}

/// Play the engine's move after `user`; returns the move, its expected reply and how long the
/// engine took.
fn engine_reply(e: &mut EngineProcess, user: &str) -> (String, Option<String>, Duration) {
    let sent = std::time::Instant::now();
    e.send(&format!("usermove {user}"));
    let (line, before) = e.expect_prefix(T, "move ");
    let took = sent.elapsed();
    let pv = before.iter().rev().find_map(|l| thinking(l)).map(|t| t.2);
    let played = line.trim_start_matches("move ").to_string();
    let expected = pv.and_then(|pv| {
        assert_eq!(pv.first(), Some(&played), "move is not the PV's first");
        pv.get(1).cloned()
    });
    (played, expected, took)
}

#[test]
fn pondering_thinks_on_the_opponents_time() {
    let mut e = start();
    let mut game = Game::new(Position::startpos());
    let play = |game: &mut Game, text: &str| {
        let m = parse_uci(game.position(), text).expect("legal move");
        assert!(game.play(m));
    };
    // 30 s for the game, no time commands: under a second for a move thought from scratch.
    new_game(&mut e, &["hard", "post", "level 0 0:30 0"]);
    play(&mut game, "e2e4");
    let (reply, expected, fresh) = engine_reply(&mut e, "e2e4");
    play(&mut game, &reply);
    let expected = expected.expect("a ponder move");
    // While we wait, it ponders: thinking lines with growing node counts, and ping is
    // answered at once without stopping it. 2.5 s is more than a move's share (under 30 s / 15).
    std::thread::sleep(Duration::from_millis(2500));
    let pondering: Vec<u64> = e
        .drain(Duration::from_millis(100))
        .iter()
        .filter_map(|l| thinking(l).map(|t| t.1))
        .collect();
    assert!(
        pondering.len() >= 2 && pondering.windows(2).all(|w| w[0] < w[1]),
        "no pondering: {pondering:?}"
    );
    let lines = ping(&mut e, 7);
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    // The expected reply: it pondered longer than a move's share, so it answers at once,
    // continuing the same search (no new depth-1 iteration).
    play(&mut game, &expected);
    let sent = std::time::Instant::now();
    e.send(&format!("usermove {expected}"));
    let (line, before) = e.expect_prefix(T, "move ");
    let ponder_hit = sent.elapsed();
    assert!(
        ponder_hit * 3 < fresh,
        "ponder hit took {ponder_hit:?}, a fresh search {fresh:?}"
    );
    assert!(
        before.iter().filter_map(|l| thinking(l)).all(|t| t.0 > 1),
        "ponder hit searched afresh: {before:?}"
    );
    play(&mut game, line.trim_start_matches("move "));
    // A different reply: the ponder search is dropped and a fresh one starts at depth 1.
    std::thread::sleep(Duration::from_millis(300));
    e.drain(Duration::from_millis(50));
    // What it ponders on now: the reply in the PV of its last move.
    let last_move_at = e
        .transcript
        .iter()
        .rposition(|l| l.starts_with("move "))
        .expect("a move");
    let expected_next = e.transcript[..last_move_at]
        .iter()
        .rev()
        .find_map(|l| thinking(l))
        .and_then(|t| t.2.get(1).cloned());
    let unexpected = legal_moves(game.position())
        .into_iter()
        .map(|m| m.to_string())
        .find(|m| Some(m) != expected_next.as_ref())
        .expect("a legal move");
    e.send(&format!("usermove {unexpected}"));
    let (_, before) = e.expect_prefix(T, "move ");
    let first = before
        .iter()
        .find_map(|l| thinking(l))
        .expect("thinking output");
    assert_eq!(first.0, 1, "not a fresh search: {before:?}");
    // A ping while it thinks on its own move is answered after the move.
    play(&mut game, &unexpected);
    e.send("easy");
    e.send("force");
    e.send("st 0.5");
    let own = legal_moves(game.position())[0].to_string();
    e.send(&format!("usermove {own}"));
    e.send("go");
    e.send("ping 9");
    let (_, before) = e.expect(T, "pong 9", |l| l == "pong 9");
    assert!(
        before.iter().any(|l| l.starts_with("move ")),
        "pong before the move: {before:?}"
    );
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

#[test]
fn status_request_in_analysis_gets_stat01() {
    let mut e = start();
    new_game(&mut e, &["force", "post", "analyze"]);
    std::thread::sleep(Duration::from_millis(200));
    e.send(".");
    let (line, _) = e.expect_prefix(T, "stat01:");
    let fields: Vec<u64> = line
        .trim_start_matches("stat01:")
        .split_whitespace()
        .take(5)
        .map(|w| w.parse().expect("number"))
        .collect();
    let [_centis, nodes, depth, left, total] = fields[..] else {
        panic!("{line}")
    };
    assert!(
        nodes > 0 && depth >= 1 && left <= total && total == 20,
        "{line}"
    );
    e.send("exit");
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}

#[test]
fn thirty_milliseconds_on_the_clock_still_searches_before_moving() {
    let mut e = start();
    // Even a few centiseconds leave time for a search of depth one; a move played
    // without one may hand over a last piece.
    new_game(&mut e, &["post", "level 0 1 0", "time 3", "otim 3"]);
    e.send("go");
    let (line, before) = e.expect_prefix(T, "move ");
    assert!(
        before.iter().any(|l| thinking(l).is_some_and(|t| t.0 >= 1)),
        "moved without a search: {before:?} {line}"
    );
    e.send("quit");
    assert!(e.wait(T).expect("exits").success());
}
