//! XBoard / CECP v2 input parsed into commands (pure: a function of the line alone).

/// A `level MPS BASE INC` time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Moves per session (0: the whole game).
    pub moves_per_session: u32,
    /// Base time in milliseconds.
    pub base_ms: u64,
    /// Increment in milliseconds.
    pub increment_ms: u64,
}

/// One line of XBoard input.
#[derive(Clone, Debug, PartialEq)]
pub enum XboardCommand {
    /// `xboard`.
    Xboard,
    /// `protover N`.
    Protover(u32),
    /// `accepted FEATURE`.
    Accepted(String),
    /// `rejected FEATURE`.
    Rejected(String),
    /// `new`.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `quit`.
    Quit,
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `white` / `black` (protocol v1 side selection).
    SetSide(shakmaty::Color),
    /// `level MPS BASE INC`.
    Level(Level),
    /// `st SECONDS`.
    SecondsPerMove(f64),
    /// `sd DEPTH`.
    Depth(u32),
    /// `time CENTISECONDS` (engine's clock).
    Time(i64),
    /// `otim CENTISECONDS` (opponent's clock).
    OpponentTime(i64),
    /// `usermove MOVE` or a bare move.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`.
    Ping(String),
    /// `draw` offer.
    Draw,
    /// `result RESULT {COMMENT}`.
    Result(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `hint`.
    Hint,
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `hard`: ponder on.
    Hard,
    /// `easy`: ponder off.
    Easy,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `analyze`.
    Analyze,
    /// `exit` (leave analyze mode).
    Exit,
    /// `.` (analysis status request).
    Status,
    /// `memory MB`.
    Memory(usize),
    /// `cores N`.
    Cores(usize),
    /// `option NAME[=VALUE]`.
    Option {
        /// Option name.
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `lift SQUARE`: the user picked up a piece.
    Lift(String),
    /// `put SQUARE`: the user dropped a piece.
    Put(String),
    /// `hover SQUARE`.
    Hover(String),
    /// Commands accepted and deliberately ignored (random, computer, name, rating, ...).
    Ignored,
    /// Empty line.
    Empty,
    /// Unknown command word.
    Unknown(String),
    /// Known command with bad arguments; the text explains why.
    Malformed(String),
}

/// Parse `BASE` of `level`: minutes, or `minutes:seconds`.
fn parse_base(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => Some(m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000),
        None => Some((text.parse::<f64>().ok()? * 60_000.0).max(0.0) as u64),
    }
}

fn parse_level(args: &[&str]) -> Result<Level, String> {
    let [mps, base, inc] = args else {
        return Err("level: expected 'level MPS BASE INC'".into());
    };
    let moves_per_session = mps.parse().map_err(|_| format!("level: bad MPS '{mps}'"))?;
    let base_ms = parse_base(base).ok_or_else(|| format!("level: bad BASE '{base}'"))?;
    let increment: f64 = inc.parse().map_err(|_| format!("level: bad INC '{inc}'"))?;
    if !increment.is_finite() || increment < 0.0 {
        return Err(format!("level: bad INC '{inc}'"));
    }
    Ok(Level {
        moves_per_session,
        base_ms,
        increment_ms: (increment * 1000.0) as u64,
    })
}

/// Whether `word` looks like a coordinate move (XBoard sends bare moves when usermove=0).
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4
        && b.len() <= 6
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

fn one_arg<'a>(cmd: &str, args: &[&'a str]) -> Result<&'a str, String> {
    args.first()
        .copied()
        .ok_or_else(|| format!("{cmd}: missing argument"))
}

fn number<T: std::str::FromStr>(cmd: &str, args: &[&str]) -> Result<T, String> {
    let text = one_arg(cmd, args)?;
    text.parse()
        .map_err(|_| format!("{cmd}: bad number '{text}'"))
}

impl XboardCommand {
    /// Parse one input line.
    pub fn parse(line: &str) -> XboardCommand {
        let line = line.trim();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&word, args)) = tokens.split_first() else {
            return XboardCommand::Empty;
        };
        let rest = line[word.len()..].trim();
        let parsed: Result<XboardCommand, String> = match word {
            "xboard" => Ok(XboardCommand::Xboard),
            "protover" => number("protover", args).map(XboardCommand::Protover),
            "accepted" => Ok(XboardCommand::Accepted(rest.to_string())),
            "rejected" => Ok(XboardCommand::Rejected(rest.to_string())),
            "new" => Ok(XboardCommand::New),
            "variant" => one_arg("variant", args).map(|v| XboardCommand::Variant(v.to_string())),
            "quit" => Ok(XboardCommand::Quit),
            "force" => Ok(XboardCommand::Force),
            "go" => Ok(XboardCommand::Go),
            "playother" => Ok(XboardCommand::PlayOther),
            "white" => Ok(XboardCommand::SetSide(shakmaty::Color::White)),
            "black" => Ok(XboardCommand::SetSide(shakmaty::Color::Black)),
            "level" => parse_level(args).map(XboardCommand::Level),
            "st" => number::<f64>("st", args).and_then(|s| {
                if s.is_finite() && s >= 0.0 {
                    Ok(XboardCommand::SecondsPerMove(s))
                } else {
                    Err(format!("st: bad number '{s}'"))
                }
            }),
            "sd" => number("sd", args).map(XboardCommand::Depth),
            "time" => number("time", args).map(XboardCommand::Time),
            "otim" => number("otim", args).map(XboardCommand::OpponentTime),
            "usermove" if args.len() > 1 => {
                Err("usermove: one move per command; nothing played".into())
            }
            "usermove" => one_arg("usermove", args).map(|m| XboardCommand::UserMove(m.to_string())),
            "?" => Ok(XboardCommand::MoveNow),
            "ping" => Ok(XboardCommand::Ping(rest.to_string())),
            "draw" => Ok(XboardCommand::Draw),
            "result" => Ok(XboardCommand::Result(rest.to_string())),
            "setboard" if !rest.is_empty() => Ok(XboardCommand::SetBoard(rest.to_string())),
            "setboard" => Err("setboard: missing FEN".into()),
            "hint" => Ok(XboardCommand::Hint),
            "undo" => Ok(XboardCommand::Undo),
            "remove" => Ok(XboardCommand::Remove),
            "hard" => Ok(XboardCommand::Hard),
            "easy" => Ok(XboardCommand::Easy),
            "post" => Ok(XboardCommand::Post),
            "nopost" => Ok(XboardCommand::NoPost),
            "analyze" => Ok(XboardCommand::Analyze),
            "exit" => Ok(XboardCommand::Exit),
            "." => Ok(XboardCommand::Status),
            "memory" => number("memory", args).map(XboardCommand::Memory),
            "cores" => number("cores", args).map(XboardCommand::Cores),
            "option" if !rest.is_empty() => Ok(match rest.split_once('=') {
                Some((n, v)) => XboardCommand::Option {
                    name: n.trim().to_string(),
                    value: Some(v.trim().to_string()),
                },
                None => XboardCommand::Option {
                    name: rest.to_string(),
                    value: None,
                },
            }),
            "option" => Err("option: missing name".into()),
            "lift" => one_arg("lift", args).map(|s| XboardCommand::Lift(s.to_string())),
            "put" => one_arg("put", args).map(|s| XboardCommand::Put(s.to_string())),
            "hover" => one_arg("hover", args).map(|s| XboardCommand::Hover(s.to_string())),
            "random" | "computer" | "name" | "rating" | "ics" | "nps" | "bk" | "pause"
            | "resume" | "egtpath" | "edit" | "easy_mode" | "otime" => Ok(XboardCommand::Ignored),
            w if looks_like_move(w) && args.is_empty() => {
                Ok(XboardCommand::UserMove(w.to_string()))
            }
            other => Ok(XboardCommand::Unknown(other.to_string())),
        };
        parsed.unwrap_or_else(XboardCommand::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_words() {
        assert_eq!(XboardCommand::parse("xboard"), XboardCommand::Xboard);
        assert_eq!(
            XboardCommand::parse("protover 2"),
            XboardCommand::Protover(2)
        );
        assert_eq!(XboardCommand::parse("?"), XboardCommand::MoveNow);
        assert_eq!(XboardCommand::parse("."), XboardCommand::Status);
        assert_eq!(
            XboardCommand::parse("ping 17"),
            XboardCommand::Ping("17".into())
        );
        assert_eq!(
            XboardCommand::parse("frobnicate"),
            XboardCommand::Unknown("frobnicate".into())
        );
        assert_eq!(XboardCommand::parse("   "), XboardCommand::Empty);
    }

    #[test]
    fn moves() {
        assert_eq!(
            XboardCommand::parse("usermove e2e4"),
            XboardCommand::UserMove("e2e4".into())
        );
        assert_eq!(
            XboardCommand::parse("e7e8k"),
            XboardCommand::UserMove("e7e8k".into())
        );
        assert!(matches!(
            XboardCommand::parse("usermove"),
            XboardCommand::Malformed(_)
        ));
        // Two moves in one command are refused whole, never half played.
        assert!(matches!(
            XboardCommand::parse("usermove e2e4 e7e5"),
            XboardCommand::Malformed(_)
        ));
    }

    #[test]
    fn level_forms() {
        assert_eq!(
            XboardCommand::parse("level 40 5 0"),
            XboardCommand::Level(Level {
                moves_per_session: 40,
                base_ms: 300_000,
                increment_ms: 0
            })
        );
        assert_eq!(
            XboardCommand::parse("level 0 0:30 0.5"),
            XboardCommand::Level(Level {
                moves_per_session: 0,
                base_ms: 30_000,
                increment_ms: 500
            })
        );
        assert!(matches!(
            XboardCommand::parse("level 0 x 1"),
            XboardCommand::Malformed(_)
        ));
        assert!(matches!(
            XboardCommand::parse("level 1 2"),
            XboardCommand::Malformed(_)
        ));
    }

    #[test]
    fn clocks_and_limits() {
        assert_eq!(
            XboardCommand::parse("time 12345"),
            XboardCommand::Time(12345)
        );
        assert_eq!(
            XboardCommand::parse("otim -20"),
            XboardCommand::OpponentTime(-20)
        );
        assert_eq!(
            XboardCommand::parse("st 2.5"),
            XboardCommand::SecondsPerMove(2.5)
        );
        assert_eq!(XboardCommand::parse("sd 7"), XboardCommand::Depth(7));
        assert!(matches!(
            XboardCommand::parse("sd seven"),
            XboardCommand::Malformed(_)
        ));
        assert!(matches!(
            XboardCommand::parse("st -1"),
            XboardCommand::Malformed(_)
        ));
    }

    #[test]
    fn setboard_keeps_whole_fen() {
        assert_eq!(
            XboardCommand::parse("setboard 8/8/8/8/8/8/8/K6k w - - 0 1"),
            XboardCommand::SetBoard("8/8/8/8/8/8/8/K6k w - - 0 1".into())
        );
    }

    #[test]
    fn options() {
        assert_eq!(
            XboardCommand::parse("option Move Overhead=50"),
            XboardCommand::Option {
                name: "Move Overhead".into(),
                value: Some("50".into())
            }
        );
        assert_eq!(
            XboardCommand::parse("option Clear Hash"),
            XboardCommand::Option {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(XboardCommand::parse("memory 64"), XboardCommand::Memory(64));
        assert_eq!(XboardCommand::parse("cores 2"), XboardCommand::Cores(2));
    }

    #[test]
    fn result_keeps_comment() {
        assert_eq!(
            XboardCommand::parse("result 1-0 {White wins}"),
            XboardCommand::Result("1-0 {White wins}".into())
        );
    }
}
