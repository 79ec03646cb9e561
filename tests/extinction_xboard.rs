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
