//! Protocol fuzzing against the release binary: bursts of valid and invalid UCI and XBoard
//! commands (bad FENs and moves, odd `go` and `level` parameters, stop/isready/ping during
//! searches, 1 MB lines, invalid UTF-8, quit mid-search) from fixed seeds. After every burst
//! the engine must answer `isready`/`ping` within 2 s and stay within a memory bound; in UCI
//! every `go` gets exactly one legal `bestmove`, checked with the crate's own parser and rules.
//! `FUZZ_SCALE=10` runs ten times as many bursts (the suite runs a few seconds per protocol).

mod common;

use std::time::Duration;

use common::engine_process::EngineProcess;
use common::legal_moves;
use variant_engines::extinction::protocol::uci_parser::{StartPosition, UciCommand};
use variant_engines::extinction::{parse_uci, Game, Position};
use variant_engines::rng::Rng;

/// How long the engine may take to answer `isready`/`ping` after a burst.
const ANSWER: Duration = Duration::from_secs(2);
/// Largest resident memory allowed (the default table is 16 MiB; the fuzz sets at most 16).
const MAX_RSS_KB: u64 = 400 * 1024;
/// Bursts per seed at FUZZ_SCALE=1.
const BURSTS: usize = 20;

fn scale() -> usize {
    std::env::var("FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize)
        .clamp(1, 1000)
}

const FENS: &[&str] = &[
    "rnbqkbnr/ppp2ppp/3p4/4p3/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "nbrqk3/PPPPPPPP/8/8/8/8/pppppppp/NBRQK3 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
];

/// A FEN that is probably broken: a seed FEN with a character changed or cut short.
fn bad_fen(rng: &mut Rng) -> String {
    let fen = FENS[rng.below(FENS.len())];
    let mut chars: Vec<char> = fen.chars().collect();
    match rng.below(3) {
        0 => chars.truncate(rng.below(chars.len())),
        1 => {
            let at = rng.below(chars.len());
            chars[at] = ['9', 'x', '/', ' ', 'K', '4', '-'][rng.below(7)];
        }
        _ => chars.insert(rng.below(chars.len()), '4'),
    }
    chars.into_iter().collect()
}

/// A few random legal moves from `pos` (UCI text), sometimes followed by a bad one.
fn some_moves(pos: &Position, rng: &mut Rng) -> Vec<String> {
    let mut game = Game::new(pos.clone());
    let mut moves = Vec::new();
    for _ in 0..rng.below(8) {
        let legal = legal_moves(game.position());
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m.to_string());
        game.play(m);
    }
    if rng.below(4) == 0 {
        moves.push(["e2e5", "zz", "a1a1", "e7e8x", "0000"][rng.below(5)].to_string());
    }
    moves
}

/// A line that is no command: noise, a 1 MB line, or a command with odd arguments.
fn junk(rng: &mut Rng) -> Vec<u8> {
    match rng.below(5) {
        0 => vec![b'x'; 1 << 20],
        1 => vec![0xff, 0xfe, b'g', b'o', 0xc3],
        2 => b"\t \t".to_vec(),
        3 => "position fen ♔♕ moves ☃".as_bytes().to_vec(),
        _ => (0..rng.below(40))
            .map(|_| (32 + rng.below(95)) as u8)
            .collect(),
    }
}

fn random_uci_line(pos: &Position, rng: &mut Rng) -> Vec<u8> {
    let line = match rng.below(22) {
        0 => "isready".to_string(),
        1 => "ucinewgame".to_string(),
        2 => format!("position startpos moves {}", some_moves(pos, rng).join(" ")),
        3 => {
            let fen = FENS[rng.below(FENS.len())];
            let start = Position::from_fen(fen).expect("seed fen");
            format!(
                "position fen {fen} moves {}",
                some_moves(&start, rng).join(" ")
            )
        }
        4 => format!("position fen {}", bad_fen(rng)),
        5 => format!("go depth {}", rng.below(4)),
        6 => format!("go movetime {}", rng.below(30)),
        7 => format!("go nodes {}", rng.below(3000)),
        8 => {
            let t = rng.below(300);
            format!("go wtime {t} btime {t} winc {} binc 0", rng.below(20))
        }
        9 => "go infinite".to_string(),
        10 => "go ponder wtime 200 btime 200".to_string(),
        11 => [
            "go depth -1",
            "go banana",
            "go depth 2 garbage",
            "go wtime 1000.5",
            "go wtime 99999999999999999999",
            "go movestogo 0 wtime 50 btime 50",
            "go depth",
            "go mate 1 depth 3",
        ][rng.below(8)]
        .to_string(),
        12 => {
            let legal = legal_moves(pos);
            let named = legal
                .get(rng.below(legal.len().max(1)))
                .map_or("e2e4".to_string(), |m| m.to_string());
            format!("go searchmoves {named} zz depth 2")
        }
        13 => format!("go perft {}", [1, 2, 3, 99][rng.below(4)]),
        14 | 15 => "stop".to_string(),
        16 => "ponderhit".to_string(),
        17 => [
            "setoption name Hash value 1",
            "setoption name Hash value 16",
            "setoption name Threads value 2",
            "setoption name Threads value 1",
            "setoption name MultiPV value 3",
            "setoption name MultiPV value 1",
            "setoption name Bogus value 3",
            "setoption name Move Overhead value -5",
        ][rng.below(8)]
        .to_string(),
        18 => ["d", "eval", "debug on", "uci"][rng.below(4)].to_string(),
        _ => return junk(rng),
    };
    line.into_bytes()
}

/// The position a UCI engine holds after `line`, by the crate's own parser and rules: a bad
/// FEN keeps the old position, a bad move keeps the moves before it.
fn uci_position_after(pos: &Position, line: &str) -> Position {
    match UciCommand::parse(line, pos) {
        UciCommand::UciNewGame => Position::startpos(),
        UciCommand::Position { start, moves } => {
            let start = match start {
                StartPosition::Startpos => Position::startpos(),
                StartPosition::Fen(fen) => match Position::from_fen(&fen) {
                    Ok(p) => p,
                    Err(_) => return pos.clone(),
                },
            };
            let mut game = Game::new(start);
            for text in moves {
                match parse_uci(game.position(), &text) {
                    Ok(m) if game.play(m) => {}
                    _ => break,
                }
            }
            game.position().clone()
        }
        _ => pos.clone(),
    }
}

/// Resident memory of process `pid` in KiB.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Check the `bestmove` lines among `lines` against the positions of the `go`s awaiting one.
fn check_bestmoves(lines: &[String], awaiting: &mut Vec<Position>, transcript: &[String]) {
    for line in lines.iter().filter(|l| l.starts_with("bestmove")) {
        assert!(
            !awaiting.is_empty(),
            "a bestmove no go asked for: {line}\n{}",
            transcript.join("\n")
        );
        let pos = awaiting.remove(0);
        let text = line.split_whitespace().nth(1).expect("bestmove has a move");
        if legal_moves(&pos).is_empty() || pos.is_finished() {
            assert_eq!(text, "0000", "{line} in finished {}", pos.fen());
        } else {
            let m =
                parse_uci(&pos, text).unwrap_or_else(|e| panic!("{line} in {}: {e}", pos.fen()));
            assert!(legal_moves(&pos).contains(&m), "{line} in {}", pos.fen());
        }
    }
}

fn uci_session(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut e = EngineProcess::start(&[]);
    e.send("uci");
    e.expect_prefix(ANSWER * 5, "uciok");
    let mut pos = Position::startpos();
    // Positions of the `go`s still owed a bestmove, oldest first.
    let mut awaiting: Vec<Position> = Vec::new();
    for burst in 0..BURSTS * scale() {
        // Every isready of the burst, and the one after it, is answered with a readyok.
        let mut readyoks = 1;
        for _ in 0..5 + rng.below(20) {
            let line = random_uci_line(&pos, &mut rng);
            let text = String::from_utf8_lossy(&line).into_owned();
            match UciCommand::parse(&text, &pos) {
                UciCommand::Go(go) if go.perft.is_none() => awaiting.push(pos.clone()),
                UciCommand::IsReady => readyoks += 1,
                _ => {}
            }
            pos = uci_position_after(&pos, &text);
            let mut bytes = line;
            bytes.push(b'\n');
            e.send_bytes(&bytes);
            if rng.below(3) == 0 {
                std::thread::sleep(Duration::from_millis(rng.below(15) as u64));
            }
        }
        // A search may still run (infinite, pondering): stop it, then every go is answered.
        e.send("stop");
        e.send("isready");
        let mut lines = Vec::new();
        for _ in 0..readyoks {
            lines.extend(e.expect_prefix(ANSWER, "readyok").1);
        }
        let transcript = e.transcript.clone();
        check_bestmoves(&lines, &mut awaiting, &transcript);
        assert!(
            awaiting.is_empty(),
            "seed {seed} burst {burst}: {} go without bestmove\n{}",
            awaiting.len(),
            e.transcript.join("\n")
        );
        let rss = rss_kb(e.id());
        assert!(rss < MAX_RSS_KB, "seed {seed} burst {burst}: RSS {rss} KiB");
        e.transcript.clear();
    }
    // Quit in the middle of a search ends the process promptly.
    e.send("go infinite");
    e.send("quit");
    assert!(
        e.wait(ANSWER).is_some_and(|s| s.success()),
        "seed {seed}: no clean exit after quit mid-search"
    );
}

#[test]
fn uci_survives_random_bursts_and_answers_every_go() {
    for seed in [11, 12, 13] {
        uci_session(seed);
    }
}

fn random_xboard_line(rng: &mut Rng, ping: &mut u32) -> Vec<u8> {
    let line = match rng.below(24) {
        0 => "new".to_string(),
        1 => "force".to_string(),
        2 => "go".to_string(),
        3 | 4 => {
            let pos = Position::startpos();
            let legal = legal_moves(&pos);
            let m = legal[rng.below(legal.len())].to_string();
            ["usermove ", ""][rng.below(2)].to_string() + &m
        }
        5 => [
            "usermove e2e5",
            "usermove zz",
            "usermove e2e4 e7e5",
            "usermove",
        ][rng.below(4)]
        .to_string(),
        6 => [
            "level 40 5 0",
            "level 0 0:01 0",
            "level 0 1 0.1",
            "level -1 x y",
            "level 0 99999999999 0",
            "level 1 0:99 -3",
        ][rng.below(6)]
        .to_string(),
        7 => format!("st {}", ["0.05", "0", "-1", "nan", "0.1"][rng.below(5)]),
        8 => format!("sd {}", ["1", "2", "0", "-3", "x"][rng.below(5)]),
        9 => format!("time {}", [3, 50, 300, 0, -20][rng.below(5)]),
        10 => format!("otim {}", rng.below(1000)),
        11 => {
            *ping += 1;
            format!("ping {ping}")
        }
        12 => "?".to_string(),
        13 => ["hard", "easy", "post", "nopost"][rng.below(4)].to_string(),
        14 => "analyze".to_string(),
        15 => "exit".to_string(),
        16 => ".".to_string(),
        17 => format!("setboard {}", FENS[rng.below(FENS.len())]),
        18 => format!("setboard {}", bad_fen(rng)),
        19 => ["undo", "remove", "result 1-0 {x}", "playother", "white"][rng.below(5)].to_string(),
        20 => [
            "memory 8",
            "cores 2",
            "cores 1",
            "option MultiPV=2",
            "variant extinction",
        ][rng.below(5)]
        .to_string(),
        _ => return junk(rng),
    };
    line.into_bytes()
}

fn xboard_session(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut e = EngineProcess::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect(ANSWER * 5, "feature done=1", |l| l.contains("done=1"));
    let mut ping = 0;
    for burst in 0..BURSTS * scale() {
        for _ in 0..5 + rng.below(20) {
            let mut bytes = random_xboard_line(&mut rng, &mut ping);
            bytes.push(b'\n');
            e.send_bytes(&bytes);
            if rng.below(3) == 0 {
                std::thread::sleep(Duration::from_millis(rng.below(15) as u64));
            }
        }
        // Move now if it thinks on its move (the pong follows the move), then ping.
        e.send("?");
        ping += 1;
        e.send(&format!("ping {ping}"));
        let want = format!("pong {ping}");
        e.expect(ANSWER, "the burst's pong", |l| l == want);
        // Still sane: from a known position it answers go with one legal move.
        e.send("exit");
        e.send("force");
        e.send(&format!("setboard {}", FENS[1]));
        e.send("sd 2");
        e.send("go");
        let (line, _) = e.expect_prefix(ANSWER, "move ");
        let pos = Position::from_fen(FENS[1]).expect("fen");
        let m = parse_uci(&pos, line.trim_start_matches("move "))
            .unwrap_or_else(|err| panic!("seed {seed} burst {burst}: {line}: {err}"));
        assert!(legal_moves(&pos).contains(&m), "{line}");
        e.send("force");
        ping += 1;
        e.send(&format!("ping {ping}"));
        let want = format!("pong {ping}");
        let (_, extra) = e.expect(ANSWER, "pong", |l| l == want);
        assert!(
            extra.iter().all(|l| !l.starts_with("move ")),
            "seed {seed} burst {burst}: a second move {extra:?}"
        );
        let rss = rss_kb(e.id());
        assert!(rss < MAX_RSS_KB, "seed {seed} burst {burst}: RSS {rss} KiB");
        e.transcript.clear();
    }
    e.send("analyze");
    e.send("quit");
    assert!(
        e.wait(ANSWER).is_some_and(|s| s.success()),
        "seed {seed}: no clean exit after quit mid-analysis"
    );
}

#[test]
fn xboard_survives_random_bursts_and_stays_responsive() {
    for seed in [21, 22, 23] {
        xboard_session(seed);
    }
}

#[test]
fn invalid_utf8_as_the_first_line_is_answered_not_fatal() {
    let mut e = EngineProcess::start(&[]);
    e.send_bytes(&[0xff, 0xfe, 0x80, b'\n']);
    e.send("uci");
    let (_, before) = e.expect_prefix(ANSWER * 5, "uciok");
    assert!(
        before.iter().any(|l| l.starts_with("info string error")),
        "{before:?}"
    );
    e.send("isready");
    e.expect_prefix(ANSWER, "readyok");
    e.send("quit");
    assert!(e.wait(ANSWER).is_some_and(|s| s.success()));
}
