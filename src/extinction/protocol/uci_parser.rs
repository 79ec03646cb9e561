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

/// A `go` command, read against the position it is for. Parts that cannot be read are left
/// out and listed in `errors`; the rest still applies, so every `go` still gets its search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The clock's limits for the side to move (its own `wtime`/`winc` or `btime`/`binc`).
    pub limits: Limits,
    /// `searchmoves` that are legal here (empty: search every move).
    pub searchmoves: Vec<Move>,
    /// `go perft N`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// What could not be read, in order; each one deserves an error line.
    pub errors: Vec<GoError>,
}

/// Milliseconds a `go` searches when its only limits could not be read: a GUI that sent a
/// broken `go` still waits for a move, so it gets one soon instead of never.
pub const FALLBACK_MOVE_TIME_MS: u64 = 1000;

impl Go {
    /// Whether anything in this `go` ends the search, or says it must wait for `stop` or
    /// `ponderhit` (a bare `go` is an infinite search, as in other engines).
    fn has_limit(&self) -> bool {
        let l = &self.limits;
        l.time_left_ms.is_some()
            || l.move_time_ms.is_some()
            || l.depth.is_some()
            || l.nodes.is_some()
            || l.mate.is_some()
            || l.infinite
            || l.ponder
    }

    /// The limits to search under: the ones read, or [`FALLBACK_MOVE_TIME_MS`] when errors
    /// left none (so `go depth -1` or `go banana` are answered in a second, not never).
    pub fn limits_to_search(&self) -> Limits {
        let mut limits = self.limits.clone();
        if !self.errors.is_empty() && !self.has_limit() {
            limits.move_time_ms = Some(FALLBACK_MOVE_TIME_MS);
        }
        limits
    }
}

/// A part of a `go` command that could not be read (and is ignored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// A keyword without its value.
    MissingValue(String),
    /// A keyword whose value is not a number in its range.
    BadValue {
        /// The keyword (`depth`, `wtime`, ...).
        keyword: String,
        /// The text sent as its value.
        value: String,
    },
    /// A word that is no `go` parameter.
    UnknownParameter(String),
    /// A `searchmoves` entry that is no legal move here.
    SearchMove(MoveError),
    /// `searchmoves` named no legal move: every move is searched.
    NoSearchMoves,
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoError::MissingValue(keyword) => write!(f, "go {keyword}: missing value; ignored"),
            GoError::BadValue { keyword, value } => {
                write!(f, "go {keyword}: bad value '{value}'; ignored")
            }
            GoError::UnknownParameter(word) => write!(f, "go: unknown parameter '{word}'; ignored"),
            GoError::SearchMove(e) => write!(f, "searchmoves: {e}; ignored"),
            GoError::NoSearchMoves => {
                write!(f, "searchmoves: no legal move given; searching every move")
            }
        }
    }
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

/// The value after `keyword`: `Ok(None)` when it is missing (the next token, if any, is then
/// read as a keyword again), an error when it is no `T`.
fn parse_number<T: std::str::FromStr>(
    keyword: &str,
    token: Option<&str>,
) -> Result<Option<T>, GoError> {
    let Some(text) = token else {
        return Ok(None);
    };
    text.parse::<T>().map(Some).map_err(|_| GoError::BadValue {
        keyword: keyword.to_string(),
        value: text.to_string(),
    })
}

/// Times may arrive negative from some GUIs when the clock has run out: clamp to zero.
fn parse_time(keyword: &str, token: Option<&str>) -> Result<Option<u64>, GoError> {
    Ok(parse_number::<i64>(keyword, token)?.map(|value| value.max(0) as u64))
}

fn parse_go(tokens: &[&str], pos: &Position) -> Go {
    let mut go = Go::default();
    let ours = |keyword: &str| (keyword.starts_with('w')) == (pos.turn() == Color::White);
    let mut i = 0;
    while i < tokens.len() {
        let keyword = tokens[i];
        i += 1;
        match keyword {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "searchmoves" => {
                // searchmoves runs until the next keyword (UCI moves never clash with keywords).
                let mut named = 0;
                while i < tokens.len() && !is_go_keyword(tokens[i]) {
                    match parse_uci(pos, tokens[i]) {
                        Ok(m) => go.searchmoves.push(m),
                        Err(e) => go.errors.push(GoError::SearchMove(e)),
                    }
                    named += 1;
                    i += 1;
                }
                if named > 0 && go.searchmoves.is_empty() {
                    go.errors.push(GoError::NoSearchMoves);
                }
            }
            _ if is_go_keyword(keyword) => {
                // A keyword's value is the next token unless that is a keyword itself.
                let value = tokens.get(i).copied().filter(|t| !is_go_keyword(t));
                if value.is_some() {
                    i += 1;
                }
                if let Err(e) = read_value(&mut go, keyword, value, ours(keyword)) {
                    go.errors.push(e);
                }
            }
            other => go.errors.push(GoError::UnknownParameter(other.to_string())),
        }
    }
    go
}

/// Store `keyword`'s `value` in `go`; `ours` says whether a clock keyword is the mover's.
fn read_value(go: &mut Go, keyword: &str, value: Option<&str>, ours: bool) -> Result<(), GoError> {
    let limits = &mut go.limits;
    let missing = || GoError::MissingValue(keyword.to_string());
    match keyword {
        "wtime" | "btime" => {
            let time = parse_time(keyword, value)?.ok_or_else(missing)?;
            if ours {
                limits.time_left_ms = Some(time);
            }
        }
        "winc" | "binc" => {
            let increment = parse_time(keyword, value)?.ok_or_else(missing)?;
            if ours {
                limits.increment_ms = increment;
            }
        }
        "movestogo" => {
            limits.moves_to_go = Some(parse_number(keyword, value)?.ok_or_else(missing)?)
        }
        "depth" => limits.depth = Some(parse_number(keyword, value)?.ok_or_else(missing)?),
        "nodes" => limits.nodes = Some(parse_number(keyword, value)?.ok_or_else(missing)?),
        "mate" => limits.mate = Some(parse_number(keyword, value)?.ok_or_else(missing)?),
        "movetime" => limits.move_time_ms = Some(parse_time(keyword, value)?.ok_or_else(missing)?),
        "perft" => go.perft = Some(parse_number(keyword, value)?.ok_or_else(missing)?),
        _ => return Err(GoError::UnknownParameter(keyword.to_string())),
    }
    Ok(())
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
            "go" => Ok(UciCommand::Go(parse_go(args, pos))),
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
            go.errors,
            vec![GoError::SearchMove(MoveError::Illegal("e2e5".into()))]
        );
        assert_eq!(go.limits.depth, Some(5));
        let UciCommand::Go(go) = parse("go perft 3") else {
            panic!("not go")
        };
        assert_eq!(go.perft, Some(3));
    }

    fn go(line: &str) -> Go {
        match parse(line) {
            UciCommand::Go(go) => go,
            other => panic!("'{line}' is not a go: {other:?}"),
        }
    }

    fn bad(keyword: &str, value: &str) -> GoError {
        GoError::BadValue {
            keyword: keyword.into(),
            value: value.into(),
        }
    }

    #[test]
    fn go_errors_leave_out_only_the_bad_parts() {
        let cases: [(&str, Vec<GoError>, Limits); 6] = [
            (
                "go depth",
                vec![GoError::MissingValue("depth".into())],
                Limits::default(),
            ),
            ("go depth -1", vec![bad("depth", "-1")], Limits::default()),
            (
                "go banana",
                vec![GoError::UnknownParameter("banana".into())],
                Limits::default(),
            ),
            (
                "go depth 2 garbage",
                vec![GoError::UnknownParameter("garbage".into())],
                Limits::depth(2),
            ),
            (
                "go wtime 1000.5 btime 7",
                vec![bad("wtime", "1000.5")],
                Limits::default(),
            ),
            (
                "go wtime 99999999999999999999 depth movetime 30",
                vec![
                    bad("wtime", "99999999999999999999"),
                    GoError::MissingValue("depth".into()),
                ],
                Limits {
                    move_time_ms: Some(30),
                    ..Limits::default()
                },
            ),
        ];
        for (line, errors, limits) in cases {
            let go = go(line);
            assert_eq!(go.errors, errors, "{line}");
            assert_eq!(go.limits, limits, "{line}");
        }
    }

    #[test]
    fn a_go_left_without_limits_by_its_errors_gets_the_fallback_time() {
        let fallback = Limits {
            move_time_ms: Some(FALLBACK_MOVE_TIME_MS),
            ..Limits::default()
        };
        for line in ["go depth -1", "go banana", "go wtime 1000.5", "go nodes"] {
            assert_eq!(go(line).limits_to_search(), fallback, "{line}");
        }
        // What was read still applies; a bare `go` stays an infinite search.
        assert_eq!(
            go("go depth 2 garbage").limits_to_search(),
            Limits::depth(2)
        );
        assert_eq!(go("go").limits_to_search(), Limits::default());
        assert!(go("go banana infinite").limits_to_search().infinite);
    }

    #[test]
    fn searchmoves_without_a_legal_move_searches_every_move_and_says_so() {
        let go = go("go searchmoves e2e5 zz depth 3");
        assert!(go.searchmoves.is_empty());
        assert_eq!(go.errors.last(), Some(&GoError::NoSearchMoves));
        assert_eq!(go.errors.len(), 3);
        assert_eq!(go.limits.depth, Some(3));
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
