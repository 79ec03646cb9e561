//! Drive the real `extinction` binary over pipes, as a GUI does.

use std::io::Write;
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

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
        let mut child = super::spawn_extinction(args, Stdio::null());
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

    /// The process id (for reading its memory use from /proc).
    pub fn id(&self) -> u32 {
        self.child.id()
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
