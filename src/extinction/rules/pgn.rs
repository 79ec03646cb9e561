//! PGN import: tag pairs, SAN movetext and the comment after each main-line move (variations,
//! NAGs and move numbers are skipped), replayable into a [`Game`]; one game or a whole file of
//! them, as cutechess-cli's `-pgnout` writes (its move comments carry the engines' scores).

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
    /// The first comment after each main-line move (`comments[i]` belongs to `moves[i]`),
    /// without its braces, e.g. `+0.35/12 0.101s` from cutechess-cli.
    pub comments: Vec<Option<String>>,
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

/// Parse a PGN holding one game (tags optional). Text holding a second game is an error: read
/// such files with [`parse_pgn_games`].
pub fn parse_pgn(text: &str) -> Result<PgnGame, PgnError> {
    let mut games = parse_pgn_games(text).into_iter();
    let first = games.next().unwrap_or(Ok(PgnGame::default()))?;
    match games.next() {
        None => Ok(first),
        Some(_) => Err(PgnError::Syntax(
            "more than one game (text follows the first game's end)".into(),
        )),
    }
}

/// Every game of a PGN text, in order. A game ends at its termination marker (`1-0`, `0-1`,
/// `1/2-1/2`, `*`) or where the next game's tags begin. A game that does not parse is an `Err`
/// in its place, and reading goes on at the next line that starts with a tag. Text holding
/// only whitespace and comments gives no games.
pub fn parse_pgn_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    let mut games = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match read_game(rest) {
            Ok((Some(game), used)) => {
                games.push(Ok(game));
                rest = &rest[used..];
            }
            Ok((None, _)) => break,
            Err((error, resume)) => {
                games.push(Err(error));
                rest = &rest[resume..];
                rest = match rest.find("\n[") {
                    Some(line_end) => &rest[line_end + 1..],
                    None => "",
                };
            }
        }
    }
    games
}

/// Read the game at the start of `text`: the game (`None` when nothing but whitespace and
/// comments is left) and the number of bytes it used, or the error and the byte offset just
/// past the construct that failed (where [`parse_pgn_games`] looks for the next game).
fn read_game(text: &str) -> Result<(Option<PgnGame>, usize), (PgnError, usize)> {
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut variation_start = 0;
    let mut depth = 0usize;
    let mut token = String::new();
    let mut chars = text.char_indices();
    let syntax = |message: &str, resume: usize| Err((PgnError::Syntax(message.into()), resume));
    while let Some((at, c)) = chars.next() {
        let delimiter = c.is_whitespace() || matches!(c, '{' | ';' | '(' | ')');
        if delimiter && !token.is_empty() {
            let token = std::mem::take(&mut token);
            // Moves inside a variation are dropped: only the main line is kept.
            if depth == 0 {
                in_movetext = true;
                if add_movetext_token(&mut game, &token) {
                    return Ok((Some(game), at));
                }
            }
        }
        match c {
            '[' if depth == 0 && token.is_empty() => {
                if in_movetext {
                    // The next game's tags: this game had no termination marker.
                    return Ok((Some(game), at));
                }
                let tag = read_tag(&mut chars).map_err(|e| (e, at + 1))?;
                game.headers.push(tag);
            }
            '{' => {
                let mut comment = String::new();
                let mut closed = false;
                for (_, ch) in chars.by_ref() {
                    if ch == '}' {
                        closed = true;
                        break;
                    }
                    comment.push(ch);
                }
                if !closed {
                    return syntax("unterminated comment", at + 1);
                }
                if depth == 0 {
                    if let Some(slot @ None) = game.comments.last_mut() {
                        *slot = Some(comment.trim().to_string());
                    }
                }
            }
            ';' => {
                let _ = chars.any(|(_, ch)| ch == '\n');
            }
            '(' => {
                if depth == 0 {
                    variation_start = at;
                }
                depth += 1;
            }
            ')' => {
                if depth == 0 {
                    return syntax("unbalanced ')'", at + 1);
                }
                depth -= 1;
            }
            c if c.is_whitespace() => {}
            c => token.push(c),
        }
    }
    if depth != 0 {
        return syntax("unterminated variation", variation_start + 1);
    }
    if !token.is_empty() {
        add_movetext_token(&mut game, &token);
    }
    let empty = game.headers.is_empty() && game.moves.is_empty() && game.result.is_none();
    Ok(((!empty).then_some(game), text.len()))
}

/// Read a tag pair after its `[`, up to and including the `]`.
fn read_tag(chars: &mut std::str::CharIndices<'_>) -> Result<(String, String), PgnError> {
    let mut tag = String::new();
    loop {
        match chars.next().map(|(_, ch)| ch) {
            Some(']') => break,
            Some('"') => {
                tag.push('"');
                loop {
                    match chars.next().map(|(_, ch)| ch) {
                        Some('\\') => {
                            if let Some((_, escaped)) = chars.next() {
                                tag.push(escaped);
                            }
                        }
                        Some('"') => break,
                        Some(ch) => tag.push(ch),
                        None => return Err(PgnError::Syntax("unterminated tag value".into())),
                    }
                }
                tag.push('"');
            }
            Some(ch) => tag.push(ch),
            None => return Err(PgnError::Syntax("unterminated tag".into())),
        }
    }
    let tag = tag.trim();
    let Some((name, value)) = tag.split_once(char::is_whitespace) else {
        return Err(PgnError::Syntax(format!("tag without value: [{tag}]")));
    };
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| PgnError::Syntax(format!("tag value not quoted: [{tag}]")))?;
    Ok((name.to_string(), value.to_string()))
}

/// Add one main-line movetext token to `game`: a move (its move number stripped), a skipped
/// NAG, or the termination marker, which ends the game (then `true`).
fn add_movetext_token(game: &mut PgnGame, tok: &str) -> bool {
    if is_result(tok) {
        game.result = Some(tok.to_string());
        return true;
    }
    if tok.starts_with('$') {
        return false;
    }
    // Strip a move number prefix: "1.", "12...", or "1.e4".
    let stripped = tok.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if stripped.len() < tok.len() && stripped.starts_with('.') {
        stripped.trim_start_matches('.')
    } else {
        tok
    };
    if !rest.is_empty() {
        game.moves.push(rest.to_string());
        game.comments.push(None);
    }
    false
}
