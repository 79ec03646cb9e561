//! Plain backward induction: every joint move of every position is solved exactly (the
//! reference for tests and benchmarks). A transposition table, but no pruning.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::table::Table;
use super::tree::{child, key, leaf_value, ordered_moves, RootSolution};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::matrix_game::{self, Matrix};

/// Backward induction with a transposition table on (position, remaining turns).
#[derive(Default)]
pub struct PlainSolver {
    rules: RuleSet,
    table: Table<f64>,
    nodes: AtomicU64,
}

impl PlainSolver {
    /// A solver of the game under `rules`.
    pub fn new(rules: RuleSet) -> PlainSolver {
        PlainSolver {
            rules,
            ..PlainSolver::default()
        }
    }

    /// Positions generated so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Exact value of the `remaining`-turn game from `pos`.
    pub fn value(&self, pos: &Position, remaining: u32) -> f64 {
        if let Some(v) = leaf_value(pos, remaining, self.rules) {
            return v;
        }
        let k = key(pos, remaining);
        if let Some(v) = self.table.get(k) {
            return v;
        }
        let m = self.matrix(pos, remaining, false);
        let v = matrix_game::solve(&m).value;
        self.table.merge(k, v, |_, new| new);
        v
    }

    fn matrix(&self, pos: &Position, remaining: u32, parallel: bool) -> Matrix {
        let white = ordered_moves(pos, Side::White, self.rules);
        let black = ordered_moves(pos, Side::Black, self.rules);
        let entry = |k: usize| {
            let (i, j) = (k / black.len(), k % black.len());
            let next = child(pos, white[i], black[j], &self.nodes);
            self.value(&next, remaining - 1)
        };
        let n = white.len() * black.len();
        let data: Vec<f64> = if parallel {
            (0..n).into_par_iter().map(entry).collect()
        } else {
            (0..n).map(entry).collect()
        };
        Matrix::new(white.len(), black.len(), data)
    }

    /// The root's moves and the exact values of all its joint moves (rows: White's moves).
    pub fn root_matrix(&self, pos: &Position, turns: u32) -> (Vec<Move>, Vec<Move>, Matrix) {
        let m = self.matrix(pos, turns, true);
        (
            ordered_moves(pos, Side::White, self.rules),
            ordered_moves(pos, Side::Black, self.rules),
            m,
        )
    }

    /// Value and strategies at the root; the root's subgames are spread over rayon workers.
    pub fn solve_root(&self, pos: &Position, turns: u32) -> RootSolution {
        if let Some(v) = leaf_value(pos, turns, self.rules) {
            return RootSolution::leaf(v);
        }
        let (white_moves, black_moves, m) = self.root_matrix(pos, turns);
        RootSolution::from_matrix(white_moves, black_moves, &m, self.nodes())
    }
}
