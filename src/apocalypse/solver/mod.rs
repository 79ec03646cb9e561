//! Solvers of the N-turn truncated game (clarification 5): plain backward induction (the
//! reference) and a pruned solver (serialized alpha-beta bounds + double-oracle alpha-beta).

pub mod plain;
pub mod pruned;
pub mod serialized;
pub mod table;

use std::sync::atomic::{AtomicU64, Ordering};

use super::rules::board::{Position, Side};
use super::rules::moves::{declarable_moves, Move};
use super::rules::outcome::{outcome, QUIET_LIMIT};
use super::rules::resolve::resolve;
use super::rules::zobrist::game_key;
use crate::matrix_game::{self, Matrix};

/// Values closer than this are treated as equal by the pruning logic.
pub const EPS: f64 = 1e-10;

/// Which solver to run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Backward induction over every joint move (with a transposition table, no pruning).
    Plain,
    /// Serialized alpha-beta bounds and double-oracle alpha-beta.
    Pruned,
}

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

/// Value of a finished position or of the cut-off; `None` if the game goes on.
pub fn leaf_value(pos: &Position, remaining: u32) -> Option<f64> {
    let state = outcome(pos);
    if state.is_over() {
        Some(state.value())
    } else if remaining == 0 {
        Some(0.0)
    } else {
        None
    }
}

/// Transposition key of the game from `pos` with `remaining` turns.
pub fn key(pos: &Position, remaining: u32) -> u64 {
    game_key(pos.key, pos.quiet, remaining, QUIET_LIMIT)
}

/// Declarable moves in search order: captures first, then footman moves, forfeit last.
/// The order is stable and side-relative, so mirrored positions search mirrored trees.
pub fn ordered_moves(pos: &Position, side: Side) -> Vec<Move> {
    let mut moves = declarable_moves(pos, side);
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

/// Exact values of subgames (solvers keep their tables warm, so these are cheap after a solve).
pub trait SubgameValues: Sync {
    /// Exact value of the `remaining`-turn game from `pos`.
    fn subgame_value(&self, pos: &Position, remaining: u32) -> f64;
}

impl SubgameValues for plain::PlainSolver {
    fn subgame_value(&self, pos: &Position, remaining: u32) -> f64 {
        self.value(pos, remaining)
    }
}

impl SubgameValues for pruned::PrunedSolver {
    fn subgame_value(&self, pos: &Position, remaining: u32) -> f64 {
        self.exact_value(pos, remaining)
    }
}

/// Solve an N-turn game with the chosen method.
pub fn solve(pos: &Position, turns: u32, method: Method) -> RootSolution {
    solve_keeping_tables(pos, turns, method).0
}

/// Solve, and keep the solver (its tables give exact subgame values for checks).
pub fn solve_keeping_tables(
    pos: &Position,
    turns: u32,
    method: Method,
) -> (RootSolution, Box<dyn SubgameValues>) {
    match method {
        Method::Plain => {
            let solver = plain::PlainSolver::default();
            (solver.solve_root(pos, turns), Box::new(solver))
        }
        Method::Pruned => {
            let solver = pruned::PrunedSolver::default();
            (solver.solve_root(pos, turns), Box::new(solver))
        }
    }
}

/// Best-response gain of each player against the other's root strategy, summed: 0 for an
/// optimal pair. Entries are exact values of the (N-1)-turn subgames, computed in parallel
/// where a best response needs them (all rows against Black's support and vice versa).
pub fn exploitability(
    pos: &Position,
    turns: u32,
    root: &RootSolution,
    values: &dyn SubgameValues,
) -> f64 {
    use rayon::prelude::*;
    if root.white_moves.is_empty() || turns == 0 {
        return 0.0;
    }
    let cols = root.black_moves.len();
    let entries: Vec<f64> = (0..root.white_moves.len() * cols)
        .into_par_iter()
        .map(|k| {
            let (i, j) = (k / cols, k % cols);
            if root.white[i] > 0.0 || root.black[j] > 0.0 {
                let next = resolve(pos, [root.white_moves[i], root.black_moves[j]]).0;
                values.subgame_value(&next, turns - 1)
            } else {
                0.0
            }
        })
        .collect();
    let m = Matrix::new(root.white_moves.len(), cols, entries);
    let white_best = (0..m.rows)
        .map(|i| (0..cols).map(|j| root.black[j] * m.at(i, j)).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    let black_best = (0..cols)
        .map(|j| (0..m.rows).map(|i| root.white[i] * m.at(i, j)).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    ((white_best - root.value) + (root.value - black_best)).max(0.0)
}

/// Solve a matrix and wrap it as a root solution.
pub fn root_from_matrix(
    white_moves: Vec<Move>,
    black_moves: Vec<Move>,
    m: &Matrix,
    nodes: u64,
) -> RootSolution {
    let sol = matrix_game::solve(m);
    RootSolution {
        value: sol.value,
        white_moves,
        black_moves,
        white: sol.row_strategy,
        black: sol.col_strategy,
        nodes,
    }
}
