//! The JSON API's request bodies, parsed and checked: a position, declarations, search limits.
//! Pure functions from bytes to typed requests; every failure is a `Problem` with one line
//! that says what was wrong, so the server answers it with a 4xx.

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::problem::Problem;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::notation::{format_move, parse_move, parse_position};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::search::anytime::MAX_DEPTH;

/// Longest search a request may ask for, in milliseconds; a depth-limited search stops here too.
pub const MAX_MOVETIME_MS: u64 = 10_000;

/// Most turns an exact solve may look ahead (a few seconds at most on one core).
pub const MAX_TURNS: u32 = 6;

/// `{"position": ...}`: for `/api/moves` and `/api/probe`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// Position string or `start`.
    pub position: String,
}

/// `{"position", "white", "black"[, "movetime"]}`: for `/api/play`. A declaration is a move
/// (`c1c2`, `d4d5@b2`, `0000`) or `engine`: the engine draws it from its mixed strategy.
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
}

/// `{"position", "movetime"|"depth"|"turns"}`: for `/api/solve`.
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

/// Parse a position that must not be finished.
pub fn unfinished_position(text: &str) -> Result<Position, Problem> {
    let pos = position(text)?;
    let state = outcome(&pos);
    if state.is_over() {
        return Err(Problem::Unprocessable(format!(
            "the game is already over: {}",
            state.describe()
        )));
    }
    Ok(pos)
}

/// A side's declaration in `pos`: `engine`, or a move that is declarable there (`0000` is;
/// an illegal move is refused rather than played as a void declaration).
pub fn declarer(pos: &Position, side: Side, text: &str) -> Result<Declarer, Problem> {
    if text.trim().eq_ignore_ascii_case("engine") {
        return Ok(Declarer::Engine);
    }
    let m = parse_move(text.trim()).map_err(Problem::BadRequest)?;
    if !declarable_moves(pos, side).contains(&m) {
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
            declarer(&start, Side::White, "c1c2"),
            Ok(Declarer::Person(parse_move("c1c2").unwrap()))
        );
        assert_eq!(
            declarer(&start, Side::Black, "0000"),
            Ok(Declarer::Person(Move::FORFEIT))
        );
        assert_eq!(
            declarer(&start, Side::Black, " Engine "),
            Ok(Declarer::Engine)
        );
        // White's move for Black, a blocked footman, nonsense.
        for bad in ["c1c2", "a2a3x", "zz"] {
            let problem = declarer(&start, Side::Black, bad).expect_err(bad);
            assert_eq!(problem.status(), 400);
        }
        assert!(declarer(&start, Side::Black, "c1c2")
            .unwrap_err()
            .message()
            .contains("illegal move c1c2 for Black"));
    }

    #[test]
    fn finished_positions_are_refused_where_a_move_is_needed() {
        assert_eq!(
            unfinished_position("5/2p2/5/5/2N2").unwrap_err().status(),
            422
        );
        assert_eq!(unfinished_position("nonsense").unwrap_err().status(), 400);
        assert!(unfinished_position("start").is_ok());
    }
}
