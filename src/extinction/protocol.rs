//! Protocol selection: `extinction` without a subcommand reads the first line and picks UCI
//! (`uci`) or XBoard (`xboard` / `protover`).

use crate::console::outln;
use std::io::BufRead;

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface.
    Uci,
    /// XBoard / CECP.
    Xboard,
}

/// The protocol a first input line asks for; `None` when it does not say.
pub fn detect(first_line: &str) -> Option<Protocol> {
    match first_line.split_whitespace().next() {
        Some("uci") => Some(Protocol::Uci),
        Some("xboard") | Some("protover") => Some(Protocol::Xboard),
        _ => None,
    }
}

/// Run a session in `protocol`, or detect it from the first non-empty input line.
pub fn run(protocol: Option<Protocol>) {
    if let Some(p) = protocol {
        match p {
            Protocol::Uci => super::uci::run(None),
            Protocol::Xboard => super::xboard::run(None),
        }
        return;
    }
    let stdin = std::io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if line.trim().is_empty() => continue,
            Ok(_) => break,
        }
    }
    let first = line.trim().to_string();
    match detect(&first) {
        Some(Protocol::Xboard) => super::xboard::run(Some(&first)),
        Some(Protocol::Uci) => super::uci::run(Some(&first)),
        None => {
            outln!("info string error: expected 'uci' or 'xboard' first; assuming UCI");
            super::uci::run(Some(&first));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects() {
        assert_eq!(detect("uci"), Some(Protocol::Uci));
        assert_eq!(detect("xboard"), Some(Protocol::Xboard));
        assert_eq!(detect("protover 2"), Some(Protocol::Xboard));
        assert_eq!(detect("hello"), None);
    }
}
