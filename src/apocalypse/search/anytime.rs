//! Anytime search of any position: iterative deepening over the simultaneous-move tree,
//! backward induction over the matrix games with a transposition table, the heuristic
//! evaluation at the horizon and exact tablebase values wherever they are available.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::eval::evaluate;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::outcome::{outcome, QUIET_LIMIT};
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::rules::zobrist::game_key;
use crate::apocalypse::tablebase::Tablebases;
use crate::matrix_game::{self, Matrix};

/// How long or how deep to search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop deepening after this depth (turns).
    pub depth: Option<u32>,
    /// Stop after this much time (the iteration under way is dropped).
    pub movetime: Option<Duration>,
}

impl Limits {
    /// A depth limit, a time limit in milliseconds, both (whichever comes first) or neither.
    pub fn new(depth: Option<u32>, movetime_ms: Option<u64>) -> Limits {
        Limits {
            depth,
            movetime: movetime_ms.map(Duration::from_millis),
        }
    }

    /// The depths iterative deepening may try.
    pub fn depths(&self) -> std::ops::RangeInclusive<u32> {
        1..=self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }

    /// When the iteration at `depth` must give up, for a search that began at `started`. The
    /// first iteration always completes, so there is a move to play.
    pub fn deadline(&self, depth: u32, started: Instant) -> Option<Instant> {
        if depth == 1 {
            None
        } else {
            self.movetime.map(|t| started + t)
        }
    }
}

/// The outcome of one completed iteration.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Depth searched (turns).
    pub depth: u32,
    /// Value for White.
    pub value: f64,
    /// White's declarable moves (rows).
    pub white_moves: Vec<Move>,
    /// Black's declarable moves (columns).
    pub black_moves: Vec<Move>,
    /// White's mixed strategy.
    pub white: Vec<f64>,
    /// Black's mixed strategy.
    pub black: Vec<f64>,
    /// The root's matrix game (children's values).
    pub matrix: Matrix,
    /// Positions visited so far in the whole search.
    pub nodes: u64,
    /// True when no horizon evaluation was used: the value is exact.
    pub exact: bool,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// A depth-limited searcher with its transposition table, playing the rules of its tables.
pub struct Searcher<'a> {
    rules: RuleSet,
    tables: &'a Tablebases,
    table: HashMap<u64, (f64, bool)>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

/// Deepest iteration tried.
pub const MAX_DEPTH: u32 = 64;

impl<'a> Searcher<'a> {
    /// A searcher using `tables` (possibly empty), under the rules of `tables`.
    pub fn new(tables: &'a Tablebases) -> Searcher<'a> {
        Searcher {
            rules: tables.rules(),
            tables,
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    /// Value of `pos` searched `depth` turns deep, and whether it is exact.
    fn value(&mut self, pos: &Position, depth: u32) -> (f64, bool) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return (0.0, false);
        }
        let state = outcome(pos, self.rules);
        if state.is_over() {
            return (state.value(), true);
        }
        // Tablebase values ignore the quiet counter; near the 50-turn limit it matters.
        if (pos.quiet as u32) + depth < QUIET_LIMIT {
            if let Some(v) = self.tables.stored_value(pos) {
                return (v, true);
            }
        }
        if depth == 0 {
            return (evaluate(pos, self.rules), false);
        }
        let key = game_key(pos.key, pos.quiet, depth, QUIET_LIMIT);
        if let Some(&hit) = self.table.get(&key) {
            return hit;
        }
        let (matrix, exact) = self.matrix(pos, depth);
        if self.aborted {
            return (0.0, false);
        }
        let v = matrix_game::solve(&matrix).value;
        self.table.insert(key, (v, exact));
        (v, exact)
    }

    fn matrix(&mut self, pos: &Position, depth: u32) -> (Matrix, bool) {
        let white = declarable_moves(pos, Side::White, self.rules);
        let black = declarable_moves(pos, Side::Black, self.rules);
        let mut data = Vec::with_capacity(white.len() * black.len());
        let mut exact = true;
        for &w in &white {
            for &b in &black {
                let (next, _) = resolve(pos, [w, b]);
                let (v, e) = self.value(&next, depth - 1);
                exact &= e;
                data.push(v);
            }
        }
        (Matrix::new(white.len(), black.len(), data), exact)
    }

    /// One full iteration at `depth` from an unfinished `pos`; `None` if time ran out.
    pub fn search_depth(
        &mut self,
        pos: &Position,
        depth: u32,
        started: Instant,
    ) -> Option<Iteration> {
        let (matrix, exact) = self.matrix(pos, depth.max(1));
        if self.aborted {
            return None;
        }
        let mut sol = matrix_game::solve(&matrix);
        // In a won tablebase position the winner must make progress, which the one-turn
        // matrix cannot see (every stalling move keeps the value).
        if (pos.quiet as u32) + depth < QUIET_LIMIT {
            if let Some(p) = self.tables.progress_strategy(pos) {
                p.apply(&mut sol);
            }
        }
        Some(Iteration {
            depth,
            value: sol.value,
            white_moves: declarable_moves(pos, Side::White, self.rules),
            black_moves: declarable_moves(pos, Side::Black, self.rules),
            white: sol.row_strategy,
            black: sol.col_strategy,
            matrix,
            nodes: self.nodes,
            exact,
            elapsed: started.elapsed(),
        })
    }

    /// Iterative deepening within `limits`; `report` sees every completed iteration. Returns
    /// the last completed iteration (depth 1 always completes), or `None` for a finished game.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        mut report: impl FnMut(&Iteration),
    ) -> Option<Iteration> {
        if outcome(pos, self.rules).is_over() {
            return None;
        }
        let started = Instant::now();
        let mut best = None;
        for depth in limits.depths() {
            self.deadline = limits.deadline(depth, started);
            self.aborted = false;
            let Some(it) = self.search_depth(pos, depth, started) else {
                break;
            };
            report(&it);
            let exact = it.exact;
            best = Some(it);
            if exact {
                break;
            }
            if limits.movetime.is_some_and(|t| started.elapsed() * 2 >= t) {
                // The next iteration would not finish in the time left.
                break;
            }
        }
        best
    }
}

/// Search `pos` within `limits` with a fresh table.
pub fn search(
    pos: &Position,
    limits: Limits,
    tables: &Tablebases,
    report: impl FnMut(&Iteration),
) -> Option<Iteration> {
    Searcher::new(tables).search(pos, limits, report)
}
