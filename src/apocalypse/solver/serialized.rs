//! Serialized alpha-beta: the N-turn game made sequential by letting one player commit first
//! every turn. With White committing first the value is a lower bound on the simultaneous
//! game's value (maximin <= mixed value at every turn); with Black first, an upper bound.
//! Values of serialized games are pure minimax values, so they are always -1, 0 or +1.

use std::sync::atomic::AtomicU64;

use rayon::prelude::*;

use super::table::Table;
use super::tree::{child, key, leaf, ordered_moves, Horizon};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::outcome::outcome;

/// Stored fail-soft bounds of a serialized value plus the best first move found.
#[derive(Clone, Copy, Debug)]
pub struct SerialEntry {
    /// Lower bound on the serialized value.
    pub lo: f64,
    /// Upper bound on the serialized value.
    pub hi: f64,
    /// Index (in `ordered_moves` order) of the committing player's best move.
    pub best: u16,
    /// Index of the other player's best reply to that move, tried first next time.
    pub reply: u16,
}

/// Which player commits first every turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Leader {
    /// White commits first: a lower bound.
    White,
    /// Black commits first: an upper bound.
    Black,
}

const BLACK_FIRST_SALT: u64 = 0x5DEE_CE66_D1CE_4E5B;

/// Key of a serialized game (distinct for the two leaders).
pub fn serial_key(pos: &Position, remaining: u32, leader: Leader) -> u64 {
    match leader {
        Leader::White => key(pos, remaining).rotate_left(17) ^ 0x9E37_79B9_7F4A_7C15,
        Leader::Black => key(pos, remaining).rotate_left(17) ^ BLACK_FIRST_SALT,
    }
}

/// The tables a serialized search reads and fills: its own transposition table and the
/// node counter of the solver it serves, with the horizon (and rules) of the game.
pub struct SerialTables<'a, H> {
    /// Where the tree stops, and the rules of the game searched.
    pub horizon: &'a H,
    /// Fail-soft bounds and best first moves of serialized games.
    pub table: &'a Table<SerialEntry>,
    /// Positions generated.
    pub nodes: &'a AtomicU64,
}

impl<H> Clone for SerialTables<'_, H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H> Copy for SerialTables<'_, H> {}

/// Fail-soft alpha-beta over a serialized game: the result r satisfies: alpha < r < beta means
/// exact, r <= alpha means the value is <= r, r >= beta means the value is >= r. With
/// `root`, the position is searched even where the horizon would cut it (a tablebase position
/// still needs its moves), and the leader's moves there (not below) are spread over rayon
/// workers.
pub fn search<H: Horizon>(
    tables: SerialTables<H>,
    pos: &Position,
    remaining: u32,
    mut alpha: f64,
    mut beta: f64,
    leader: Leader,
    root: bool,
) -> f64 {
    let SerialTables {
        horizon,
        table,
        nodes,
    } = tables;
    let rules = horizon.rules();
    let parallel = root && rayon::current_num_threads() > 1;
    let state = outcome(pos, rules);
    if state.is_over() {
        return state.value();
    }
    if !root {
        if let Some(v) = leaf(horizon, pos, remaining) {
            return v;
        }
    }
    if horizon.stopped() {
        return 0.0;
    }
    let k = serial_key(pos, remaining, leader);
    let stored = table.get(k);
    if let Some(e) = stored {
        if e.lo >= beta || e.lo == e.hi {
            return e.lo;
        }
        if e.hi <= alpha {
            return e.hi;
        }
        alpha = alpha.max(e.lo);
        beta = beta.min(e.hi);
    }
    let (first_side, second_side) = match leader {
        Leader::White => (Side::White, Side::Black),
        Leader::Black => (Side::Black, Side::White),
    };
    let first = ordered_moves(pos, first_side, rules);
    let second = ordered_moves(pos, second_side, rules);
    let mut order: Vec<usize> = (0..first.len()).collect();
    // A shallower search of this position (an earlier iteration) suggests the first move and
    // the first reply too.
    let hint = stored.or_else(|| table.get(serial_key(pos, remaining - 1, leader)));
    let mut killer = 0;
    if let Some(e) = hint {
        let b = e.best as usize;
        if b < order.len() {
            order[..=b].rotate_right(1);
        }
        killer = (e.reply as usize).min(second.len() - 1);
    }
    // Work in the leader's point of view: it maximises `sign * value`.
    let sign = if leader == Leader::White { 1.0 } else { -1.0 };
    let (a0, b0) = if sign > 0.0 {
        (alpha, beta)
    } else {
        (-beta, -alpha)
    };
    // The second player's best reply to the leader's move `m1`, in the leader's point of view,
    // and which reply it was. The reply that refuted the previous move goes first: the same
    // capture or block often refutes most of the leader's moves.
    let reply_to = |m1, a: f64, killer: usize| -> (f64, usize) {
        let mut reply = f64::INFINITY;
        let mut refutation = killer;
        for k in 0..second.len() {
            let i2 = match k {
                0 => killer,
                k if k <= killer => k - 1,
                k => k,
            };
            let m2 = second[i2];
            let next = match leader {
                Leader::White => child(pos, m1, m2, nodes),
                Leader::Black => child(pos, m2, m1, nodes),
            };
            let (ca, cb) = (a, b0.min(reply));
            let r = if sign > 0.0 {
                search(tables, &next, remaining - 1, ca, cb, leader, false)
            } else {
                -search(tables, &next, remaining - 1, -cb, -ca, leader, false)
            };
            if r < reply {
                reply = r;
                refutation = i2;
            }
            if reply <= a {
                break;
            }
        }
        (reply, refutation)
    };
    let mut best = f64::NEG_INFINITY;
    let mut best_index = 0u16;
    let mut best_reply = killer as u16;
    if parallel {
        // Young brothers wait: the first move alone sets the bound, the rest run in parallel.
        let (first_reply, refutation) = reply_to(first[order[0]], a0, killer);
        best = first_reply;
        best_index = order[0] as u16;
        best_reply = refutation as u16;
        if best < b0 {
            let bound = a0.max(best);
            let replies: Vec<(usize, (f64, usize))> = order[1..]
                .par_iter()
                .map(|&i1| (i1, reply_to(first[i1], bound, refutation)))
                .collect();
            for (i1, (reply, refutation)) in replies {
                if reply > best {
                    best = reply;
                    best_index = i1 as u16;
                    best_reply = refutation as u16;
                }
            }
        }
    } else {
        for &i1 in &order {
            let (reply, refutation) = reply_to(first[i1], a0.max(best), killer);
            killer = refutation;
            if reply > best {
                best = reply;
                best_index = i1 as u16;
                best_reply = refutation as u16;
            }
            if best >= b0 {
                break;
            }
        }
    }
    let value = sign * best;
    if horizon.stopped() {
        return value;
    }
    let entry = if value <= alpha {
        SerialEntry {
            lo: -1.0,
            hi: value,
            best: best_index,
            reply: best_reply,
        }
    } else if value >= beta {
        SerialEntry {
            lo: value,
            hi: 1.0,
            best: best_index,
            reply: best_reply,
        }
    } else {
        SerialEntry {
            lo: value,
            hi: value,
            best: best_index,
            reply: best_reply,
        }
    };
    table.merge(k, entry, |old, new| SerialEntry {
        lo: old.lo.max(new.lo),
        hi: old.hi.min(new.hi),
        best: new.best,
        reply: new.reply,
    });
    value
}
