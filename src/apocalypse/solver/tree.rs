//! What every N-turn solver shares: the leaves of the truncated game tree, its transposition
//! keys, the move order, the counted step to a child, and the solution at the root.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::outcome::{outcome, QUIET_LIMIT};
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::rules::zobrist::game_key;
use crate::matrix_game::{self, Matrix, Solution};

/// Values closer than this are treated as equal by the pruning logic.
pub const EPS: f64 = 1e-10;

/// Value and optimal strategies at the root of an N-turn game.
#[derive(Clone, Debug)]
pub struct RootSolution {
    /// Value for White.
    pub value: f64,
    /// White's declarable moves, in generation order.
    pub white_moves: Vec<Move>,
    /// Black's declarable moves, in generation order.
    pub black_moves: Vec<Move>,
    /// White's optimal mixed strategy (one probability per move in `white_moves`).
    pub white: Vec<f64>,
    /// Black's optimal mixed strategy.
    pub black: Vec<f64>,
    /// Positions generated (one per resolved joint move).
    pub nodes: u64,
}

impl RootSolution {
    /// The root of a finished or cut-off game: its value and no moves.
    pub fn leaf(value: f64) -> RootSolution {
        RootSolution {
            value,
            white_moves: Vec::new(),
            black_moves: Vec::new(),
            white: Vec::new(),
            black: Vec::new(),
            nodes: 0,
        }
    }

    /// `side`'s declarable moves and its mixed strategy over them.
    pub fn strategy(&self, side: Side) -> (&[Move], &[f64]) {
        match side {
            Side::White => (&self.white_moves, &self.white),
            Side::Black => (&self.black_moves, &self.black),
        }
    }

    /// Solve the root's matrix game (rows: `white_moves`, columns: `black_moves`).
    pub fn from_matrix(
        white_moves: Vec<Move>,
        black_moves: Vec<Move>,
        m: &Matrix,
        nodes: u64,
    ) -> RootSolution {
        RootSolution::from_solution(white_moves, black_moves, matrix_game::solve(m), nodes)
    }

    /// The root whose matrix game (rows: `white_moves`, columns: `black_moves`) has the
    /// solution `sol`.
    pub fn from_solution(
        white_moves: Vec<Move>,
        black_moves: Vec<Move>,
        sol: Solution,
        nodes: u64,
    ) -> RootSolution {
        RootSolution {
            value: sol.value,
            white_moves,
            black_moves,
            white: sol.row_strategy,
            black: sol.col_strategy,
            nodes,
        }
    }
}

/// Where a solver's tree stops and what the positions there are worth. A finished game always
/// scores its outcome; an unfinished one is cut by the horizon: the N-turn truncated game
/// (`Truncated`) scores 0 when its turns run out, the anytime search scores an evaluation or a
/// tablebase value.
pub trait Horizon: Sync {
    /// The rules of the game searched.
    fn rules(&self) -> RuleSet;

    /// Value of an unfinished `pos` with `remaining` turns to go if the tree stops there.
    fn cut(&self, pos: &Position, remaining: u32) -> Option<f64>;

    /// Whether the search must give up now: its results are then worthless and not stored.
    fn stopped(&self) -> bool {
        false
    }
}

/// The N-turn truncated game: an unfinished position scores 0 when no turns remain (a finished
/// one scores its outcome, even at the last turn).
#[derive(Clone, Copy, Debug, Default)]
pub struct Truncated(pub RuleSet);

impl Horizon for Truncated {
    fn rules(&self) -> RuleSet {
        self.0
    }

    fn cut(&self, _pos: &Position, remaining: u32) -> Option<f64> {
        (remaining == 0).then_some(0.0)
    }
}

/// Value of a finished position or of a position the horizon cuts; `None` if the tree goes on.
pub fn leaf<H: Horizon>(horizon: &H, pos: &Position, remaining: u32) -> Option<f64> {
    let state = outcome(pos, horizon.rules());
    if state.is_over() {
        Some(state.value())
    } else {
        horizon.cut(pos, remaining)
    }
}

/// Value of a finished position or of the N-turn cut-off; `None` if the game goes on.
pub fn leaf_value(pos: &Position, remaining: u32, rules: RuleSet) -> Option<f64> {
    leaf(&Truncated(rules), pos, remaining)
}

/// Transposition key of the game from `pos` with `remaining` turns.
pub fn key(pos: &Position, remaining: u32) -> u64 {
    game_key(pos.key, pos.quiet, remaining, QUIET_LIMIT)
}

/// Declarable moves in search order: captures first, then footman moves, forfeit last.
/// The order is stable and side-relative, so mirrored positions search mirrored trees.
pub fn ordered_moves(pos: &Position, side: Side, rules: RuleSet) -> Vec<Move> {
    let mut moves = declarable_moves(pos, side, rules);
    let enemy = side.opponent().index();
    let s = side.index();
    let score = |m: &Move| -> u8 {
        if m.is_forfeit() {
            return 0;
        }
        let to = 1u32 << m.to;
        if pos.footmen[enemy] & to != 0 {
            4
        } else if pos.horsemen[enemy] & to != 0 {
            3
        } else if pos.footmen[s] & (1 << m.from) != 0 {
            2
        } else {
            1
        }
    };
    moves.sort_by_key(|m| std::cmp::Reverse(score(m)));
    moves
}

/// Resolve a joint move, counting the generated position.
pub fn child(pos: &Position, white: Move, black: Move, nodes: &AtomicU64) -> Position {
    nodes.fetch_add(1, Ordering::Relaxed);
    resolve(pos, [white, black]).0
}
