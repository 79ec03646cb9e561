//! The pruned solver: serialized alpha-beta bounds, then double-oracle alpha-beta
//! (Bosansky, Lisy, Lanctot, Cermak, Winands: "Algorithms for computing strategies in
//! two-player simultaneous move games", AIJ 2016).
//!
//! At each position: if the serialized games' values coincide, that is the value. Otherwise a
//! restricted matrix game (a few rows and columns) is solved, and each player's best response
//! to the other's restricted optimum is searched over all its moves. A subgame is searched only
//! with a window telling whether it can make its row (column) a better response than the best
//! one so far, so most entries of the full matrix are never solved exactly. Bounds found on the
//! way let the position fail high or low against its caller's window.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::serialized::{self, serial_key, Leader, SerialEntry, SerialTables};
use super::table::Table;
use super::tree::{child, key, leaf, ordered_moves, Horizon, RootSolution, Truncated, EPS};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::matrix_game::{self, Matrix};

/// Lower and upper bound on the value of a game; exact when they (nearly) meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Bounds {
    /// Nothing known: values lie in [-1, 1].
    pub const UNKNOWN: Bounds = Bounds { lo: -1.0, hi: 1.0 };

    /// An exact value.
    pub fn exact(v: f64) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    /// Whether the bounds pin the value down.
    pub fn is_exact(self) -> bool {
        self.hi - self.lo <= EPS
    }

    /// Whether the bounds answer a search with window (alpha, beta): exact, or (up to EPS)
    /// failing high or low.
    pub fn decides(self, alpha: f64, beta: f64) -> bool {
        self.is_exact() || self.lo >= beta - EPS || self.hi <= alpha + EPS
    }

    /// The value (midpoint of the bounds).
    pub fn value(self) -> f64 {
        0.5 * (self.lo + self.hi)
    }

    /// Intersection of two valid bounds (rounding noise resolved to the midpoint).
    pub fn meet(self, other: Bounds) -> Bounds {
        let lo = self.lo.max(other.lo);
        let hi = self.hi.min(other.hi);
        if lo > hi {
            Bounds::exact(0.5 * (lo + hi))
        } else {
            Bounds { lo, hi }
        }
    }
}

/// A player looking for a best response: White hopes for high values, Black for low ones.
/// Each comparison is written for both sides rather than by negating Black's values, so both
/// compute exactly the floating-point numbers they would in a version written out twice.
#[derive(Clone, Copy)]
struct Responder(Side);

impl Responder {
    /// The bound this player hopes a subgame's value reaches.
    fn hoped(self, b: Bounds) -> f64 {
        match self.0 {
            Side::White => b.hi,
            Side::Black => b.lo,
        }
    }

    /// `x` moved in this player's favour (up for White, down for Black).
    fn toward(self, x: f64) -> f64 {
        match self.0 {
            Side::White => x,
            Side::Black => -x,
        }
    }

    /// Whether `a` is better than `b` for this player by more than EPS.
    fn beats(self, a: f64, b: f64) -> bool {
        match self.0 {
            Side::White => a > b + EPS,
            Side::Black => a < b - EPS,
        }
    }

    /// Whether `a` is at least as good as `b` for this player.
    fn reaches(self, a: f64, b: f64) -> bool {
        match self.0 {
            Side::White => a >= b,
            Side::Black => a <= b,
        }
    }

    /// Order of candidate moves: the most hopeful first.
    fn most_hopeful_first(self, a: f64, b: f64) -> std::cmp::Ordering {
        match self.0 {
            Side::White => b.total_cmp(&a),
            Side::Black => a.total_cmp(&b),
        }
    }

    /// Matrix cell (row, column) of this player's move `mine` against the other's `theirs`.
    fn cell(self, mine: usize, theirs: usize) -> (usize, usize) {
        match self.0 {
            Side::White => (mine, theirs),
            Side::Black => (theirs, mine),
        }
    }

    /// `known` with its hoped-for bound no better than `limit`.
    fn capped(self, known: Bounds, limit: f64) -> Bounds {
        match self.0 {
            Side::White => Bounds {
                lo: known.lo,
                hi: limit.min(known.hi),
            },
            Side::Black => Bounds {
                lo: limit.max(known.lo),
                hi: known.hi,
            },
        }
    }

    /// The search window between `bar` and the hoped-for bound of `known`.
    fn window(self, known: Bounds, bar: f64) -> (f64, f64) {
        match self.0 {
            Side::White => (bar, known.hi),
            Side::Black => (known.lo, bar),
        }
    }
}

/// Double-oracle alpha-beta with serialized bounds and transposition tables, over the tree
/// its horizon cuts (by default the N-turn truncated game).
pub struct PrunedSolver<H = Truncated> {
    horizon: H,
    exact: Table<Bounds>,
    serial: Table<SerialEntry>,
    pub(crate) nodes: AtomicU64,
}

/// A position being solved: its moves and what is known about each joint move's subgame.
struct Node<'a, H> {
    solver: &'a PrunedSolver<H>,
    pos: Position,
    remaining: u32,
    white: Vec<Move>,
    black: Vec<Move>,
    children: Vec<Option<(Position, Bounds)>>,
}

impl<'a, H: Horizon> Node<'a, H> {
    fn new(solver: &'a PrunedSolver<H>, pos: &Position, remaining: u32) -> Node<'a, H> {
        let rules = solver.horizon.rules();
        let white = ordered_moves(pos, Side::White, rules);
        let black = ordered_moves(pos, Side::Black, rules);
        let n = white.len() * black.len();
        Node {
            solver,
            pos: *pos,
            remaining,
            white,
            black,
            children: vec![None; n],
        }
    }

    fn index(&self, i: usize, j: usize) -> usize {
        i * self.black.len() + j
    }

    /// The subgame's position and its bounds, from the tables on first use.
    fn entry(&mut self, i: usize, j: usize) -> (Position, Bounds) {
        let k = self.index(i, j);
        if let Some(e) = self.children[k] {
            return e;
        }
        let next = child(&self.pos, self.white[i], self.black[j], &self.solver.nodes);
        let bounds = self.solver.known_bounds(&next, self.remaining - 1);
        self.children[k] = Some((next, bounds));
        (next, bounds)
    }

    fn bounds(&mut self, i: usize, j: usize) -> Bounds {
        self.entry(i, j).1
    }

    /// Search the subgame with a window and record what was learned.
    fn search(&mut self, i: usize, j: usize, alpha: f64, beta: f64) -> Bounds {
        let (next, known) = self.entry(i, j);
        let found = self
            .solver
            .search(&next, self.remaining - 1, alpha, beta)
            .meet(known);
        let k = self.index(i, j);
        self.children[k] = Some((next, found));
        found
    }

    /// Make every entry of rows x cols exact (in parallel at the root).
    fn fill(&mut self, rows: &[usize], cols: &[usize], parallel: bool) {
        let mut todo = Vec::new();
        for &i in rows {
            for &j in cols {
                let (next, b) = self.entry(i, j);
                if !b.is_exact() {
                    todo.push((i, j, next, b));
                }
            }
        }
        let solver = self.solver;
        let remaining = self.remaining - 1;
        let solve = |&(i, j, next, b): &(usize, usize, Position, Bounds)| {
            (i, j, solver.search(&next, remaining, -1.0, 1.0).meet(b))
        };
        let results: Vec<(usize, usize, Bounds)> = if parallel {
            todo.par_iter().map(solve).collect()
        } else {
            todo.iter().map(solve).collect()
        };
        for (i, j, b) in results {
            let k = self.index(i, j);
            if let Some(e) = self.children[k].as_mut() {
                e.1 = b;
            }
        }
    }

    /// `side`'s best response to the other player's restricted strategy (`strategy` over the
    /// other's moves `theirs`) among its own moves outside `mine`, if one beats `threshold`.
    fn best_response(
        &mut self,
        side: Side,
        mine: &[usize],
        theirs: &[usize],
        strategy: &[f64],
        mut threshold: f64,
    ) -> Option<usize> {
        let responder = Responder(side);
        let mut support: Vec<(usize, f64)> = theirs
            .iter()
            .zip(strategy)
            .filter(|(_, &p)| p > 0.0)
            .map(|(&t, &p)| (t, p))
            .collect();
        support.sort_by(|a, b| b.1.total_cmp(&a.1));
        let moves = match side {
            Side::White => self.white.len(),
            Side::Black => self.black.len(),
        };
        let mut candidates: Vec<(usize, f64)> = (0..moves)
            .filter(|c| !mine.contains(c))
            .map(|c| {
                let optimistic = support
                    .iter()
                    .map(|&(t, p)| {
                        let (i, j) = responder.cell(c, t);
                        p * responder.hoped(self.bounds(i, j))
                    })
                    .sum();
                (c, optimistic)
            })
            .collect();
        candidates.sort_by(|a, b| responder.most_hopeful_first(a.1, b.1));
        let mut best = None;
        for (c, mut optimistic) in candidates {
            if !responder.beats(optimistic, threshold) {
                break;
            }
            for &(t, p) in &support {
                let (i, j) = responder.cell(c, t);
                let known = self.bounds(i, j);
                if known.is_exact() {
                    continue;
                }
                // The move can only beat the threshold if this entry gets past `need`.
                let hoped = responder.hoped(known);
                let need = (threshold + responder.toward(EPS) - (optimistic - p * hoped)) / p;
                let found = if responder.reaches(need, hoped) {
                    responder.capped(known, need)
                } else {
                    let (alpha, beta) = responder.window(known, need - responder.toward(EPS));
                    self.search(i, j, alpha, beta)
                };
                optimistic += p * (responder.hoped(found) - hoped);
                if !responder.beats(optimistic, threshold) {
                    break;
                }
            }
            if responder.beats(optimistic, threshold) {
                threshold = optimistic;
                best = Some(c);
            }
        }
        best
    }

    fn restricted_matrix(&mut self, rows: &[usize], cols: &[usize]) -> Matrix {
        let mut data = Vec::with_capacity(rows.len() * cols.len());
        for &i in rows {
            for &j in cols {
                data.push(self.bounds(i, j).value());
            }
        }
        Matrix::new(rows.len(), cols.len(), data)
    }
}

/// Moves of each side (indices in `ordered_moves` order) that a root search starts from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Support {
    /// White's moves.
    pub white: Vec<usize>,
    /// Black's moves.
    pub black: Vec<usize>,
}

impl Support {
    /// The moves a root solution plays with positive probability.
    pub fn of(root: &RootSolution) -> Support {
        let played = |p: &[f64]| (0..p.len()).filter(|&k| p[k] > 0.0).collect();
        Support {
            white: played(&root.white),
            black: played(&root.black),
        }
    }
}

/// Result of the double oracle at one position.
struct Oracle {
    bounds: Bounds,
    rows: Vec<usize>,
    cols: Vec<usize>,
    x: Vec<f64>,
    y: Vec<f64>,
}

impl Oracle {
    /// The bounds found, with the restricted game and its solution.
    fn of(
        bounds: Bounds,
        rows: Vec<usize>,
        cols: Vec<usize>,
        sol: matrix_game::Solution,
    ) -> Oracle {
        Oracle {
            bounds,
            rows,
            cols,
            x: sol.row_strategy,
            y: sol.col_strategy,
        }
    }
}

impl PrunedSolver {
    /// A solver of the N-turn truncated game under `rules`.
    pub fn new(rules: RuleSet) -> PrunedSolver {
        PrunedSolver::with_horizon(Truncated(rules))
    }
}

impl<H: Horizon> PrunedSolver<H> {
    /// A solver of the tree `horizon` cuts.
    pub fn with_horizon(horizon: H) -> PrunedSolver<H> {
        PrunedSolver {
            horizon,
            exact: Table::default(),
            serial: Table::default(),
            nodes: AtomicU64::new(0),
        }
    }

    /// The horizon the solver searches to.
    pub fn horizon(&self) -> &H {
        &self.horizon
    }

    /// Positions generated so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Bounds on a subgame known without searching: exact table, serialized values, leaves.
    fn known_bounds(&self, pos: &Position, remaining: u32) -> Bounds {
        if let Some(v) = leaf(&self.horizon, pos, remaining) {
            return Bounds::exact(v);
        }
        let mut b = self
            .exact
            .get(key(pos, remaining))
            .unwrap_or(Bounds::UNKNOWN);
        if let Some(e) = self.serial.get(serial_key(pos, remaining, Leader::White)) {
            b.lo = b.lo.max(e.lo);
        }
        if let Some(e) = self.serial.get(serial_key(pos, remaining, Leader::Black)) {
            b.hi = b.hi.min(e.hi);
        }
        b.meet(Bounds::UNKNOWN)
    }

    /// Exact value of the `remaining`-turn game from `pos`.
    pub fn exact_value(&self, pos: &Position, remaining: u32) -> f64 {
        self.search(pos, remaining, -1.0, 1.0).value()
    }

    /// Search with window (alpha, beta). The result is exact, or (up to EPS) has lo >= beta
    /// (fail high) or hi <= alpha (fail low). The full window (-1, 1) always gives the value.
    pub fn search(&self, pos: &Position, remaining: u32, alpha: f64, beta: f64) -> Bounds {
        if let Some(v) = leaf(&self.horizon, pos, remaining) {
            return Bounds::exact(v);
        }
        let k = key(pos, remaining);
        let mut b = self.known_bounds(pos, remaining);
        if b.decides(alpha, beta) || self.horizon.stopped() {
            return b;
        }
        b = b.meet(self.serial_bounds(pos, remaining, alpha, beta, b, false));
        if !b.decides(alpha, beta) {
            b = b.meet(
                self.double_oracle(pos, remaining, alpha, beta, b, None)
                    .bounds,
            );
        }
        if !self.horizon.stopped() {
            self.exact.merge(k, b, Bounds::meet);
        }
        b
    }

    /// Bounds from the two serialized games, searched within the window (the root spreads its
    /// first moves over rayon workers).
    fn serial_bounds(
        &self,
        pos: &Position,
        remaining: u32,
        alpha: f64,
        beta: f64,
        known: Bounds,
        root: bool,
    ) -> Bounds {
        let tables = SerialTables {
            horizon: &self.horizon,
            table: &self.serial,
            nodes: &self.nodes,
        };
        let (a, b) = (alpha.max(known.lo), beta.min(known.hi));
        let mut out = known;
        let lower = serialized::search(tables, pos, remaining, a, b, Leader::White, root);
        if lower > a {
            out.lo = out.lo.max(lower);
        }
        if out.lo >= beta {
            return out.meet(Bounds::UNKNOWN);
        }
        // The game where Black commits first is worth at least the one where White does, so
        // its search may start at that lower bound: failing low there proves a pure saddle.
        let a = a.max(out.lo);
        if a < b {
            let upper = serialized::search(tables, pos, remaining, a, b, Leader::Black, root);
            if upper < b {
                out.hi = out.hi.min(upper);
            }
        }
        out.meet(Bounds::UNKNOWN)
    }

    fn serial_best(&self, pos: &Position, remaining: u32, leader: Leader) -> usize {
        self.serial
            .get(serial_key(pos, remaining, leader))
            .map_or(0, |e| e.best as usize)
    }

    /// The double-oracle loop. At the root (`Some` moves to start the restricted game with,
    /// besides the serialized best moves) it runs until both best responses fail to improve
    /// so the restricted strategies are optimal, and fills restricted entries in parallel.
    fn double_oracle(
        &self,
        pos: &Position,
        remaining: u32,
        alpha: f64,
        beta: f64,
        known: Bounds,
        root_start: Option<&Support>,
    ) -> Oracle {
        let root = root_start.is_some();
        let mut node = Node::new(self, pos, remaining);
        let first_row = self
            .serial_best(pos, remaining, Leader::White)
            .min(node.white.len() - 1);
        let first_col = self
            .serial_best(pos, remaining, Leader::Black)
            .min(node.black.len() - 1);
        let mut rows = vec![first_row];
        let mut cols = vec![first_col];
        if let Some(start) = root_start {
            let (white, black) = (node.white.len(), node.black.len());
            rows.extend(start.white.iter().filter(|&&k| k < white && k != first_row));
            cols.extend(start.black.iter().filter(|&&k| k < black && k != first_col));
        }
        let mut bounds = known;
        loop {
            node.fill(&rows, &cols, root);
            let m = node.restricted_matrix(&rows, &cols);
            let sol = matrix_game::solve(&m);
            if self.horizon.stopped() {
                return Oracle::of(bounds, rows, cols, sol);
            }
            let v = sol.value;
            let white_threshold = if root { v } else { v.max(alpha) };
            let black_threshold = if root { v } else { v.min(beta) };
            let new_row = node.best_response(
                Side::White,
                &rows,
                &cols,
                &sol.col_strategy,
                white_threshold,
            );
            let new_col = node.best_response(
                Side::Black,
                &cols,
                &rows,
                &sol.row_strategy,
                black_threshold,
            );
            // Rows outside the restricted game pay at most the threshold against y (pruned
            // rows were bounded below it), rows inside at most v: an upper bound. Likewise below.
            if new_row.is_none() {
                bounds.hi = bounds.hi.min(white_threshold + EPS);
            }
            if new_col.is_none() {
                bounds.lo = bounds.lo.max(black_threshold - EPS);
            }
            bounds = bounds.meet(Bounds::UNKNOWN);
            let converged = new_row.is_none() && new_col.is_none();
            if converged && white_threshold == v && black_threshold == v {
                bounds = Bounds::exact(v);
            }
            let cut = bounds.decides(alpha, beta);
            if converged || (cut && !root) {
                return Oracle::of(bounds, rows, cols, sol);
            }
            rows.extend(new_row);
            cols.extend(new_col);
        }
    }

    /// Value and optimal strategies at the root, which is searched even where the horizon
    /// would cut it (a tablebase position still needs its strategies).
    pub fn solve_root(&self, pos: &Position, turns: u32) -> RootSolution {
        self.solve_root_from(pos, turns, &Support::default())
    }

    /// `solve_root`, the double oracle starting from `start` as well as the serialized best
    /// moves (an earlier iteration's supports: iterative deepening rarely changes them much,
    /// and each move found up front saves the oracle a round of best-response searches).
    pub fn solve_root_from(&self, pos: &Position, turns: u32, start: &Support) -> RootSolution {
        if turns == 0 || outcome(pos, self.horizon.rules()).is_over() {
            return RootSolution::leaf(leaf(&self.horizon, pos, turns).unwrap_or(0.0));
        }
        let rules = self.horizon.rules();
        let white_moves = ordered_moves(pos, Side::White, rules);
        let black_moves = ordered_moves(pos, Side::Black, rules);
        let mut white = vec![0.0; white_moves.len()];
        let mut black = vec![0.0; black_moves.len()];
        let serial = self.serial_bounds(pos, turns, -1.0, 1.0, Bounds::UNKNOWN, true);
        let value = if serial.is_exact() {
            // Pure strategies: White's serialized maximin move guarantees the lower bound, Black's
            // minimax move concedes no more than the upper bound.
            white[self.serial_best(pos, turns, Leader::White)] = 1.0;
            black[self.serial_best(pos, turns, Leader::Black)] = 1.0;
            serial.value()
        } else {
            let oracle = self.double_oracle(pos, turns, -1.0, 1.0, serial, Some(start));
            for (&i, &p) in oracle.rows.iter().zip(&oracle.x) {
                white[i] = p;
            }
            for (&j, &p) in oracle.cols.iter().zip(&oracle.y) {
                black[j] = p;
            }
            oracle.bounds.value()
        };
        self.exact
            .merge(key(pos, turns), Bounds::exact(value), Bounds::meet);
        RootSolution {
            value,
            white_moves,
            black_moves,
            white,
            black,
            nodes: self.nodes(),
        }
    }
}
