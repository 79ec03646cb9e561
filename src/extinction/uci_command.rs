//! UCI input parsed into commands (pure; no engine state).

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `position startpos`.
    Startpos,
    /// `position fen <FEN>` (the FEN text, fields joined by single spaces).
    Fen(String),
}

/// Parameters of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// White's remaining time in ms.
    pub wtime: Option<u64>,
    /// Black's remaining time in ms.
    pub btime: Option<u64>,
    /// White's increment in ms.
    pub winc: Option<u64>,
    /// Black's increment in ms.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search for a win in this many moves.
    pub mate: Option<u32>,
    /// Fixed time per move in ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder search.
    pub ponder: bool,
    /// Restrict the root to these moves (UCI text, validated later).
    pub searchmoves: Vec<String>,
    /// `go perft N`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
}

/// One line of UCI input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    UciNewGame,
    /// `debug on|off`.
    Debug(bool),
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name as sent (matched case-insensitively later).
        name: String,
        /// Value text, if any.
        value: Option<String>,
    },
    /// `position ... [moves ...]`.
    Position {
        /// Start position.
        start: StartPosition,
        /// Moves to play from it, in UCI notation.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `register` (ignored).
    Register,
    /// Non-standard `d`: print the board.
    Display,
    /// Non-standard `eval`: print the static evaluation.
    Eval,
    /// Empty line.
    Empty,
    /// An unknown command word.
    Unknown(String),
    /// A known command with bad arguments; the text explains why.
    Malformed(String),
}

fn parse_number<T: std::str::FromStr>(keyword: &str, token: Option<&str>) -> Result<T, String> {
    let text = token.ok_or_else(|| format!("go {keyword}: missing value"))?;
    text.parse::<T>()
        .map_err(|_| format!("go {keyword}: bad value '{text}'"))
}

/// Times may arrive negative from some GUIs when the clock has run out: clamp to zero.
fn parse_time(keyword: &str, token: Option<&str>) -> Result<u64, String> {
    let value: i64 = parse_number(keyword, token)?;
    Ok(value.max(0) as u64)
}

fn parse_go(tokens: &[&str]) -> Result<GoCommand, String> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < tokens.len() {
        let keyword = tokens[i];
        let value = tokens.get(i + 1).copied();
        i += 2;
        match keyword {
            "wtime" => go.wtime = Some(parse_time(keyword, value)?),
            "btime" => go.btime = Some(parse_time(keyword, value)?),
            "winc" => go.winc = Some(parse_time(keyword, value)?),
            "binc" => go.binc = Some(parse_time(keyword, value)?),
            "movestogo" => go.movestogo = Some(parse_number(keyword, value)?),
            "depth" => go.depth = Some(parse_number(keyword, value)?),
            "nodes" => go.nodes = Some(parse_number(keyword, value)?),
            "mate" => go.mate = Some(parse_number(keyword, value)?),
            "movetime" => go.movetime = Some(parse_time(keyword, value)?),
            "perft" => go.perft = Some(parse_number(keyword, value)?),
            "infinite" => {
                go.infinite = true;
                i -= 1;
            }
            "ponder" => {
                go.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                // searchmoves runs until the next keyword (UCI moves never clash with keywords).
                while i < tokens.len() && !is_go_keyword(tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(go)
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "perft"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

fn parse_position(tokens: &[&str]) -> Result<UciCommand, String> {
    let moves_at = tokens.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &tokens[tokens.len()..]),
    };
    let start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => StartPosition::Startpos,
        Some(&"startpos") => return Err("position startpos: unexpected text before 'moves'".into()),
        Some(&"fen") if setup.len() > 1 => StartPosition::Fen(setup[1..].join(" ")),
        Some(&"fen") => return Err("position fen: missing FEN".into()),
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', got '{other}'"
            ))
        }
        None => return Err("position: missing 'startpos' or 'fen'".into()),
    };
    Ok(UciCommand::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_setoption(tokens: &[&str]) -> Result<UciCommand, String> {
    if tokens.first() != Some(&"name") {
        return Err("setoption: expected 'name'".into());
    }
    let rest = &tokens[1..];
    let value_at = rest.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    Ok(UciCommand::SetOption { name, value })
}

impl UciCommand {
    /// Parse one input line.
    pub fn parse(line: &str) -> UciCommand {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, args)) = tokens.split_first() else {
            return UciCommand::Empty;
        };
        let parsed = match word {
            "uci" => Ok(UciCommand::Uci),
            "isready" => Ok(UciCommand::IsReady),
            "ucinewgame" => Ok(UciCommand::UciNewGame),
            "debug" => Ok(UciCommand::Debug(args.first() == Some(&"on"))),
            "setoption" => parse_setoption(args),
            "position" => parse_position(args),
            "go" => parse_go(args).map(UciCommand::Go),
            "stop" => Ok(UciCommand::Stop),
            "ponderhit" => Ok(UciCommand::PonderHit),
            "quit" => Ok(UciCommand::Quit),
            "register" => Ok(UciCommand::Register),
            "d" => Ok(UciCommand::Display),
            "eval" => Ok(UciCommand::Eval),
            other => Ok(UciCommand::Unknown(other.to_string())),
        };
        parsed.unwrap_or_else(UciCommand::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(UciCommand::parse("uci"), UciCommand::Uci);
        assert_eq!(UciCommand::parse("  isready  "), UciCommand::IsReady);
        assert_eq!(UciCommand::parse(""), UciCommand::Empty);
        assert_eq!(UciCommand::parse("stop"), UciCommand::Stop);
        assert_eq!(
            UciCommand::parse("xyzzy 1 2"),
            UciCommand::Unknown("xyzzy".into())
        );
    }

    #[test]
    fn position_startpos_with_moves() {
        assert_eq!(
            UciCommand::parse("position startpos moves e2e4 e7e5"),
            UciCommand::Position {
                start: StartPosition::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
    }

    #[test]
    fn position_fen() {
        let cmd = UciCommand::parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2");
        assert_eq!(
            cmd,
            UciCommand::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".into()]
            }
        );
    }

    #[test]
    fn position_errors() {
        assert!(matches!(
            UciCommand::parse("position"),
            UciCommand::Malformed(_)
        ));
        assert!(matches!(
            UciCommand::parse("position fen"),
            UciCommand::Malformed(_)
        ));
        assert!(matches!(
            UciCommand::parse("position foo"),
            UciCommand::Malformed(_)
        ));
    }

    #[test]
    fn go_full() {
        let cmd = UciCommand::parse(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 99 movetime 50 mate 2 ponder infinite",
        );
        let UciCommand::Go(go) = cmd else {
            panic!("not go")
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.winc, Some(10));
        assert_eq!(go.binc, Some(20));
        assert_eq!(go.movestogo, Some(7));
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.nodes, Some(99));
        assert_eq!(go.movetime, Some(50));
        assert_eq!(go.mate, Some(2));
        assert!(go.ponder && go.infinite);
    }

    #[test]
    fn go_searchmoves_then_keyword() {
        let UciCommand::Go(go) = UciCommand::parse("go searchmoves e2e4 d2d4 depth 5") else {
            panic!("not go")
        };
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(go.depth, Some(5));
    }

    #[test]
    fn go_errors() {
        assert!(matches!(
            UciCommand::parse("go depth"),
            UciCommand::Malformed(_)
        ));
        assert!(matches!(
            UciCommand::parse("go depth x"),
            UciCommand::Malformed(_)
        ));
        assert!(matches!(
            UciCommand::parse("go sideways 3"),
            UciCommand::Malformed(_)
        ));
    }

    #[test]
    fn setoption_multiword() {
        assert_eq!(
            UciCommand::parse("setoption name Move Overhead value 100"),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            UciCommand::parse("setoption name Clear Hash"),
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(
            UciCommand::parse("setoption value 3"),
            UciCommand::Malformed(_)
        ));
    }
}
