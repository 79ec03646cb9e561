//! The JSON API's answers that `solve --json` and `tb probe --json` do not already print: the
//! declarable moves, a resolved turn with everything that happened in it, the game's outcome
//! and the server's limits. Sides are written `white` and `black`, moves and squares in the
//! command line's notation.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::apocalypse::cli::print::clean;
use crate::apocalypse::rules::board::{square_name, Piece, Position, Side};
use crate::apocalypse::rules::moves::declarable_moves;
use crate::apocalypse::rules::notation::{format_move, format_position};
use crate::apocalypse::rules::outcome::{outcome, Outcome};
use crate::apocalypse::rules::report::describe_turn;
use crate::apocalypse::rules::resolve::Turn;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::opponent_model::ModelReport;

/// A side as written in the replies.
pub fn side_key(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Whether a game is over, who won and why.
#[derive(Serialize, Debug, PartialEq)]
pub struct OutcomeReply {
    /// True once the game has ended.
    pub over: bool,
    /// `white`, `black`, or null for a draw or an unfinished game.
    pub winner: Option<&'static str>,
    /// `1-0`, `0-1`, `1/2-1/2`, or null while the game goes on.
    pub result: Option<&'static str>,
    /// Why it ended (`no footmen left`, `two penalty points`, ...).
    pub reason: Option<&'static str>,
    /// One sentence: `White wins (no footmen left)`, `game goes on`.
    pub text: String,
}

impl OutcomeReply {
    /// The reply for `state`.
    pub fn new(state: Outcome) -> OutcomeReply {
        let (winner, result, reason) = match state {
            Outcome::Ongoing => (None, None, None),
            Outcome::Win(side, reason) => (
                Some(side_key(side)),
                Some(if side == Side::White { "1-0" } else { "0-1" }),
                Some(reason.describe()),
            ),
            Outcome::Draw(reason) => (None, Some("1/2-1/2"), Some(reason.describe())),
        };
        OutcomeReply {
            over: state.is_over(),
            winner,
            result,
            reason,
            text: state.describe(),
        }
    }
}

/// `/api/moves`: the position as the server reads it, each side's declarable moves (none
/// once the game is over) and the outcome, under a rule set.
#[derive(Serialize)]
pub struct MovesReply {
    /// The position string, all four fields.
    pub position: String,
    /// The rule set (`classic` or `vchess`).
    pub rules: &'static str,
    /// White's declarable moves, `0000` last.
    pub white: Vec<String>,
    /// Black's declarable moves, `0000` last.
    pub black: Vec<String>,
    /// Whether the game is over.
    pub outcome: OutcomeReply,
}

impl MovesReply {
    /// The reply for `pos` under `rules`.
    pub fn new(pos: &Position, rules: RuleSet) -> MovesReply {
        let state = outcome(pos, rules);
        let moves = |side| -> Vec<String> {
            if state.is_over() {
                Vec::new()
            } else {
                declarable_moves(pos, side, rules)
                    .into_iter()
                    .map(format_move)
                    .collect()
            }
        };
        MovesReply {
            position: format_position(pos),
            rules: rules.name(),
            white: moves(Side::White),
            black: moves(Side::Black),
            outcome: OutcomeReply::new(state),
        }
    }
}

/// A position as the page draws it: `/api/board`'s reply.
#[derive(Serialize, Debug, PartialEq)]
pub struct BoardReply {
    /// The position string, all four fields.
    pub position: String,
    /// The 25 squares from a1 along each rank to e5: `P`, `N`, `p`, `n` or null.
    pub board: Vec<Option<char>>,
    /// White's and Black's penalty points.
    pub penalties: [u8; 2],
    /// Consecutive quiet turns.
    pub quiet: u8,
    /// Turn number.
    pub turn: u32,
}

impl BoardReply {
    /// The reply for `pos`.
    pub fn new(pos: &Position) -> BoardReply {
        let board = (0..25)
            .map(|sq| {
                pos.piece_at(sq).map(|(side, piece)| {
                    let letter = if piece == Piece::Footman { 'p' } else { 'n' };
                    match side {
                        Side::White => letter.to_ascii_uppercase(),
                        Side::Black => letter,
                    }
                })
            })
            .collect();
        BoardReply {
            position: format_position(pos),
            board,
            penalties: pos.penalties,
            quiet: pos.quiet,
            turn: pos.turn,
        }
    }
}

/// A piece taken in a turn.
#[derive(Serialize, Debug, PartialEq)]
pub struct Capture {
    /// Where it stood.
    pub square: String,
    /// `footman` or `horseman`.
    pub piece: &'static str,
}

/// What one side did in a turn.
#[derive(Serialize, Debug, PartialEq)]
pub struct SideTurn {
    /// The declaration.
    pub declared: String,
    /// The move played: the declaration, or `0000` when it was void.
    pub played: String,
    /// The declaration was void and cost a penalty point.
    pub void: bool,
    /// The enemy piece this side captured.
    pub captured: Option<Capture>,
    /// This side's capture found its target gone and became a plain move.
    pub target_moved: bool,
    /// Square where this side's footman became a horseman.
    pub promoted: Option<String>,
    /// Square this side's footman was redeployed to.
    pub redeployed: Option<String>,
}

/// Two pieces that arrived on one square.
#[derive(Serialize, Debug, PartialEq)]
pub struct Collision {
    /// The square.
    pub square: String,
    /// The sides whose piece was removed there.
    pub removed: Vec<&'static str>,
}

/// How the engine chose a declaration.
#[derive(Serialize)]
pub struct EngineChoice {
    /// The side it played.
    pub side: &'static str,
    /// The move it drew from its strategy.
    #[serde(rename = "move")]
    pub declared: String,
    /// The probability its strategy gave that move.
    pub probability: f64,
    /// The search that gave the strategy: the object `solve --movetime --json` prints.
    pub search: Box<RawValue>,
}

/// `/api/play`: one resolved turn.
#[derive(Serialize)]
pub struct TurnReply {
    /// The position before the turn.
    pub position: String,
    /// The position after it.
    pub next: String,
    /// What White did.
    pub white: SideTurn,
    /// What Black did.
    pub black: SideTurn,
    /// A same-square collision, if any.
    pub collision: Option<Collision>,
    /// What happened, one sentence a line (as `apocalypse play` prints it).
    pub report: Vec<String>,
    /// The outcome after the turn.
    pub outcome: OutcomeReply,
    /// The engine's choices, for each side it played.
    pub engine: Vec<EngineChoice>,
    /// What the engine thinks of the person it plays (null unless it models one).
    pub model: Option<ModelReply>,
}

/// The engine's model of the person it plays, after a turn.
#[derive(Serialize)]
pub struct ModelReply {
    /// The game to name in the next request, so that the model keeps learning.
    pub game: u64,
    /// How often lately the model's likeliest move was the one the person declared (0 to 1);
    /// the engine stakes that share of what the budget allows.
    pub trust: f64,
    /// The value the person has given away so far, which the engine may stake this turn.
    pub budget: f64,
    /// The share of the engine's strategy moved towards the best reply to the prediction this
    /// turn (0: it played its optimal strategy).
    pub strayed: f64,
    /// The prediction of the person's move this turn, likeliest first.
    pub prediction: Vec<PredictedMove>,
    /// Whether the person's moves matched the engine's own short search so often lately that
    /// the search alone made the prediction.
    pub follows_search: bool,
    /// The habits learned: each feature's weight (positive: the person does it more often
    /// than optimal play would).
    pub habits: Vec<Habit>,
}

/// One predicted move.
#[derive(Serialize)]
pub struct PredictedMove {
    /// The move.
    #[serde(rename = "move")]
    pub declared: String,
    /// Its predicted probability.
    pub probability: f64,
}

/// One learned habit.
#[derive(Serialize)]
pub struct Habit {
    /// What the person does.
    pub habit: &'static str,
    /// How strongly (log-odds against optimal play).
    pub weight: f64,
}

impl ModelReply {
    /// The reply for `report`, in `game`.
    pub fn new(game: u64, report: &ModelReport) -> ModelReply {
        ModelReply {
            game,
            trust: clean(report.trust),
            budget: clean(report.budget),
            strayed: clean(report.strayed),
            follows_search: report.follows_search,
            prediction: report
                .prediction
                .iter()
                .map(|&(m, p)| PredictedMove {
                    declared: format_move(m),
                    probability: clean(p),
                })
                .collect(),
            habits: report
                .habits
                .iter()
                .map(|&(habit, weight)| Habit {
                    habit,
                    weight: clean(weight),
                })
                .collect(),
        }
    }
}

impl TurnReply {
    /// The reply for `turn`, played from `pos` under `rules`.
    pub fn new(
        rules: RuleSet,
        pos: &Position,
        turn: &Turn,
        engine: Vec<EngineChoice>,
    ) -> TurnReply {
        let Turn {
            declared,
            actions,
            next,
            events,
        } = turn;
        let side_turn = |side: Side| {
            let s = side.index();
            SideTurn {
                declared: format_move(declared[s]),
                played: format_move(actions[s]),
                void: events.void[s],
                captured: events.captured[s].map(|(sq, piece)| Capture {
                    square: square_name(sq),
                    piece: piece.name(),
                }),
                target_moved: events.target_moved[s],
                promoted: events.promoted[s].map(square_name),
                redeployed: events.redeployed[s].map(square_name),
            }
        };
        TurnReply {
            position: format_position(pos),
            next: format_position(next),
            white: side_turn(Side::White),
            black: side_turn(Side::Black),
            collision: events.collision.map(|(sq, removed)| Collision {
                square: square_name(sq),
                removed: Side::BOTH
                    .into_iter()
                    .filter(|s| removed[s.index()])
                    .map(side_key)
                    .collect(),
            }),
            report: describe_turn(turn),
            outcome: OutcomeReply::new(outcome(next, rules)),
            engine,
            model: None,
        }
    }
}

/// `GET /api/info`: the server's defaults and limits, for the page.
#[derive(Serialize)]
pub struct InfoReply {
    /// The engine's default thinking time (the server's `--movetime`).
    pub movetime: u64,
    /// The longest thinking time a request may ask for.
    pub max_movetime: u64,
    /// The deepest search a request may ask for.
    pub max_depth: u32,
    /// The most turns an exact solve may look ahead.
    pub max_turns: u32,
    /// The largest number of pieces the tablebases cover (0: none), under the default rules.
    pub tablebase_pieces: u32,
    /// The rule set requests are played under unless they name one (the server's `--rules`).
    pub rules: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::notation::{parse_joint_move, parse_position};
    use crate::apocalypse::rules::resolve::resolve_declared;

    fn turn(position: &str, joint: &str) -> TurnReply {
        let pos = parse_position(position).unwrap();
        let declared = parse_joint_move(joint).unwrap();
        let turn = resolve_declared(&pos, declared, RuleSet::Classic);
        TurnReply::new(RuleSet::Classic, &pos, &turn, Vec::new())
    }

    #[test]
    fn a_capture_that_ends_the_game() {
        // White's horseman takes Black's only footman, which cannot move.
        let t = turn("p4/P1N2/5/5/4n", "c4a5 e1c2");
        assert_eq!(
            t.white.captured,
            Some(Capture {
                square: "a5".to_string(),
                piece: "footman"
            })
        );
        assert_eq!(t.black.captured, None);
        assert_eq!(t.next, "N4/P4/5/2n2/5 00 0 2");
        assert_eq!(t.outcome.winner, Some("white"));
        assert_eq!(t.outcome.result, Some("1-0"));
        assert_eq!(t.outcome.reason, Some("no footmen left"));
        assert!(t.report.iter().any(|l| l.contains("captures")));
    }

    #[test]
    fn a_void_declaration_and_a_collision() {
        // Both horsemen jump to c3: same type, both removed. Then a void move costs a point.
        let t = turn("1n1p1/5/5/P4/1N3 00 0 1", "b1c3 b5c3");
        assert_eq!(
            t.collision,
            Some(Collision {
                square: "c3".to_string(),
                removed: vec!["white", "black"]
            })
        );
        let t = turn("start", "a1a3 c5c4");
        assert!(t.white.void && !t.black.void);
        assert_eq!(t.white.declared, "a1a3");
        assert_eq!(t.white.played, "0000");
        assert!(t.next.ends_with(" 10 0 2"));
        assert!(!t.outcome.over);
        assert_eq!(t.outcome.result, None);
    }

    #[test]
    fn moves_of_a_finished_game_are_empty() {
        let finished = MovesReply::new(&parse_position("5/2p2/5/5/2N2").unwrap(), RuleSet::Classic);
        assert!(finished.white.is_empty() && finished.black.is_empty());
        assert_eq!(finished.outcome.winner, Some("black"));
        let start = MovesReply::new(&Position::start(), RuleSet::Classic);
        assert_eq!(start.position, "npppn/p3p/5/P3P/NPPPN 00 0 1");
        assert_eq!(start.white.last().map(String::as_str), Some("0000"));
        assert!(start.black.contains(&"c5c4".to_string()));
    }
}
