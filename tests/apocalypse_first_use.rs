//! Tablebases without a wait: `apocalypse serve` started on an empty tablebase directory builds
//! the 4-piece tables there before it answers, so the page's probe of a 4-piece endgame gets
//! its exact value at once; `APOCALYPSE_NO_TB_BUILD=1` leaves the directory untouched; and
//! `GET /api/tablebases` / `POST /api/tablebases/build` report and run a build (a second
//! build while one runs is refused with 409, a piece count other than 4 or 5 with 400).

mod serve_process;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use serve_process::ServerProcess;

/// A fresh, empty scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = serve_process::unique_temp_path(&format!("apocalypse-first-use-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }

    fn files(&self) -> usize {
        std::fs::read_dir(self.0.join("classic")).map_or(0, |entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tb"))
                .count()
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A limit-sure win of Black's that the tablebases value at exactly -1.
const ENDGAME: &str = "4p/Pn3/5/N4/5 00";

#[test]
fn serve_on_an_empty_directory_builds_the_four_piece_tables_and_probes_exactly() {
    let dir = Scratch::new("serve");
    let started = Instant::now();
    let server = ServerProcess::start_with_tables(&dir.0, true, &["--movetime", "200"]);
    // What the page asks in analysis mode: first the probe, then a search.
    let probe = server.post("/api/probe", &json!({ "position": ENDGAME }).to_string());
    assert_eq!(probe.status, 200, "{}", probe.body);
    assert_eq!(probe.json()["value"], -1.0, "{}", probe.body);
    let solve = server.post(
        "/api/solve",
        &json!({ "position": ENDGAME, "depth": 2 }).to_string(),
    );
    assert_eq!(solve.status, 200, "{}", solve.body);
    assert_eq!(solve.json()["value"], -1.0, "{}", solve.body);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(dir.files(), 33, "the 4-piece set has 33 class files");
    let status = server.get("/api/tablebases").json();
    assert_eq!(status["max_pieces"], 4, "{status}");
    assert_eq!(status["build"]["state"], "idle", "{status}");
    assert_eq!(status["dir"], dir.0.display().to_string(), "{status}");
}

#[test]
fn no_build_leaves_the_directory_empty_and_the_probe_unanswered() {
    let dir = Scratch::new("nobuild");
    let server = ServerProcess::start_with_tables(&dir.0, false, &[]);
    let probe = server.post("/api/probe", &json!({ "position": ENDGAME }).to_string());
    assert_eq!(probe.status, 422, "{}", probe.body);
    assert_eq!(server.get("/api/tablebases").json()["max_pieces"], 0);
    drop(server);
    assert!(!dir.0.exists() || dir.files() == 0, "{}", dir.0.display());
    // The command line alike: a search with no tables names none and builds none.
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        .env("APOCALYPSE_TB_DIR", &dir.0)
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(["solve", ENDGAME, "--depth", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!dir.0.exists(), "{}", dir.0.display());
    // Without the variable the same command builds them first and finds the exact value.
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        .env("APOCALYPSE_TB_DIR", &dir.0)
        .env_remove("APOCALYPSE_NO_TB_BUILD")
        .args(["solve", ENDGAME, "--depth", "1", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("building the 4-piece tablebases in")
            && err.contains("tb build --max-pieces 5 --dir"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(r#"{"depth": 1, "value": -1,"#), "{text}");
    assert_eq!(dir.files(), 33);
    // `tb probe` on an empty directory builds them too.
    let fresh = Scratch::new("probe");
    let out = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        .env("APOCALYPSE_TB_DIR", &fresh.0)
        .env_remove("APOCALYPSE_NO_TB_BUILD")
        .args(["tb", "probe", ENDGAME, "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with(r#"{"value": -1,"#), "{text}");
    assert_eq!(fresh.files(), 33);
}

#[test]
fn the_tablebase_routes_report_and_run_one_build_at_a_time() {
    let dir = Scratch::new("routes");
    let server = ServerProcess::start_with_tables(&dir.0, false, &[]);
    let status = server.get("/api/tablebases");
    assert_eq!(status.status, 200, "{}", status.body);
    let status = status.json();
    assert_eq!(status["max_pieces"], 0, "{status}");
    assert_eq!(status["build"]["state"], "idle", "{status}");
    assert_eq!(status["rules"], "classic", "{status}");
    for bad in [
        r#"{"max_pieces":3}"#,
        r#"{"max_pieces":6}"#,
        r#"{"pieces":4}"#,
        "{",
    ] {
        let reply = server.post("/api/tablebases/build", bad);
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
        assert_eq!(reply.body.lines().count(), 1, "{bad}: {}", reply.body);
    }
    assert_eq!(server.post("/api/tablebases", "{}").status, 405);
    assert_eq!(server.get("/api/tablebases/build").status, 405);
    let started = server.post("/api/tablebases/build", r#"{"max_pieces":4}"#);
    assert_eq!(started.status, 202, "{}", started.body);
    assert_eq!(started.json()["build"]["state"], "building");
    assert_eq!(started.json()["build"]["max_pieces"], 4);
    // A second build while the first runs is refused (a 4-piece build takes seconds).
    let again = server.post("/api/tablebases/build", r#"{"max_pieces":5}"#);
    assert_eq!(again.status, 409, "{}", again.body);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen_progress = Vec::new();
    let done = loop {
        let status = server.get("/api/tablebases").json();
        match status["build"]["state"].as_str() {
            Some("building") => {
                let p = status["build"]["progress"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&p), "{status}");
                seen_progress.push(p);
            }
            _ => break status,
        }
        assert!(Instant::now() < deadline, "the build still runs: {status}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(done["build"]["state"], "idle", "{done}");
    assert_eq!(done["max_pieces"], 4, "{done}");
    assert!(
        seen_progress.windows(2).all(|w| w[0] <= w[1]),
        "{seen_progress:?}"
    );
    // The new tables are in use without a restart.
    let probe = server.post("/api/probe", &json!({ "position": ENDGAME }).to_string());
    assert_eq!(probe.status, 200, "{}", probe.body);
    assert_eq!(probe.json()["value"], -1.0);
    assert_eq!(server.get("/api/info").json()["tablebase_pieces"], 4);
}
