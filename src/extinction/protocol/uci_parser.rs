//! UCI input parsed into commands: pure functions of the line and, for `go`, of the position
//! it applies to (whose side the clocks are read for and whose moves `searchmoves` names).

use shakmaty::Color;

use crate::extinction::rules::{parse_uci, Move, MoveError, Position};
use crate::extinction::search::timeman::Limits;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `position startpos`.
    Startpos,
    /// `position fen <FEN>` (the FEN text, fields joined by single spaces).
    Fen(String),
}

/// A `go` command, read against the position it is for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The clock's limits for the side to move (its own `wtime`/`winc` or `btime`/`binc`).
    pub limits: Limits,
    /// `searchmoves` that are legal here (empty: search every move).
    pub searchmoves: Vec<Move>,
    /// `searchmoves` that are not legal here, ignored; each one deserves an error line.
    pub rejected_searchmoves: Vec<MoveError>,
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
    Go(Go),
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

fn parse_go(tokens: &[&str], pos: &Position) -> Result<Go, String> {
    let mut go = Go::default();
    let limits = &mut go.limits;
    let ours = |keyword: &str| (keyword.starts_with('w')) == (pos.turn() == Color::White);
    let mut i = 0;
    while i < tokens.len() {
        let keyword = tokens[i];
        let value = tokens.get(i + 1).copied();
        i += 2;
        match keyword {
            "wtime" | "btime" => {
                let time = parse_time(keyword, value)?;
                if ours(keyword) {
                    limits.time_left_ms = Some(time);
                }
            }
            "winc" | "binc" => {
                let increment = parse_time(keyword, value)?;
                if ours(keyword) {
                    limits.increment_ms = increment;
                }
            }
            "movestogo" => limits.moves_to_go = Some(parse_number(keyword, value)?),
            "depth" => limits.depth = Some(parse_number(keyword, value)?),
            "nodes" => limits.nodes = Some(parse_number(keyword, value)?),
            "mate" => limits.mate = Some(parse_number(keyword, value)?),
            "movetime" => limits.move_time_ms = Some(parse_time(keyword, value)?),
            "perft" => go.perft = Some(parse_number(keyword, value)?),
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                limits.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                // searchmoves runs until the next keyword (UCI moves never clash with keywords).
                while i < tokens.len() && !is_go_keyword(tokens[i]) {
                    match parse_uci(pos, tokens[i]) {
                        Ok(m) => go.searchmoves.push(m),
                        Err(e) => go.rejected_searchmoves.push(e),
                    }
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
    /// Parse one input line arriving while `pos` is the current position.
    pub fn parse(line: &str, pos: &Position) -> UciCommand {
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
            "go" => parse_go(args, pos).map(UciCommand::Go),
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

    fn parse(line: &str) -> UciCommand {
        UciCommand::parse(line, &Position::startpos())
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), UciCommand::Uci);
        assert_eq!(parse("  isready  "), UciCommand::IsReady);
        assert_eq!(parse(""), UciCommand::Empty);
        assert_eq!(parse("stop"), UciCommand::Stop);
        assert_eq!(parse("xyzzy 1 2"), UciCommand::Unknown("xyzzy".into()));
    }

    #[test]
    fn position_startpos_with_moves() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            UciCommand::Position {
                start: StartPosition::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
    }

    #[test]
    fn position_fen() {
        let cmd = parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2");
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
        assert!(matches!(parse("position"), UciCommand::Malformed(_)));
        assert!(matches!(parse("position fen"), UciCommand::Malformed(_)));
        assert!(matches!(parse("position foo"), UciCommand::Malformed(_)));
    }

    #[test]
    fn go_full() {
        let cmd = parse(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 99 movetime 50 mate 2 ponder infinite",
        );
        let UciCommand::Go(go) = cmd else {
            panic!("not go")
        };
        let expected = Limits {
            time_left_ms: Some(1000),
            increment_ms: 10,
            moves_to_go: Some(7),
            move_time_ms: Some(50),
            depth: Some(3),
            nodes: Some(99),
            mate: Some(2),
            infinite: true,
            ponder: true,
        };
        assert_eq!(go.limits, expected);
        assert_eq!(go.perft, None);
    }

    #[test]
    fn go_reads_the_clock_of_the_side_to_move() {
        let black =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .expect("fen");
        let UciCommand::Go(go) = UciCommand::parse("go wtime 1000 btime -5 winc 5 binc 7", &black)
        else {
            panic!("not go")
        };
        // Negative times (a flag fell) are clamped to zero.
        assert_eq!(go.limits.time_left_ms, Some(0));
        assert_eq!(go.limits.increment_ms, 7);
    }

    #[test]
    fn go_searchmoves_then_keyword() {
        let UciCommand::Go(go) = parse("go searchmoves e2e4 e2e5 d2d4 depth 5") else {
            panic!("not go")
        };
        let start = Position::startpos();
        let legal = |text| parse_uci(&start, text).unwrap();
        assert_eq!(go.searchmoves, vec![legal("e2e4"), legal("d2d4")]);
        assert_eq!(
            go.rejected_searchmoves,
            vec![MoveError::Illegal("e2e5".into())]
        );
        assert_eq!(go.limits.depth, Some(5));
        let UciCommand::Go(go) = parse("go perft 3") else {
            panic!("not go")
        };
        assert_eq!(go.perft, Some(3));
    }

    #[test]
    fn go_errors() {
        assert!(matches!(parse("go depth"), UciCommand::Malformed(_)));
        assert!(matches!(parse("go depth x"), UciCommand::Malformed(_)));
        assert!(matches!(parse("go sideways 3"), UciCommand::Malformed(_)));
    }

    #[test]
    fn setoption_multiword() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(
            parse("setoption value 3"),
            UciCommand::Malformed(_)
        ));
    }
}
