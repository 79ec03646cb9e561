//! Drive the real `extinction` binary over pipes, as a GUI does.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use variant_engines::extinction::{Game, Move, MoveList, Position};

/// A running engine process with line-based I/O.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far (for failure messages).
    pub transcript: Vec<String>,
}

impl EngineProcess {
    /// Start the release binary with `args`.
    pub fn start(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_extinction"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start extinction");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            let reader = std::io::BufReader::new(stdout);
            for line in reader.lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Send raw bytes (may be invalid UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Next line within `timeout`, or None.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Read lines until one satisfies `pred`; returns it and the lines before it. Panics with
    /// the transcript after `timeout`.
    pub fn expect(
        &mut self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return (l, before),
                Some(l) => before.push(l),
                None => panic!(
                    "timed out waiting for {what}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Read lines until one starts with `prefix`.
    pub fn expect_prefix(&mut self, timeout: Duration, prefix: &str) -> (String, Vec<String>) {
        self.expect(timeout, prefix, |l| l.starts_with(prefix))
    }

    /// Lines arriving within `quiet` of each other, until silence.
    pub fn drain(&mut self, quiet: Duration) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.next_line(quiet) {
            out.push(l);
        }
        out
    }

    /// Close stdin and wait for the process to exit (kills it after `timeout`).
    pub fn close_and_wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        self.stdin = None;
        self.wait(timeout)
    }

    /// Wait for the process to exit (kills it after `timeout` and returns None).
    pub fn wait(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Tiny deterministic generator for picking random moves.
pub struct Lcg(pub u64);

impl Lcg {
    /// Next pseudo-random number.
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// All legal moves of `pos`.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.iter().copied().collect()
}

/// A random legal move of the game's current position.
pub fn random_move(game: &Game, rng: &mut Lcg) -> Move {
    let moves = legal_moves(game.position());
    moves[(rng.next() as usize) % moves.len()]
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
