//! Solvers of the N-turn truncated game (a position finished within the N turns scores its
//! outcome, one still unfinished after them scores 0): plain backward induction (the
//! reference) and a pruned solver (serialized alpha-beta bounds + double-oracle alpha-beta).
//!
//! Files, bottom up: `table` (the shared transposition table), `tree` (leaves, keys, move
//! order, the root's solution), `serialized`, `plain`, `pruned`; this file picks a solver and
//! measures how exploitable its root strategies are.

pub mod plain;
pub mod pruned;
pub mod serialized;
pub mod table;
pub mod tree;

pub use tree::{RootSolution, EPS};

use crate::apocalypse::rules::board::Position;
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::matrix_game::{self, Matrix};

/// Which solver to run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Backward induction over every joint move (with a transposition table, no pruning).
    Plain,
    /// Serialized alpha-beta bounds and double-oracle alpha-beta.
    Pruned,
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

impl<H: tree::Horizon> SubgameValues for pruned::PrunedSolver<H> {
    fn subgame_value(&self, pos: &Position, remaining: u32) -> f64 {
        self.exact_value(pos, remaining)
    }
}

/// Solve an N-turn game under `rules` with the chosen method.
pub fn solve(pos: &Position, turns: u32, method: Method, rules: RuleSet) -> RootSolution {
    solve_keeping_tables(pos, turns, method, rules).0
}

/// Solve, and keep the solver (its tables give exact subgame values for checks).
pub fn solve_keeping_tables(
    pos: &Position,
    turns: u32,
    method: Method,
    rules: RuleSet,
) -> (RootSolution, Box<dyn SubgameValues>) {
    match method {
        Method::Plain => {
            let solver = plain::PlainSolver::new(rules);
            (solver.solve_root(pos, turns), Box::new(solver))
        }
        Method::Pruned => {
            let solver = pruned::PrunedSolver::new(rules);
            (solver.solve_root(pos, turns), Box::new(solver))
        }
    }
}

/// Best-response gains of both players against the root strategies (see
/// `matrix_game::exploitability`): 0 for an optimal pair. Entries are exact values of the
/// (N-1)-turn subgames, computed in parallel where a best response needs them (all rows
/// against Black's support and vice versa); the others are never read.
pub fn exploitability(
    pos: &Position,
    turns: u32,
    root: &RootSolution,
    values: &dyn SubgameValues,
) -> matrix_game::Exploitability {
    use rayon::prelude::*;
    if root.white_moves.is_empty() || turns == 0 {
        return matrix_game::Exploitability::NONE;
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
    matrix_game::exploitability(&m, root.value, &root.white, &root.black)
}
