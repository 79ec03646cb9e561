//! Move ordering: hash move, game-winning captures (last piece of a type), good captures by
//! SEE/MVV-LVA, promotions, killers, history, then losing captures and self-extinctions.

use shakmaty::{Color, Role};

use super::see::see;
use super::see::see_value;
use crate::extinction::rules::move_kind::is_self_extinction;
use crate::extinction::rules::position::Position;
use crate::extinction::rules::types::{Move, MoveList, MAX_MOVES};

/// Ordering score of the hash move.
pub const HASH_MOVE_SCORE: i32 = 30_000_000;
/// Ordering score base of a capture that makes an enemy type extinct.
pub const WINNING_CAPTURE_SCORE: i32 = 20_000_000;
const GOOD_CAPTURE_SCORE: i32 = 10_000_000;
const PROMOTION_SCORE: i32 = 9_000_000;
const KILLER_SCORES: [i32; 2] = [8_000_000, 7_000_000];
/// The lowest ordering score of a killer: a quiet move scored at least this is a killer (or
/// the hash move), so late-move reductions can tell killers from history-ordered moves.
pub const MIN_KILLER_SCORE: i32 = KILLER_SCORES[1];
const BAD_CAPTURE_SCORE: i32 = -2_000_000;
const SELF_EXTINCTION_SCORE: i32 = -5_000_000;
/// History entries stay within ±HISTORY_MAX (the update pulls them back towards zero).
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a coloured piece (0..12) for the piece-keyed tables.
#[inline]
pub fn piece_index(color: Color, role: Role) -> usize {
    color as usize * 6 + role as usize - 1
}

/// What a move looks like to a later move's continuation history: moving piece and target.
#[inline]
pub fn continuation_key(pos: &Position, m: Move) -> usize {
    piece_index(pos.turn(), pos.moved_role(m)) * 64 + m.to() as usize
}

fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

/// The search's move statistics: quiet moves by side and squares (butterfly), quiet moves by
/// the moves one and two plies before (continuation), captures by piece, target and victim.
pub struct History {
    main: Box<[[[i16; 64]; 64]; 2]>,
    capture: Box<[[[i16; 6]; 64]; 12]>,
    continuation: Box<[[[i16; 64]; 12]; 12 * 64]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            main: Box::new([[[0; 64]; 64]; 2]),
            capture: Box::new([[[0; 6]; 64]; 12]),
            continuation: vec![[[0i16; 64]; 12]; 12 * 64]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("sized by construction")),
        }
    }
}

/// The continuation keys of the moves one and two plies before a node (`None` after a null
/// move or at the root).
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveContext {
    /// Key of the previous move.
    pub previous: Option<usize>,
    /// Key of our own move before that.
    pub before: Option<usize>,
}

impl History {
    /// History score of a quiet move.
    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.main[color as usize][m.from() as usize][m.to() as usize] as i32
    }

    /// Ordering score of a quiet move: butterfly twice, plus both continuation entries.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move, ctx: MoveContext) -> i32 {
        let piece = piece_index(pos.turn(), pos.moved_role(m));
        let to = m.to() as usize;
        let mut s = 2 * self.get(pos.turn(), m);
        if let Some(k) = ctx.previous {
            s += self.continuation[k][piece][to] as i32;
        }
        if let Some(k) = ctx.before {
            s += self.continuation[k][piece][to] as i32;
        }
        s
    }

    /// Capture-history score of a capture.
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move, victim: Role) -> i32 {
        let piece = piece_index(pos.turn(), pos.moved_role(m));
        self.capture[piece][m.to() as usize][victim as usize - 1] as i32
    }

    /// Reward (positive bonus) or punish (negative) a quiet move in every table it appears in.
    pub fn update_quiet(&mut self, pos: &Position, m: Move, ctx: MoveContext, bonus: i32) {
        gravity(
            &mut self.main[pos.turn() as usize][m.from() as usize][m.to() as usize],
            bonus,
        );
        let piece = piece_index(pos.turn(), pos.moved_role(m));
        let to = m.to() as usize;
        for k in [ctx.previous, ctx.before].into_iter().flatten() {
            gravity(&mut self.continuation[k][piece][to], bonus);
        }
    }

    /// Reward or punish a capture.
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(victim) = pos.captured_role(m) {
            let piece = piece_index(pos.turn(), pos.moved_role(m));
            gravity(
                &mut self.capture[piece][m.to() as usize][victim as usize - 1],
                bonus,
            );
        }
    }
}

/// Moves with ordering scores, handed out best first by selection.
pub struct ScoredMoves {
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
    next: usize,
}

impl ScoredMoves {
    /// Score every move of `list` for the main search.
    pub fn for_search(
        pos: &Position,
        list: &MoveList,
        hash_move: Move,
        killers: &[Move; 2],
        history: &History,
        ctx: MoveContext,
    ) -> ScoredMoves {
        let mut sm = ScoredMoves {
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            next: 0,
        };
        let us = pos.turn();
        for &m in list.iter() {
            let score = if m == hash_move {
                HASH_MOVE_SCORE
            } else if let Some(victim) = pos.captured_role(m) {
                if pos.count(us.other(), victim) == 1 {
                    WINNING_CAPTURE_SCORE + see_value(victim)
                } else if is_self_extinction(pos, m) {
                    SELF_EXTINCTION_SCORE
                } else {
                    let mvv_lva =
                        see_value(victim) * 16 + history.capture_score(pos, m, victim) / 4;
                    if see(pos, m) >= 0 {
                        GOOD_CAPTURE_SCORE + mvv_lva
                    } else {
                        BAD_CAPTURE_SCORE + mvv_lva
                    }
                }
            } else if let Some(promo) = m.promotion() {
                if is_self_extinction(pos, m) {
                    SELF_EXTINCTION_SCORE
                } else {
                    PROMOTION_SCORE + see_value(promo)
                }
            } else if m == killers[0] {
                KILLER_SCORES[0]
            } else if m == killers[1] {
                KILLER_SCORES[1]
            } else {
                history.quiet_score(pos, m, ctx)
            };
            sm.moves[sm.len] = m;
            sm.scores[sm.len] = score;
            sm.len += 1;
        }
        sm
    }

    /// Score captures/promotions for quiescence by MVV-LVA (winning captures first).
    pub fn for_quiescence(pos: &Position, list: &MoveList, hash_move: Move) -> ScoredMoves {
        let mut sm = ScoredMoves {
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            next: 0,
        };
        let them = pos.turn().other();
        for &m in list.iter() {
            let score = match pos.captured_role(m) {
                _ if m == hash_move => HASH_MOVE_SCORE,
                Some(victim) if pos.count(them, victim) == 1 => WINNING_CAPTURE_SCORE,
                Some(victim) => see_value(victim) * 16 - see_value(pos.moved_role(m)) / 16,
                None => m.promotion().map_or(0, see_value),
            };
            sm.moves[sm.len] = m;
            sm.scores[sm.len] = score;
            sm.len += 1;
        }
        sm
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The best remaining move and its ordering score.
    pub fn next_best(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let out = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::notation::parse_uci;

    #[test]
    fn winning_capture_comes_first() {
        // Black's last bishop on d5 can be taken by the e4 pawn; the queen can take a2 pawn... any.
        let pos =
            Position::from_fen("rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
                .unwrap();
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        let mut sm = ScoredMoves::for_search(
            &pos,
            &list,
            Move::NULL,
            &[Move::NULL; 2],
            &History::default(),
            MoveContext::default(),
        );
        let (first, score) = sm.next_best().unwrap();
        assert_eq!(first, parse_uci(&pos, "e4d5").unwrap());
        assert!(score >= WINNING_CAPTURE_SCORE);
    }

    #[test]
    fn hash_move_beats_everything_and_all_moves_come_out() {
        let pos = Position::startpos();
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        let hash = parse_uci(&pos, "g1f3").unwrap();
        let mut sm = ScoredMoves::for_search(
            &pos,
            &list,
            hash,
            &[Move::NULL; 2],
            &History::default(),
            MoveContext::default(),
        );
        assert_eq!(sm.next_best().unwrap().0, hash);
        let mut n = 1;
        while sm.next_best().is_some() {
            n += 1;
        }
        assert_eq!(n, list.len());
    }

    #[test]
    fn history_stays_bounded() {
        let pos = Position::startpos();
        let mut h = History::default();
        let m = parse_uci(&pos, "e2e4").unwrap();
        let ctx = MoveContext {
            previous: Some(5),
            before: None,
        };
        for _ in 0..1000 {
            h.update_quiet(&pos, m, ctx, HISTORY_MAX);
        }
        assert!(h.get(Color::White, m) <= HISTORY_MAX);
        assert!(h.quiet_score(&pos, m, ctx) >= 2 * HISTORY_MAX * 9 / 10);
        for _ in 0..1000 {
            h.update_quiet(&pos, m, ctx, -HISTORY_MAX);
        }
        assert!(h.get(Color::White, m) >= -HISTORY_MAX);
        assert!(h.quiet_score(&pos, m, MoveContext::default()) < 0);
    }
}
