//! An external client: python-chess's `chess.engine` drives the release binary over UCI and
//! XBoard (handshake, options, analysis of the sample game's forced loss, short play).
//! Needs `python3` with the `chess` package (`.ci/run` installs it).

mod common;

use std::process::Command;

#[test]
fn python_chess_drives_uci_and_xboard() {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    if !common::outside_program_present(
        "python3 with python-chess (pip install chess)",
        probe.is_ok_and(|out| out.status.success()),
    ) {
        return;
    }
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/extinction_client.py"
    );
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_extinction"))
        .arg(common::sample_game_final_fen())
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("OK"),
        "python-chess client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("uci: Mate(-4)") && stdout.contains("xboard: Mate(-4)"));
}
