//! Helpers shared by the integration tests: running a binary to completion, driving the
//! engine over pipes (`engine_process`), skipping for a missing outside program, and small
//! Extinction helpers (legal moves, a random mover, the spec's sample game).

#![allow(dead_code)]

pub mod engine_process;

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use variant_engines::extinction::{Game, Move, MoveList, Position};
use variant_engines::rng::Rng;

/// What a finished run of a binary left behind.
#[derive(Debug)]
pub struct Run {
    /// Exit code (-1 when killed by a signal).
    pub code: i32,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
}

/// Run the binary at `path` with `args` to completion.
pub fn run(path: &str, args: &[&str]) -> Run {
    let out = Command::new(path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {path}: {e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Run the release `extinction` binary with `args` to completion.
pub fn extinction(args: &[&str]) -> Run {
    run(env!("CARGO_BIN_EXE_extinction"), args)
}

/// Start the release `extinction` binary with `args`, stdin and stdout piped.
pub fn spawn_extinction(args: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_extinction"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start extinction")
}

/// Run `extinction args` with `input` on stdin (kept open) and its stdout closed before it
/// writes anything, the extreme case of `| head -1`; returns how it ended and its stderr.
/// Fails if it is still running after `timeout`.
pub fn extinction_into_closed_pipe(
    args: &[&str],
    input: &str,
    timeout: Duration,
) -> (ExitStatus, String) {
    let mut child = spawn_extinction(args, Stdio::piped());
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    // The engine may be gone already: then the input is simply not needed.
    let _ = stdin
        .write_all(input.as_bytes())
        .and_then(|()| stdin.flush());
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("extinction {args:?} hangs after its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    let mut err = String::new();
    let _ = child.stderr.take().map(|mut e| e.read_to_string(&mut err));
    (status, err)
}

/// Whether `path` is a file this user may run: a program that exists without execute
/// permission (or is hidden that way by `scripts/test_without_tools.sh`) counts as missing.
pub fn executable(path: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Whether an outside program a test needs is here (`available`). Without it the test is
/// skipped with a notice on stderr, unless the environment variable `CI` is set: then it fails.
pub fn outside_program_present(what: &str, available: bool) -> bool {
    if available {
        return true;
    }
    let test = std::thread::current().name().unwrap_or("?").to_string();
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: {what} is required (CI is set; .ci/run installs it)"
    );
    // Straight to the process's stderr: the test harness captures eprintln! of passing tests,
    // and a skip that nobody sees would look like a pass.
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: {what} not found (.ci/run installs it; with CI set this fails)"
    );
    false
}

/// All legal moves of `pos`.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.iter().copied().collect()
}

/// A random legal move of the game's current position.
pub fn random_move(game: &Game, rng: &mut Rng) -> Move {
    let moves = legal_moves(game.position());
    moves[rng.below(moves.len())]
}

/// FEN after the spec's sample game (White to move after 13...Rd4), replayed with the rules
/// core's SAN parser.
pub fn sample_game_final_fen() -> String {
    let sans =
        "e4 d5 exd5 Qxd5 Nc3 Qa5 a3 e5 b4 Bxb4 axb4 Qxa1 Bc4 Nf6 Ba2 O-O Nge2 Rd8 Bc4 Nc6 b5 Nd4 \
                O-O Nxe2 Nxe2 Rd4";
    let mut game = Game::new(Position::startpos());
    for san in sans.split_whitespace() {
        game.play_san(san)
            .unwrap_or_else(|e| panic!("replay {san}: {e}"));
    }
    game.position().fen()
}
