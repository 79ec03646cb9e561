//! The JSON API's request bodies, parsed and checked: a position, declarations, search limits,
//! the rule set (`"rules": "classic"|"vchess"`, default the server's `--rules`).
//! Pure functions from bytes to typed requests; every failure is a `Problem` with one line
//! that says what was wrong, so the server answers it with a 4xx.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::problem::Problem;
use crate::apocalypse::rules::board::{square_name, Piece, Position, Side, Square};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::notation::{
    format_move, format_position, parse_move, parse_position,
};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::MAX_DEPTH;

/// Longest search a request may ask for, in milliseconds; a depth-limited search stops here too.
pub const MAX_MOVETIME_MS: u64 = 10_000;

/// Most turns an exact solve may look ahead (a few seconds at most on one core).
pub const MAX_TURNS: u32 = 6;

/// `{"max_pieces"}`: for `POST /api/tablebases/build` (4 or 5).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildRequest {
    /// Build every class with at most this many pieces.
    pub max_pieces: u32,
}

/// The piece counts a build request may ask for: 4 takes seconds, 5 minutes.
pub const BUILDABLE_PIECES: [u32; 2] = [4, 5];

/// The piece count of a build request, checked.
pub fn build_pieces(request: &BuildRequest) -> Result<u32, Problem> {
    if BUILDABLE_PIECES.contains(&request.max_pieces) {
        Ok(request.max_pieces)
    } else {
        Err(Problem::BadRequest(format!(
            "max_pieces must be 4 or 5, not {}",
            request.max_pieces
        )))
    }
}

/// `{"position"[, "rules"]}`: for `/api/moves` and `/api/probe`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// Position string or `start`.
    pub position: String,
    /// `classic` or `vchess` (default: the server's rule set).
    pub rules: Option<String>,
}

/// `{"position"}` or `{"board", "penalties", "quiet", "turn"}`: for `/api/board`. The board is
/// 25 squares from a1 along each rank to e5, each `P`, `N` (White), `p`, `n` (Black) or null.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// Position string or `start`.
    pub position: Option<String>,
    /// The pieces, square by square.
    pub board: Option<Vec<Option<String>>>,
    /// White's and Black's penalty points (default none).
    #[serde(default)]
    pub penalties: [u8; 2],
    /// Consecutive quiet turns (default 0).
    #[serde(default)]
    pub quiet: u8,
    /// Turn number (default 1).
    pub turn: Option<u32>,
}

/// `{"position", "white", "black"[, "movetime"][, "rules"][, "game"][, "exploit"]}`: for
/// `/api/play`. A declaration is a move (`c1c2`, `d4d5@b2`, `0000`) or `engine`: the engine
/// draws it from its mixed strategy. When the engine plays a person, it models the person over
/// the turns of one game (`game`, from the last reply; absent to start one) and safely
/// exploits the model unless `exploit` is false.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// Position string or `start`.
    pub position: String,
    /// White's declaration.
    pub white: String,
    /// Black's declaration.
    pub black: String,
    /// The engine's thinking time in milliseconds (default: the server's `--movetime`).
    pub movetime: Option<u64>,
    /// `classic` or `vchess` (default: the server's rule set).
    pub rules: Option<String>,
    /// The game whose model of the person the engine keeps learning (from the last reply's
    /// `model.game`); absent or unknown starts a new model.
    pub game: Option<u64>,
    /// False: the engine plays its optimal strategy only (default true).
    pub exploit: Option<bool>,
}

/// `{"position", "movetime"|"depth"|"turns"[, "rules"]}`: for `/api/solve`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// Position string or `start`.
    pub position: String,
    /// Anytime search for this many milliseconds.
    pub movetime: Option<u64>,
    /// Anytime search to this depth.
    pub depth: Option<u32>,
    /// Exact solve of the game cut off after this many turns.
    pub turns: Option<u32>,
    /// `classic` or `vchess` (default: the server's rule set).
    pub rules: Option<String>,
}

/// How `/api/solve` finds the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Analysis {
    /// Exactly, for the game cut off after this many turns.
    Exact {
        /// Turns.
        turns: u32,
    },
    /// The anytime search within these limits (always with a time limit).
    Search {
        /// Depth and time.
        depth: Option<u32>,
        /// Milliseconds.
        movetime_ms: u64,
    },
}

/// Who declares a side's move in `/api/play`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Declarer {
    /// A person declared this move (one of the side's declarable moves).
    Person(Move),
    /// The engine draws its move from its strategy.
    Engine,
}

/// Parse a JSON request body.
pub fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, Problem> {
    serde_json::from_slice(body)
        .map_err(|e| Problem::BadRequest(format!("invalid JSON request: {e}")))
}

/// Parse a position field.
pub fn position(text: &str) -> Result<Position, Problem> {
    parse_position(text).map_err(Problem::BadRequest)
}

/// The position a `/api/board` request gives, checked as a position string is.
pub fn board(request: &BoardRequest) -> Result<Position, Problem> {
    match (&request.position, &request.board) {
        (Some(text), None) => position(text),
        (None, Some(squares)) => {
            if squares.len() != 25 {
                return Err(Problem::BadRequest(format!(
                    "invalid board: {} squares, expected 25 (a1 to e5)",
                    squares.len()
                )));
            }
            let mut pos = Position::empty();
            for (index, piece) in squares.iter().enumerate() {
                let (side, kind) = match piece.as_deref() {
                    None => continue,
                    Some("P") => (Side::White, Piece::Footman),
                    Some("N") => (Side::White, Piece::Horseman),
                    Some("p") => (Side::Black, Piece::Footman),
                    Some("n") => (Side::Black, Piece::Horseman),
                    Some(other) => {
                        return Err(Problem::BadRequest(format!(
                            "invalid board: unknown piece '{other}' on {}",
                            square_name(index as Square)
                        )))
                    }
                };
                pos.put(side, kind, index as Square);
            }
            pos.penalties = request.penalties;
            pos.quiet = request.quiet;
            pos.turn = request.turn.unwrap_or(1);
            // The position string's checks (footmen off their last rank, penalties, turn).
            position(&format_position(&pos))
        }
        _ => Err(Problem::BadRequest(
            "a board request names either a position or a board".into(),
        )),
    }
}

/// The rule set a request names, or `default` when it names none.
pub fn rules(field: Option<&str>, default: RuleSet) -> Result<RuleSet, Problem> {
    field.map_or(Ok(default), |name| {
        RuleSet::parse(name).map_err(Problem::BadRequest)
    })
}

/// Parse a position that must not be finished under `rules`.
pub fn unfinished_position(text: &str, rules: RuleSet) -> Result<Position, Problem> {
    let pos = position(text)?;
    let state = outcome(&pos, rules);
    if state.is_over() {
        return Err(Problem::Unprocessable(format!(
            "the game is already over: {}",
            state.describe()
        )));
    }
    Ok(pos)
}

/// A side's declaration in `pos` under `rules`: `engine`, or a move that is declarable there
/// (`0000` is, and so are speculative steps under vchess; an illegal move is refused rather
/// than played as a void declaration).
pub fn declarer(
    pos: &Position,
    side: Side,
    text: &str,
    rules: RuleSet,
) -> Result<Declarer, Problem> {
    if text.trim().eq_ignore_ascii_case("engine") {
        return Ok(Declarer::Engine);
    }
    let m = parse_move(text.trim()).map_err(Problem::BadRequest)?;
    if !declarable_moves(pos, side, rules).contains(&m) {
        return Err(Problem::BadRequest(format!(
            "illegal move {} for {} in this position (0000 declares a void move)",
            format_move(m),
            side.name()
        )));
    }
    Ok(Declarer::Person(m))
}

/// A thinking time within 1..=MAX_MOVETIME_MS.
pub fn movetime(ms: u64) -> Result<u64, Problem> {
    if (1..=MAX_MOVETIME_MS).contains(&ms) {
        Ok(ms)
    } else {
        Err(Problem::BadRequest(format!(
            "movetime {ms} out of range: 1-{MAX_MOVETIME_MS} ms"
        )))
    }
}

/// The analysis a solve request asks for: `turns` alone, or `movetime` and/or `depth`.
pub fn analysis(request: &SolveRequest) -> Result<Analysis, Problem> {
    match (request.turns, request.movetime, request.depth) {
        (Some(turns), None, None) => {
            if (1..=MAX_TURNS).contains(&turns) {
                Ok(Analysis::Exact { turns })
            } else {
                Err(Problem::BadRequest(format!(
                    "turns {turns} out of range: 1-{MAX_TURNS}"
                )))
            }
        }
        (Some(_), _, _) => Err(Problem::BadRequest(
            "turns (exact solve) cannot be combined with movetime or depth (search)".to_string(),
        )),
        (None, None, None) => Err(Problem::BadRequest(
            "give movetime or depth (search) or turns (exact solve)".to_string(),
        )),
        (None, movetime_ms, depth) => {
            if let Some(d) = depth {
                if !(1..=MAX_DEPTH).contains(&d) {
                    return Err(Problem::BadRequest(format!(
                        "depth {d} out of range: 1-{MAX_DEPTH}"
                    )));
                }
            }
            Ok(Analysis::Search {
                depth,
                movetime_ms: movetime(movetime_ms.unwrap_or(MAX_MOVETIME_MS))?,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C: RuleSet = RuleSet::Classic;

    fn solve_request(body: &str) -> Result<Analysis, Problem> {
        analysis(&parse_json::<SolveRequest>(body.as_bytes())?)
    }

    #[test]
    fn solve_limits_are_checked() {
        assert_eq!(
            solve_request(r#"{"position": "start", "turns": 3}"#),
            Ok(Analysis::Exact { turns: 3 })
        );
        assert_eq!(
            solve_request(r#"{"position": "start", "depth": 4}"#),
            Ok(Analysis::Search {
                depth: Some(4),
                movetime_ms: MAX_MOVETIME_MS
            })
        );
        assert_eq!(
            solve_request(r#"{"position": "start", "movetime": 250}"#),
            Ok(Analysis::Search {
                depth: None,
                movetime_ms: 250
            })
        );
        for bad in [
            r#"{"position": "start"}"#,
            r#"{"position": "start", "turns": 0}"#,
            r#"{"position": "start", "turns": 7}"#,
            r#"{"position": "start", "turns": 2, "depth": 2}"#,
            r#"{"position": "start", "depth": 0}"#,
            r#"{"position": "start", "depth": 65}"#,
            r#"{"position": "start", "movetime": 0}"#,
            r#"{"position": "start", "movetime": 10001}"#,
            r#"{"position": "start", "movetime": -5}"#,
            r#"{"position": "start", "movetime": 1e3}"#,
            r#"{"position": "start", "moveTime": 100}"#,
            r#"{"position": 5, "turns": 1}"#,
            r#"{"position": "start", "turns": 1"#,
            "",
            "[]",
        ] {
            let problem = solve_request(bad).expect_err(bad);
            assert_eq!(problem.status(), 400, "{bad}");
            assert!(!problem.message().contains('\n'), "{bad}");
        }
    }

    #[test]
    fn declarations_are_moves_of_the_side_or_engine() {
        let start = Position::start();
        assert_eq!(
            declarer(&start, Side::White, "c1c2", C),
            Ok(Declarer::Person(parse_move("c1c2").unwrap()))
        );
        assert_eq!(
            declarer(&start, Side::Black, "0000", C),
            Ok(Declarer::Person(Move::FORFEIT))
        );
        assert_eq!(
            declarer(&start, Side::Black, " Engine ", C),
            Ok(Declarer::Engine)
        );
        // White's move for Black, a blocked footman, nonsense.
        for bad in ["c1c2", "a2a3x", "zz"] {
            let problem = declarer(&start, Side::Black, bad, C).expect_err(bad);
            assert_eq!(problem.status(), 400);
        }
        assert!(declarer(&start, Side::Black, "c1c2", C)
            .unwrap_err()
            .message()
            .contains("illegal move c1c2 for Black"));
    }

    #[test]
    fn finished_positions_are_refused_where_a_move_is_needed() {
        assert_eq!(
            unfinished_position("5/2p2/5/5/2N2", C)
                .unwrap_err()
                .status(),
            422
        );
        assert_eq!(
            unfinished_position("nonsense", C).unwrap_err().status(),
            400
        );
        assert!(unfinished_position("start", C).is_ok());
    }
}
