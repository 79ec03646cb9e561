//! A real GUI: XBoard 4.9 runs an engine-engine game between two instances of the release
//! binary (XBoard protocol) headless under Xvfb, then exits (`-xexit`, one-game match).
//! The saved PGN must replay legally with our rules core and end with the engine's claim.
//! Needs `xboard` and `xvfb-run` (`.ci/run` installs them).

mod common;

use std::process::Command;

use variant_engines::extinction::parse_pgn;

fn xboard_path() -> Option<&'static str> {
    ["/usr/games/xboard", "/usr/bin/xboard"]
        .into_iter()
        .find(|p| common::executable(p))
}

fn xvfb_run_present() -> bool {
    Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn xboard_plays_a_whole_game_between_two_engines() {
    let xboard = xboard_path();
    if !common::outside_program_present(
        "XBoard under Xvfb (xboard, xvfb-run)",
        xboard.is_some() && xvfb_run_present(),
    ) {
        return;
    }
    let xboard = xboard.unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("extinction-xboard-gui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn_path = dir.join("game.pgn");
    let debug_path = dir.join("xboard.debug");
    let engine = format!("{} xboard", env!("CARGO_BIN_EXE_extinction"));
    let status = Command::new("timeout")
        .arg("120")
        .arg("xvfb-run")
        .arg("-a")
        .arg(xboard)
        .args([
            "-fcp", &engine, "-scp", &engine, "-fn", "ExtA", "-sn", "ExtB",
        ])
        .args([
            "-variant",
            "extinction",
            "-testLegality",
            "false",
            "-mg",
            "1",
            "-searchDepth",
            "3",
            "-tc",
            "1",
        ])
        .args([
            "-xexit",
            "-saveSettingsOnExit",
            "false",
            "-settingsFile",
            "/dev/null",
            "-debug",
        ])
        .arg("-sgf")
        .arg(&pgn_path)
        .arg("-nameOfDebugFile")
        .arg(&debug_path)
        .output()
        .expect("run xvfb-run xboard");
    let pgn = std::fs::read_to_string(&pgn_path).unwrap_or_default();
    let debug = std::fs::read_to_string(&debug_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        status.status.success(),
        "xboard failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    // Both engines were given the variant and answered with its definition.
    assert!(
        debug.contains(">first : variant extinction")
            && debug.contains(">second: variant extinction")
    );
    assert!(debug.contains("<first : setup (PNBRQKpnbrqk) 8x8+0_fairy"));
    for bad in [
        "Illegal move",
        "Error (",
        "<first : tellusererror",
        "<second: tellusererror",
    ] {
        assert!(!debug.contains(bad), "found '{bad}' in the XBoard log");
    }
    let game =
        parse_pgn(&pgn).unwrap_or_else(|e| panic!("XBoard's PGN does not parse: {e}\n{pgn}"));
    let replayed = game
        .replay()
        .unwrap_or_else(|e| panic!("XBoard's game does not replay: {e}\n{pgn}"));
    let outcome = replayed
        .outcome()
        .unwrap_or_else(|| panic!("game saved unfinished:\n{pgn}"));
    assert_eq!(game.result.as_deref(), Some(outcome.result_str()), "{pgn}");
    assert!(
        pgn.contains(&format!("{{{}}}", outcome.reason)),
        "claim missing for {outcome}:\n{pgn}"
    );
}
