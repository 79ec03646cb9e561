//! A pure-strategy opponent of the kind other Apocalypse programs are: iterative-deepening
//! alpha-beta on the *serialized* game in which this player commits to its move first every
//! turn and the other player answers knowing it (the cautious reading: "assume the opponent
//! sees my move"). It plays the single best move of that game, with the engine's evaluation
//! at the horizon, the engine's tablebase values where available and the engine's time
//! policy, so that a match against it compares mixed and pure play honestly.
//!
//! A serialized value of +1 for the leader is a real forced win: its move wins against every
//! reply, seen or not.

use std::collections::HashMap;
use std::time::Instant;

use super::anytime::Limits;
use super::eval::evaluate;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::outcome::{outcome, QUIET_LIMIT};
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::rules::zobrist::game_key;
use crate::apocalypse::tablebase::Tablebases;

/// How a stored value bounds the true one (fail-soft alpha-beta).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A transposition-table entry: value for the leader, its bound, and the leader's best move
/// (index into its declarable moves) to try first next time.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: f64,
    bound: Bound,
    best: u16,
}

/// The result of a completed iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PureChoice {
    /// The move to play.
    pub best: Move,
    /// Its serialized value for the side that plays it (+1 = forced win).
    pub value: f64,
    /// Depth of the last completed iteration (turns).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// Serialized alpha-beta for one side, with its transposition table.
pub struct AlphaBeta<'a> {
    rules: RuleSet,
    tables: &'a Tablebases,
    leader: Side,
    table: HashMap<u64, Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    /// When set, the only root moves considered (a scripted player's preference).
    root_moves: Option<Vec<Move>>,
}

impl<'a> AlphaBeta<'a> {
    /// A searcher choosing `leader`'s move, under the rules of `tables` (possibly empty).
    pub fn new(tables: &'a Tablebases, leader: Side) -> AlphaBeta<'a> {
        AlphaBeta {
            rules: tables.rules(),
            tables,
            leader,
            table: HashMap::new(),
            nodes: 0,
            deadline: None,
            aborted: false,
            root_moves: None,
        }
    }

    /// Consider only `moves` at the root (those that are declarable; all of them when none
    /// is): the best of a player's preferred moves.
    pub fn restrict_root(mut self, moves: Vec<Move>) -> AlphaBeta<'a> {
        self.root_moves = Some(moves);
        self
    }

    /// A White value seen from the leader's side.
    fn for_leader(&self, white_value: f64) -> f64 {
        match self.leader {
            Side::White => white_value,
            Side::Black => -white_value,
        }
    }

    /// The joint move with the leader's move `mine` and the follower's `theirs`.
    fn joint(&self, mine: Move, theirs: Move) -> [Move; 2] {
        match self.leader {
            Side::White => [mine, theirs],
            Side::Black => [theirs, mine],
        }
    }

    /// The leader's moves, the one the table remembers first.
    fn ordered(&self, pos: &Position, first: Option<u16>) -> Vec<(u16, Move)> {
        let mut moves: Vec<(u16, Move)> = declarable_moves(pos, self.leader, self.rules)
            .into_iter()
            .enumerate()
            .map(|(i, m)| (i as u16, m))
            .collect();
        if let Some(k) = first.and_then(|f| moves.iter().position(|&(i, _)| i == f)) {
            moves[..=k].rotate_right(1);
        }
        moves
    }

    /// The leader's serialized value of `pos`, `depth` turns deep, within (alpha, beta).
    fn value(&mut self, pos: &Position, depth: u32, mut alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        let state = outcome(pos, self.rules);
        if state.is_over() {
            return self.for_leader(state.value());
        }
        // Tablebase values ignore the quiet counter; near the 50-turn limit it matters.
        if (pos.quiet as u32) + depth < QUIET_LIMIT {
            if let Some(v) = self.tables.stored_value(pos) {
                return self.for_leader(v);
            }
        }
        if depth == 0 {
            return self.for_leader(evaluate(pos, self.rules));
        }
        let key = game_key(pos.key, pos.quiet, depth, QUIET_LIMIT);
        let remembered = self.table.get(&key).copied();
        if let Some(e) = remembered {
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
            if usable {
                return e.value;
            }
        }
        let original_alpha = alpha;
        let replies = declarable_moves(pos, self.leader.opponent(), self.rules);
        let (mut best, mut best_index) = (f64::NEG_INFINITY, 0);
        for (index, mine) in self.ordered(pos, remembered.map(|e| e.best)) {
            // The follower sees `mine` and answers with its best reply: a minimum.
            let mut worst = f64::INFINITY;
            for &theirs in &replies {
                let (next, _) = resolve(pos, self.joint(mine, theirs));
                let v = self.value(&next, depth - 1, alpha.max(best), worst.min(beta));
                worst = worst.min(v);
                if worst <= alpha.max(best) {
                    break;
                }
            }
            if self.aborted {
                return 0.0;
            }
            if worst > best {
                (best, best_index) = (worst, index);
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            Entry {
                value: best,
                bound,
                best: best_index,
            },
        );
        best
    }

    /// The leader's best move at the root, `depth` turns deep (None when aborted).
    fn root(&mut self, pos: &Position, depth: u32, first: Option<u16>) -> Option<(u16, f64)> {
        let replies = declarable_moves(pos, self.leader.opponent(), self.rules);
        let (mut best, mut best_index) = (f64::NEG_INFINITY, None);
        let mut candidates = self.ordered(pos, first);
        if let Some(allowed) = &self.root_moves {
            if candidates.iter().any(|(_, m)| allowed.contains(m)) {
                candidates.retain(|(_, m)| allowed.contains(m));
            }
        }
        for (index, mine) in candidates {
            let mut worst = f64::INFINITY;
            for &theirs in &replies {
                let (next, _) = resolve(pos, self.joint(mine, theirs));
                let floor = if best_index.is_some() { best } else { -2.0 };
                worst = worst.min(self.value(&next, depth - 1, floor, worst.min(2.0)));
                if worst <= floor {
                    break;
                }
            }
            if self.aborted {
                return None;
            }
            if best_index.is_none() || worst > best {
                (best, best_index) = (worst, Some(index));
            }
        }
        best_index.map(|i| (i, best))
    }

    /// Iterative deepening within `limits` (the same policy as the engine's search: depth 1
    /// always completes, no iteration starts that could not finish in the time left). `None`
    /// for a finished game.
    pub fn search(&mut self, pos: &Position, limits: Limits) -> Option<PureChoice> {
        self.search_reporting(pos, limits, |_| {})
    }

    /// `search`, with `report` called on every completed iteration (a model of this player
    /// learns from them which depth it reaches).
    pub fn search_reporting(
        &mut self,
        pos: &Position,
        limits: Limits,
        mut report: impl FnMut(&PureChoice),
    ) -> Option<PureChoice> {
        if outcome(pos, self.rules).is_over() {
            return None;
        }
        let moves = declarable_moves(pos, self.leader, self.rules);
        let started = Instant::now();
        let mut choice: Option<PureChoice> = None;
        let mut first = None;
        for depth in limits.depths() {
            self.deadline = limits.deadline(depth, started);
            self.aborted = false;
            let Some((index, value)) = self.root(pos, depth, first) else {
                break;
            };
            first = Some(index);
            choice = Some(PureChoice {
                best: moves[index as usize],
                value,
                depth,
                nodes: self.nodes,
            });
            if let Some(c) = &choice {
                report(c);
            }
            // A forced result (won, or lost whatever the leader does) does not change deeper.
            if value.abs() >= 1.0 {
                break;
            }
            if limits.movetime.is_some_and(|t| started.elapsed() * 2 >= t) {
                break;
            }
        }
        choice
    }
}

/// The pure opponent's move for `side` in `pos` within `limits` (the forfeit in a finished
/// game), with a fresh table.
pub fn pure_move(pos: &Position, side: Side, limits: Limits, tables: &Tablebases) -> Move {
    AlphaBeta::new(tables, side)
        .search(pos, limits)
        .map_or(Move::FORFEIT, |c| c.best)
}
