//! The input side of a session: a thread that reads stdin line by line while the engine
//! searches, and the one ordered stream of events the session loop waits on (input lines,
//! end of input, and finished searches).

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};

/// Something that happened, delivered to the session loop in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// One line of input.
    Line(String),
    /// Input closed.
    Eof,
    /// The search with this id finished (its result is collected with `Engine::finish`).
    SearchDone(u64),
}

/// Start a thread that turns stdin lines into events; returns a sender for the other events
/// (finished searches) and the receiver the session loop reads.
pub fn spawn_input_thread() -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let input_tx = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    log::trace!("< {line}");
                    if input_tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = input_tx.send(Event::Eof);
    });
    (tx, rx)
}
