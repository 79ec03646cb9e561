//! Which protocol a session speaks: chosen by the subcommand, or read off the first input line
//! (`uci` for UCI, `xboard` or `protover` for XBoard).

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
