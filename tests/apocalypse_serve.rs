//! `apocalypse serve` over real sockets: a whole game through the JSON API (every turn checked
//! against the rules library), `/api/solve` answering exactly what `solve --json` prints,
//! the page and its script modules served with their types under a policy that allows no
//! inline code, `/api/board` reading and building positions as the rules library does,
//! bad requests answered with a one-line 4xx, and a fuzz run (malformed JSON, broken HTTP,
//! huge bodies, many concurrent requests) after which the server is still up and answering.

mod serve_process;

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serve_process::{Client, Reply, ServerProcess};
use variant_engines::apocalypse::rules::board::{Piece, Side};
use variant_engines::apocalypse::rules::notation::{format_position, parse_move, parse_position};
use variant_engines::apocalypse::rules::resolve::resolve_declared;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::rng::Rng;

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

fn assert_one_line_problem(reply: &Reply, status: u16, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.body);
    assert!(
        reply.body.ends_with('\n') && reply.body.lines().count() == 1 && reply.body.len() > 5,
        "{what}: not a one-line message: {:?}",
        reply.body
    );
}

#[test]
fn a_whole_game_through_the_json_api() {
    let server = ServerProcess::start(&["--movetime", "30"]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg"));
    assert!(server.get("/play.js").body.contains("/api/play"));
    let mut rng = Rng::new(14);
    let mut position = "start".to_string();
    let mut finished = None;
    for turn in 1..=300u32 {
        let moves = server.post("/api/moves", &json!({ "position": position }).to_string());
        assert_eq!(moves.status, 200, "{}", moves.body);
        let moves = moves.json();
        if moves["outcome"]["over"] == true {
            finished = Some(moves["outcome"].clone());
            break;
        }
        let white = strings(&moves["white"]);
        let black = strings(&moves["black"]);
        // The person: a uniformly random legal move (the pass only when nothing else is left).
        let legal: Vec<&String> = white.iter().filter(|m| *m != "0000").collect();
        let declared = if legal.is_empty() {
            "0000".to_string()
        } else {
            legal[rng.below(legal.len())].clone()
        };
        let reply = server.post(
            "/api/play",
            &json!({ "position": position, "white": declared, "black": "engine", "movetime": 20 })
                .to_string(),
        );
        assert_eq!(reply.status, 200, "turn {turn}: {}", reply.body);
        let reply = reply.json();
        assert_eq!(reply["white"]["declared"], declared.as_str());
        let engine = &reply["engine"][0];
        assert_eq!(engine["side"], "black");
        let drawn = engine["move"].as_str().unwrap();
        assert!(
            black.iter().any(|m| m == drawn),
            "{drawn} is not declarable"
        );
        assert_eq!(reply["black"]["declared"], drawn);
        assert!(engine["search"]["black"][drawn].as_f64().unwrap() > 0.0);
        // The server's turn is the rules library's turn.
        let before = parse_position(&position).unwrap();
        let joint = [parse_move(&declared).unwrap(), parse_move(drawn).unwrap()];
        let next = resolve_declared(&before, joint, RuleSet::Classic).next;
        assert_eq!(
            reply["next"],
            format_position(&next).as_str(),
            "turn {turn}"
        );
        assert_eq!(reply["position"], format_position(&before).as_str());
        assert!(!reply["report"].as_array().unwrap().is_empty());
        position = reply["next"].as_str().unwrap().to_string();
        if reply["outcome"]["over"] == true {
            finished = Some(reply["outcome"].clone());
            break;
        }
    }
    let outcome = finished.expect("the game ends within 300 turns");
    eprintln!("game over after {position}: {}", outcome["text"]);
    assert!(["1-0", "0-1", "1/2-1/2"].contains(&outcome["result"].as_str().unwrap()));
    assert!(!outcome["reason"].as_str().unwrap().is_empty());
    // A finished game takes no more moves.
    let after = server.post(
        "/api/play",
        &json!({ "position": position, "white": "0000", "black": "engine" }).to_string(),
    );
    assert_one_line_problem(&after, 422, "play after the end");
}

#[test]
fn solve_and_probe_answer_what_the_command_line_prints() {
    let server = ServerProcess::start(&[]);
    let position = "pN3/3N1/3P1/1n1p1/2P1n 10 0 1";
    let api = server
        .post(
            "/api/solve",
            &json!({ "position": position, "turns": 3 }).to_string(),
        )
        .json();
    let cli = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(["solve", position, "--turns", "3", "--json"])
        .output()
        .expect("run apocalypse solve");
    let mut cli: Value = serde_json::from_slice(&cli.stdout).expect("solve --json");
    let mut api = api;
    // Time, and the node count of a parallel solve, depend on the scheduler.
    for object in [&mut api, &mut cli] {
        let object = object.as_object_mut().unwrap();
        object.remove("time_ms");
        assert!(object.remove("nodes").and_then(|n| n.as_u64()).unwrap() > 0);
    }
    assert_eq!(api, cli);
    let search = server
        .post(
            "/api/solve",
            &json!({ "position": position, "depth": 2 }).to_string(),
        )
        .json();
    assert_eq!(search["depth"], 2);
    for key in ["value", "exact", "nodes", "time_ms", "white", "black"] {
        assert!(search.get(key).is_some(), "no {key} in {search}");
    }
    // Without tablebases only finished games have an exact value.
    let probe = server.post("/api/probe", r#"{"position": "start"}"#);
    assert_one_line_problem(&probe, 422, "probe without tablebases");
    let over = server
        .post("/api/probe", r#"{"position": "5/2p2/5/5/2N2"}"#)
        .json();
    assert_eq!(over["value"], -1);
}

/// `solve --json` from the command line with `args`, without its scheduler-dependent fields.
fn cli_solve_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(args)
        .output()
        .expect("run apocalypse solve");
    let mut cli: Value = serde_json::from_slice(&out.stdout).expect("solve --json");
    let object = cli.as_object_mut().unwrap();
    object.remove("time_ms");
    object.remove("nodes");
    cli
}

#[test]
fn requests_name_their_rule_set_and_default_to_the_servers() {
    // A classic server: `"rules": "vchess"` in a request plays vchess for that request only.
    let server = ServerProcess::start(&[]);
    assert_eq!(server.get("/api/info").json()["rules"], "classic");
    let classic = server.post("/api/moves", r#"{"position": "start"}"#).json();
    let vchess = server
        .post("/api/moves", r#"{"position": "start", "rules": "vchess"}"#)
        .json();
    assert_eq!(classic["rules"], "classic");
    assert_eq!(vchess["rules"], "vchess");
    assert_eq!(strings(&classic["white"]).len(), 10);
    assert!(strings(&vchess["white"]).contains(&"a2b3".to_string()));
    // The rules' example 1.axb3 against 1...Nb3: void under classic, it beats the horseman
    // under vchess.
    let body = |rules: &str| {
        json!({ "position": "start", "white": "a2b3", "black": "a5b3", "rules": rules }).to_string()
    };
    assert_one_line_problem(
        &server.post("/api/play", &body("classic")),
        400,
        "a speculative step under classic",
    );
    let turn = server.post("/api/play", &body("vchess")).json();
    assert_eq!(turn["next"], "1pppn/p3p/1P3/4P/NPPPN 00 0 2");
    assert_eq!(turn["white"]["captured"]["piece"], "horseman");
    // The exact solve under vchess is the command line's, and differs from classic here.
    let position = "4p/3P1/5/5/5";
    let mut api = server
        .post(
            "/api/solve",
            &json!({ "position": position, "turns": 2, "rules": "vchess" }).to_string(),
        )
        .json();
    let object = api.as_object_mut().unwrap();
    object.remove("time_ms");
    object.remove("nodes");
    let cli = cli_solve_json(&[
        "solve", position, "--turns", "2", "--json", "--rules", "vchess",
    ]);
    assert_eq!(api, cli);
    assert_ne!(
        api["value"],
        cli_solve_json(&["solve", position, "--turns", "2", "--json"])["value"]
    );
    assert_one_line_problem(
        &server.post("/api/moves", r#"{"position": "start", "rules": "chess"}"#),
        400,
        "an unknown rule set",
    );
    // A vchess server plays vchess unless a request says classic.
    let server = ServerProcess::start(&["--rules", "vchess"]);
    assert_eq!(server.get("/api/info").json()["rules"], "vchess");
    let moves = server.post("/api/moves", r#"{"position": "start"}"#).json();
    assert_eq!(strings(&moves["white"]).len(), 16);
    let moves = server
        .post("/api/moves", r#"{"position": "start", "rules": "classic"}"#)
        .json();
    assert_eq!(strings(&moves["white"]).len(), 10);
}

#[test]
fn bad_requests_get_a_one_line_4xx() {
    let server = ServerProcess::start(&[]);
    let cases: [(&str, &str, &str, u16); 16] = [
        ("POST", "/api/board", r#"{"position": "5/5/5/5"}"#, 400),
        (
            "POST",
            "/api/board",
            r#"{"position": "start", "board": []}"#,
            400,
        ),
        ("POST", "/api/board", r#"{}"#, 400),
        ("GET", "/api/board", "", 405),
        ("POST", "/api/moves", r#"{"position": "8/8/8"}"#, 400),
        ("POST", "/api/moves", r#"{"position": "P4/5/5/5/5"}"#, 400),
        ("POST", "/api/moves", r#"{"pos": "start"}"#, 400),
        ("POST", "/api/moves", "{", 400),
        (
            "POST",
            "/api/play",
            r#"{"position": "start", "white": "c1c3", "black": "c5c4"}"#,
            400,
        ),
        (
            "POST",
            "/api/play",
            r#"{"position": "start", "white": "c1c2", "black": "engine", "movetime": 3600000}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"position": "start", "turns": 40}"#,
            400,
        ),
        (
            "POST",
            "/api/solve",
            r#"{"position": "start", "depth": 1000}"#,
            400,
        ),
        ("POST", "/api/solve", r#"{"position": "start"}"#, 400),
        ("GET", "/api/solve", "", 405),
        ("GET", "/etc/passwd", "", 404),
        (
            "POST",
            "/api/solve",
            r#"{"position": "5/2p2/5/5/2N2", "depth": 3}"#,
            422,
        ),
    ];
    for (method, path, body, status) in cases {
        let reply = server.request(method, path, body);
        assert_one_line_problem(&reply, status, &format!("{method} {path} {body}"));
    }
}

/// The modules a script imports (`import ... from "./name.js";`), as paths.
fn imported_modules(script: &str) -> Vec<String> {
    script
        .lines()
        .filter(|line| line.starts_with("import "))
        .filter_map(|line| line.split("from \"./").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(|name| format!("/{name}"))
        .collect()
}

#[test]
fn the_page_and_its_modules_have_their_own_routes_types_and_a_policy_without_inline_code() {
    let server = ServerProcess::start(&[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let policy = page.header("content-security-policy").expect("a policy");
    for directive in [
        "script-src 'self'",
        "style-src 'self'",
        "default-src 'none'",
    ] {
        assert!(policy.contains(directive), "{directive} not in {policy}");
    }
    assert!(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"));
    // Nothing in the page that this policy would block: no inline script, style or handler.
    assert!(page
        .body
        .contains(r#"<script type="module" src="/app.js"></script>"#));
    assert!(page
        .body
        .contains(r#"<link rel="stylesheet" href="/style.css">"#));
    assert!(!page.body.contains("<style") && !page.body.contains("style=\""));
    assert!(!page.body.contains("<script>") && !page.body.contains(" onclick="));

    let style = server.get("/style.css");
    assert_eq!(style.status, 200);
    assert_eq!(
        style.header("content-type"),
        Some("text/css; charset=utf-8")
    );
    assert!(style.body.contains("#board"));

    // Every module reachable from /app.js is served as JavaScript.
    let mut queue = vec!["/app.js".to_string()];
    let mut served = Vec::new();
    while let Some(path) = queue.pop() {
        if served.contains(&path) {
            continue;
        }
        let script = server.get(&path);
        assert_eq!(script.status, 200, "{path}");
        assert_eq!(
            script.header("content-type"),
            Some("text/javascript; charset=utf-8"),
            "{path}"
        );
        assert!(
            !script.body.contains("innerHTML = `<"),
            "{path} writes markup"
        );
        queue.extend(imported_modules(&script.body));
        served.push(path);
    }
    for module in [
        "codec", "api", "board", "analyse", "play", "edit", "input", "app",
    ] {
        assert!(
            served.contains(&format!("/{module}.js")),
            "/{module}.js not reached from /app.js: {served:?}"
        );
    }
    assert_eq!(server.post("/style.css", "").status, 405);
    assert_eq!(server.get("/missing.js").status, 404);
}

/// The board `/api/board` gives for `text`, checked square by square against the library.
fn checked_board(server: &Client, text: &str) -> Value {
    let reply = server.post("/api/board", &json!({ "position": text }).to_string());
    assert_eq!(reply.status, 200, "{text}: {}", reply.body);
    let board = reply.json();
    let pos = parse_position(text).unwrap();
    assert_eq!(board["position"], format_position(&pos));
    for sq in 0..25u8 {
        let expected = pos.piece_at(sq).map(|(side, piece)| {
            match (side, piece) {
                (Side::White, Piece::Footman) => "P",
                (Side::White, Piece::Horseman) => "N",
                (Side::Black, Piece::Footman) => "p",
                (Side::Black, Piece::Horseman) => "n",
            }
            .to_string()
        });
        assert_eq!(
            board["board"][sq as usize].as_str().map(str::to_string),
            expected,
            "{text}: square {sq}"
        );
    }
    assert_eq!(board["penalties"], json!(pos.penalties));
    assert_eq!(board["quiet"], pos.quiet);
    assert_eq!(board["turn"], pos.turn);
    board
}

#[test]
fn the_board_route_reads_and_builds_positions_and_refuses_bad_ones_clearly() {
    let server = ServerProcess::start(&[]);
    for text in [
        "start",
        "1N3/3p1/1n3/P1p2/1Nn2 12 3 9",
        "5/2p2/5/5/2N2",
        "n4/5/5/5/4N 20",
    ] {
        let board = checked_board(&server, text);
        // The squares sent back build the same position.
        let built = server.post(
            "/api/board",
            &json!({
                "board": board["board"],
                "penalties": board["penalties"],
                "quiet": board["quiet"],
                "turn": board["turn"],
            })
            .to_string(),
        );
        assert_eq!(built.status, 200, "{text}: {}", built.body);
        assert_eq!(built.json()["position"], board["position"]);
    }
    let mut squares = vec![Value::Null; 25];
    squares[22] = json!("P"); // c5, a White footman's last rank
    let refused = server.post("/api/board", &json!({ "board": squares }).to_string());
    assert_one_line_problem(&refused, 400, "a footman on its last rank");
    assert!(refused.body.contains("last rank (c5)"), "{}", refused.body);
    squares[22] = json!("K");
    let refused = server.post("/api/board", &json!({ "board": squares }).to_string());
    assert_one_line_problem(&refused, 400, "an unknown piece");
    assert!(
        refused.body.contains("unknown piece 'K' on c5"),
        "{}",
        refused.body
    );
    let refused = server.post("/api/board", &json!({ "board": [null, "N"] }).to_string());
    assert_one_line_problem(&refused, 400, "two squares");
    assert!(refused.body.contains("expected 25"), "{}", refused.body);
    let refused = server.post(
        "/api/board",
        &json!({ "board": vec![Value::Null; 25], "penalties": [3, 0] }).to_string(),
    );
    assert_one_line_problem(&refused, 400, "three penalty points");
    assert!(refused.body.contains("penalties"), "{}", refused.body);
}

/// A JSON-ish body that is wrong in one of many ways.
fn malformed_body(rng: &mut Rng) -> String {
    let valid = r#"{"position": "npppn/p3p/5/P3P/NPPPN 00 0 1", "white": "c1c2", "black": "engine", "movetime": 10}"#;
    match rng.below(8) {
        0 => valid[..rng.below(valid.len())].to_string(),
        1 => (0..rng.below(200))
            .map(|_| char::from(rng.below(256) as u8))
            .collect(),
        2 => "[".repeat(1 + rng.below(5000)),
        3 => format!(r#"{{"position": {}}}"#, rng.next_u64()),
        4 => {
            const NOISE: &[u8] = b"{}[]\":,\\0x@ \x00\xff";
            let mut bytes = valid.as_bytes().to_vec();
            for _ in 0..3 {
                let i = rng.below(bytes.len());
                bytes[i] = NOISE[rng.below(NOISE.len())];
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        5 => {
            let junk: String = (0..rng.below(40))
                .map(|_| char::from(b"pnPN12345/0 @x"[rng.below(14)]))
                .collect();
            json!({ "position": junk, "white": "0000", "black": "0000" }).to_string()
        }
        6 => json!({ "position": "start", "white": "c1c2", "black": "engine", "movetime": -1 })
            .to_string(),
        _ => json!({ "position": "start", "turns": rng.next_u64() }).to_string(),
    }
}

#[test]
fn fuzzed_requests_leave_the_server_up_and_answering() {
    let mut server = ServerProcess::start(&["--movetime", "50"]);
    let mut rng = Rng::new(2024);
    // Malformed JSON at every endpoint.
    for i in 0..300 {
        let path = ["/api/moves", "/api/play", "/api/solve", "/api/probe"][i % 4];
        let body = malformed_body(&mut rng);
        let reply = server.post(path, &body);
        assert!(
            (400..500).contains(&reply.status) || reply.status == 200,
            "{path} {body:?}: {} {}",
            reply.status,
            reply.body
        );
        if reply.status != 200 {
            assert!(reply.body.lines().count() <= 1, "{:?}", reply.body);
        }
    }
    // Huge bodies: announced, sent in chunks, announced but never sent.
    let big = "x".repeat(2 << 20);
    assert_eq!(server.post("/api/moves", &big).status, 413);
    let chunked = format!(
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{}0\r\n\r\n",
        format!("4000\r\n{}\r\n", "y".repeat(0x4000)).repeat(8)
    );
    assert_eq!(server.raw(chunked.as_bytes()).status, 413);
    let liar = std::thread::spawn({
        let address = server.address.clone();
        move || {
            use std::io::Write;
            let mut stream = std::net::TcpStream::connect(address).unwrap();
            let _ = stream.write_all(
                b"POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n{\"position\"",
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    // Broken HTTP.
    for raw in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"\x00\x01\x02\r\n\r\n",
        format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(40_000)).as_bytes(),
        format!(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
            "b".repeat(40_000)
        )
        .as_bytes(),
    ] {
        let reply = server.raw(raw);
        assert!(
            reply.status == 0 || (400..600).contains(&reply.status),
            "{reply:?}"
        );
    }
    liar.join().unwrap();
    // Many clients at once, some of them analysing: every answer is 200 or a 503 "busy", and a
    // light request meanwhile is answered quickly.
    let ok = Arc::new(AtomicUsize::new(0));
    let busy = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..24)
        .map(|i| {
            let address = server.address.clone();
            let (ok, busy) = (Arc::clone(&ok), Arc::clone(&busy));
            std::thread::spawn(move || {
                let client = Client { address };
                for j in 0..6 {
                    let (path, body) = match (i + j) % 3 {
                        0 => ("/api/solve", r#"{"position": "start", "movetime": 300}"#),
                        1 => (
                            "/api/play",
                            r#"{"position": "start", "white": "engine", "black": "engine", "movetime": 100}"#,
                        ),
                        _ => ("/api/moves", r#"{"position": "start"}"#),
                    };
                    let reply = client.post(path, body);
                    match reply.status {
                        200 => ok.fetch_add(1, Ordering::SeqCst),
                        503 => busy.fetch_add(1, Ordering::SeqCst),
                        other => panic!("{path}: {other} {}", reply.body),
                    };
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let info = server.get("/api/info");
    assert_eq!(info.status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "a light request waited {:?} behind the analyses",
        started.elapsed()
    );
    for client in clients {
        client.join().expect("a client failed");
    }
    eprintln!(
        "concurrent requests: {} answered, {} busy",
        ok.load(Ordering::SeqCst),
        busy.load(Ordering::SeqCst)
    );
    assert_eq!(
        ok.load(Ordering::SeqCst) + busy.load(Ordering::SeqCst),
        24 * 6
    );
    assert!(ok.load(Ordering::SeqCst) >= 48);
    // Still up, still right.
    assert!(server.is_running());
    let moves = server.post("/api/moves", r#"{"position": "start"}"#).json();
    assert_eq!(moves["white"].as_array().unwrap().len(), 10);
}
