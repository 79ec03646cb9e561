//! The page in a real browser: headless Chromium (the distribution's package, driven through
//! its chromedriver by `tests/browser/apocalypse_page.py`) loads `apocalypse serve`'s page,
//! checks the board, both players' arrows and the value, plays by keyboard and by clicking
//! to a finished game, and saves screenshots under target/tmp/apocalypse-browser/.
//! Skipped with a notice when Chromium, chromedriver or python3 is missing, unless `CI` is
//! set (`.ci/run` installs them): then it fails.

mod serve_process;

use std::path::Path;
use std::process::Command;

use serve_process::ServerProcess;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn missing_tools() -> Vec<&'static str> {
    let mut missing = Vec::new();
    for (name, path) in [("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER)] {
        if !Path::new(path).exists() {
            missing.push(name);
        }
    }
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        missing.push("python3");
    }
    missing
}

fn is_png(path: &Path) -> bool {
    std::fs::read(path)
        .is_ok_and(|bytes| bytes.len() > 10_000 && bytes.starts_with(b"\x89PNG\r\n\x1a\n"))
}

#[test]
fn the_page_in_headless_chromium() {
    let missing = missing_tools();
    if !missing.is_empty() {
        let message = format!(
            "browser test needs {} (apt-get install -y chromium chromium-driver; see .ci/run)",
            missing.join(", ")
        );
        if std::env::var_os("CI").is_some() {
            panic!("{message}");
        }
        eprintln!("skipped: {message}");
        return;
    }
    let server = ServerProcess::start(&["--movetime", "300"]);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("apocalypse-browser");
    let _ = std::fs::remove_dir_all(&out);
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/browser/apocalypse_page.py"
    );
    let run = Command::new("timeout")
        .arg("300")
        .arg("python3")
        .arg(script)
        .arg(server.url())
        .arg(&out)
        .env("CHROMIUM", CHROMIUM)
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .output()
        .expect("run the browser script");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && stdout.lines().any(|l| l == "OK"),
        "browser test failed (screenshots in {}):\n{stdout}\n{}",
        out.display(),
        String::from_utf8_lossy(&run.stderr)
    );
    for shot in ["analysis.png", "finished.png", "phone.png"] {
        assert!(is_png(&out.join(shot)), "no screenshot {shot}");
    }
    eprintln!("screenshots: {}", out.display());
}
