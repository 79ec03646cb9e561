//! Anytime search of any position: iterative deepening with the pruned solver (serialized
//! alpha-beta bounds and double-oracle alpha-beta over the simultaneous-move tree), the
//! heuristic evaluation at the horizon and exact tablebase values wherever they are available.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::eval::evaluate;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::outcome::{outcome, QUIET_LIMIT};
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::solver::pruned::{PrunedSolver, Support};
use crate::apocalypse::solver::tree::{Horizon, RootSolution};
use crate::apocalypse::tablebase::Tablebases;
use crate::matrix_game::Solution;

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
    /// The value for White and both strategies, over each side's declarable moves in
    /// declaration order; its `nodes` counts the positions generated so far in the whole
    /// search.
    pub root: RootSolution,
    /// True when the value is proven: a forced result, or no horizon evaluation was needed.
    pub exact: bool,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// Deepest iteration tried.
pub const MAX_DEPTH: u32 = 64;

/// Where the anytime search stops: finished games, tablebase positions (away from the 50-turn
/// limit, which tablebase values ignore), and the evaluation when the depth runs out. It also
/// keeps the clock of the iteration under way.
struct Heuristic<'a> {
    rules: RuleSet,
    tables: &'a Tablebases,
    deadline: Mutex<Option<Instant>>,
    calls: AtomicU64,
    stop: AtomicBool,
    /// Set at the first evaluation and never cleared: a later iteration may reuse table
    /// entries an earlier one evaluated, so only a search that never evaluated is exact.
    evaluated: AtomicBool,
}

impl Horizon for Heuristic<'_> {
    fn rules(&self) -> RuleSet {
        self.rules
    }

    fn cut(&self, pos: &Position, remaining: u32) -> Option<f64> {
        if (pos.quiet as u32) + remaining < QUIET_LIMIT {
            if let Some(v) = self.tables.stored_value(pos) {
                return Some(v);
            }
        }
        if remaining == 0 {
            self.evaluated.store(true, Ordering::Relaxed);
            return Some(evaluate(pos, self.rules));
        }
        None
    }

    fn stopped(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.calls.fetch_add(1, Ordering::Relaxed) & 1023 == 0 {
            let deadline = *self.deadline.lock().unwrap_or_else(|e| e.into_inner());
            if deadline.is_some_and(|d| Instant::now() >= d) {
                self.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }
}

/// A depth-limited searcher with its transposition tables, playing the rules of its tables.
pub struct Searcher<'a> {
    solver: PrunedSolver<Heuristic<'a>>,
    /// The supports of the last completed iteration, where the next one starts.
    support: Support,
}

impl<'a> Searcher<'a> {
    /// A searcher using `tables` (possibly empty), under the rules of `tables`.
    pub fn new(tables: &'a Tablebases) -> Searcher<'a> {
        Searcher {
            solver: PrunedSolver::with_horizon(Heuristic {
                rules: tables.rules(),
                tables,
                deadline: Mutex::new(None),
                calls: AtomicU64::new(0),
                stop: AtomicBool::new(false),
                evaluated: AtomicBool::new(false),
            }),
            support: Support::default(),
        }
    }

    fn rules(&self) -> RuleSet {
        self.solver.horizon().rules
    }

    /// One full iteration at `depth` from an unfinished `pos`, giving up at `deadline`
    /// (`None` if it did).
    pub fn search_depth(
        &mut self,
        pos: &Position,
        depth: u32,
        deadline: Option<Instant>,
        started: Instant,
    ) -> Option<Iteration> {
        let horizon = self.solver.horizon();
        *horizon.deadline.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
        horizon.stop.store(false, Ordering::Relaxed);
        let searched = self
            .solver
            .solve_root_from(pos, depth.max(1), &self.support);
        if horizon.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.support = Support::of(&searched);
        let rules = self.rules();
        let white_moves = declarable_moves(pos, Side::White, rules);
        let black_moves = declarable_moves(pos, Side::Black, rules);
        // The solver lists moves in its search order; report them in declaration order.
        let reorder = |moves: &[Move], searched: &[Move], p: &[f64]| -> Vec<f64> {
            moves
                .iter()
                .map(|m| searched.iter().position(|s| s == m).map_or(0.0, |k| p[k]))
                .collect()
        };
        let mut sol = Solution {
            value: searched.value,
            row_strategy: reorder(&white_moves, &searched.white_moves, &searched.white),
            col_strategy: reorder(&black_moves, &searched.black_moves, &searched.black),
        };
        // In a won tablebase position the winner must make progress, which the one-turn
        // matrix cannot see (every stalling move keeps the value).
        if (pos.quiet as u32) + depth < QUIET_LIMIT {
            if let Some(p) = horizon.tables.progress_strategy(pos) {
                p.apply(&mut sol);
            }
        }
        let proven = sol.value.abs() >= 1.0 - 1e-12 || !horizon.evaluated.load(Ordering::Relaxed);
        Some(Iteration {
            depth,
            root: RootSolution::from_solution(white_moves, black_moves, sol, self.solver.nodes()),
            exact: proven,
            elapsed: started.elapsed(),
        })
    }

    /// White's value of the joint move (`white`, `black`) from `pos` followed by a game of
    /// `remaining` turns, searched with this searcher's tables; `None` once `deadline` has
    /// passed. After an iteration of depth d, `remaining` = d - 1 gives the entries of its root
    /// matrix.
    pub fn joint_value(
        &self,
        pos: &Position,
        white: Move,
        black: Move,
        remaining: u32,
        deadline: Option<Instant>,
    ) -> Option<f64> {
        let horizon = self.solver.horizon();
        *horizon.deadline.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
        horizon.stop.store(false, Ordering::Relaxed);
        let (next, _) = resolve(pos, [white, black]);
        let value = self.solver.search(&next, remaining, -1.0, 1.0);
        if horizon.stop.load(Ordering::Relaxed) || !value.is_exact() {
            return None;
        }
        Some(value.value())
    }

    /// Iterative deepening within `limits`; `report` sees every completed iteration. Returns
    /// the last completed iteration (depth 1 always completes), or `None` for a finished game.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        mut report: impl FnMut(&Iteration),
    ) -> Option<Iteration> {
        if outcome(pos, self.rules()).is_over() {
            return None;
        }
        let started = Instant::now();
        let mut best = None;
        self.support = Support::default();
        for depth in limits.depths() {
            let Some(it) = self.search_depth(pos, depth, limits.deadline(depth, started), started)
            else {
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
