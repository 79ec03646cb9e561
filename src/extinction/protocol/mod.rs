//! The protocols a GUI speaks to the engine, UCI and XBoard/CECP v2, over one session loop
//! (`session.rs`) fed by one input thread (`input.rs`), writing through one `say`
//! (`output.rs`), with one option table (`options.rs`) both protocols render. Each protocol is
//! a pure parser (`uci_parser.rs`, `xboard_parser.rs`) and a front-end answering the parsed
//! commands (`uci.rs`, `xboard.rs`). This layer sits on top of the engine facade.

pub mod detect;
pub mod input;
pub mod options;
pub mod output;
pub mod session;
pub mod uci;
pub mod uci_parser;
pub mod xboard;
pub mod xboard_parser;

use std::io::BufRead;

pub use detect::{detect, Protocol};
use output::say;
use uci::Uci;
use xboard::Xboard;

/// Run a session in `protocol`, or detect it from the first non-empty input line. A session
/// answers errors in its protocol's own form, so it always ends with `Ok`.
pub fn run(protocol: Option<Protocol>) -> Result<(), String> {
    let first = match protocol {
        Some(_) => None,
        None => match read_first_line() {
            Some(line) => Some(line),
            None => return Ok(()),
        },
    };
    let protocol = protocol.or_else(|| {
        let detected = first.as_deref().and_then(detect);
        if detected.is_none() {
            say("info string error: expected 'uci' or 'xboard' first; assuming UCI");
        }
        detected
    });
    match protocol {
        Some(Protocol::Xboard) => session::run(&mut Xboard::default(), first.as_deref()),
        Some(Protocol::Uci) | None => session::run(&mut Uci, first.as_deref()),
    }
    Ok(())
}

/// The first non-empty input line, trimmed; `None` if input ends first. Bytes that are not
/// UTF-8 become U+FFFD (the line is then answered as an unknown command, as later lines are),
/// instead of ending the session silently.
fn read_first_line() -> Option<String> {
    let stdin = std::io::stdin();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.lock().read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty() {
                    return Some(text);
                }
            }
        }
    }
}
