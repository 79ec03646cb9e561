//! PGN import: tag pairs and SAN movetext (comments, variations, NAGs, move numbers and
//! results are skipped), replayable into a [`Game`].

use std::fmt;

use super::game::Game;
use super::notation::{FenError, MoveError};
use super::position::Position;

/// A parsed PGN game: its tags and its main-line SAN moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order, e.g. `("White", "N.N.")`.
    pub headers: Vec<(String, String)>,
    /// Main-line moves as written (SAN).
    pub moves: Vec<String>,
    /// Game termination marker from the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

/// Why a PGN could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// Broken syntax (unterminated tag, comment, variation...).
    Syntax(String),
    /// The FEN tag is invalid.
    Fen(FenError),
    /// A move does not parse or is illegal; `ply` counts from 1.
    Move { ply: usize, error: MoveError },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Syntax(s) => write!(f, "PGN syntax error: {s}"),
            PgnError::Fen(e) => write!(f, "PGN FEN tag: {e}"),
            PgnError::Move { ply, error } => write!(f, "PGN move at ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for PgnError {}

impl PgnGame {
    /// Value of a tag, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the FEN tag if present, else the standard start.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        match self.header("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(PgnError::Fen),
            None => Ok(Position::startpos()),
        }
    }

    /// Replay all moves into a [`Game`], failing at the first bad move.
    pub fn replay(&self) -> Result<Game, PgnError> {
        let mut game = Game::new(self.start_position()?);
        for (i, san) in self.moves.iter().enumerate() {
            game.play_san(san)
                .map_err(|error| PgnError::Move { ply: i + 1, error })?;
        }
        Ok(game)
    }
}

fn is_result(tok: &str) -> bool {
    matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Parse one PGN game (tags optional).
pub fn parse_pgn(text: &str) -> Result<PgnGame, PgnError> {
    let mut game = PgnGame::default();
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut depth = 0usize;
    let flush = |token: &mut String, tokens: &mut Vec<String>, depth: usize| {
        if !token.is_empty() {
            if depth == 0 {
                tokens.push(std::mem::take(token));
            } else {
                token.clear();
            }
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if depth == 0 && tokens.is_empty() && token.is_empty() => {
                let mut tag = String::new();
                loop {
                    match chars.next() {
                        Some(']') => break,
                        Some('"') => {
                            tag.push('"');
                            loop {
                                match chars.next() {
                                    Some('\\') => {
                                        if let Some(e) = chars.next() {
                                            tag.push(e);
                                        }
                                    }
                                    Some('"') => break,
                                    Some(ch) => tag.push(ch),
                                    None => {
                                        return Err(PgnError::Syntax(
                                            "unterminated tag value".into(),
                                        ))
                                    }
                                }
                            }
                            tag.push('"');
                        }
                        Some(ch) => tag.push(ch),
                        None => return Err(PgnError::Syntax("unterminated tag".into())),
                    }
                }
                let tag = tag.trim();
                let (name, value) = match tag.split_once(char::is_whitespace) {
                    Some((n, v)) => (n.to_string(), v.trim()),
                    None => return Err(PgnError::Syntax(format!("tag without value: [{tag}]"))),
                };
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| PgnError::Syntax(format!("tag value not quoted: [{tag}]")))?;
                game.headers.push((name, value.to_string()));
            }
            '{' => {
                flush(&mut token, &mut tokens, depth);
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(_) => {}
                        None => return Err(PgnError::Syntax("unterminated comment".into())),
                    }
                }
            }
            ';' => {
                flush(&mut token, &mut tokens, depth);
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, &mut tokens, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut token, &mut tokens, depth);
                if depth == 0 {
                    return Err(PgnError::Syntax("unbalanced ')'".into()));
                }
                depth -= 1;
            }
            c if c.is_whitespace() => flush(&mut token, &mut tokens, depth),
            c => token.push(c),
        }
    }
    flush(&mut token, &mut tokens, depth);
    if depth != 0 {
        return Err(PgnError::Syntax("unterminated variation".into()));
    }
    for tok in tokens {
        if is_result(&tok) {
            game.result = Some(tok);
            continue;
        }
        if tok.starts_with('$') {
            continue;
        }
        // Strip a move number prefix: "1.", "12...", or "1.e4".
        let stripped = tok.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = if stripped.len() < tok.len() && stripped.starts_with('.') {
            stripped.trim_start_matches('.')
        } else {
            tok.as_str()
        };
        if !rest.is_empty() {
            game.moves.push(rest.to_string());
        }
    }
    Ok(game)
}
