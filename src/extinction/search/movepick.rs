//! Move ordering: hash move, game-winning captures (last piece of a type), good captures by
//! SEE/MVV-LVA, promotions, killers, history, then losing captures and self-extinctions.

use shakmaty::{Color, Role};

use super::see::see;
use super::see::see_value;
use crate::extinction::rules::position::Position;
use crate::extinction::rules::types::{Move, MoveList, MAX_MOVES};

/// Ordering score of the hash move.
pub const HASH_MOVE_SCORE: i32 = 30_000_000;
/// Ordering score base of a capture that makes an enemy type extinct.
pub const WINNING_CAPTURE_SCORE: i32 = 20_000_000;
const GOOD_CAPTURE_SCORE: i32 = 10_000_000;
const PROMOTION_SCORE: i32 = 9_000_000;
const KILLER_SCORES: [i32; 2] = [8_000_000, 7_000_000];
const BAD_CAPTURE_SCORE: i32 = -2_000_000;
const SELF_EXTINCTION_SCORE: i32 = -5_000_000;
/// History scores stay within ±HISTORY_MAX so they never outrank killers.
pub const HISTORY_MAX: i32 = 1 << 20;

/// Quiet-move history, indexed by colour, from-square and to-square.
pub struct History(Box<[[[i32; 64]; 64]; 2]>);

impl Default for History {
    fn default() -> Self {
        History(Box::new([[[0; 64]; 64]; 2]))
    }
}

impl History {
    /// History score of a quiet move.
    #[inline]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.0[color as usize][m.from() as usize][m.to() as usize]
    }

    /// Reward (positive bonus) or punish (negative) a quiet move, with gravity toward zero.
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let entry = &mut self.0[color as usize][m.from() as usize][m.to() as usize];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - (*entry as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    /// Halve all entries (between searches, so old knowledge fades).
    pub fn age(&mut self) {
        for side in self.0.iter_mut() {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }
}

/// Whether `m` captures the opponent's last piece of its type (the game ends, mover wins).
#[inline]
pub fn wins_by_extinction(pos: &Position, m: Move) -> bool {
    match pos.captured_role(m) {
        Some(role) => pos.count(pos.turn().other(), role) == 1,
        None => false,
    }
}

/// Whether `m` promotes the mover's last pawn without capturing a last piece (it loses).
#[inline]
pub fn is_self_extinction(pos: &Position, m: Move) -> bool {
    m.is_promotion() && pos.count(pos.turn(), Role::Pawn) == 1 && !wins_by_extinction(pos, m)
}

/// Whether `m` is quiet (no capture, no promotion).
#[inline]
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    !m.is_promotion() && !pos.is_capture(m)
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
                    let mvv_lva = see_value(victim) * 16 - see_value(pos.moved_role(m)) / 16;
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
                history.get(us, m)
            };
            sm.moves[sm.len] = m;
            sm.scores[sm.len] = score;
            sm.len += 1;
        }
        sm
    }

    /// Score captures/promotions for quiescence by MVV-LVA (winning captures first).
    pub fn for_quiescence(pos: &Position, list: &MoveList) -> ScoredMoves {
        let mut sm = ScoredMoves {
            moves: [Move::NULL; MAX_MOVES],
            scores: [0; MAX_MOVES],
            len: 0,
            next: 0,
        };
        let them = pos.turn().other();
        for &m in list.iter() {
            let score = match pos.captured_role(m) {
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
        let mut sm =
            ScoredMoves::for_search(&pos, &list, hash, &[Move::NULL; 2], &History::default());
        assert_eq!(sm.next_best().unwrap().0, hash);
        let mut n = 1;
        while sm.next_best().is_some() {
            n += 1;
        }
        assert_eq!(n, list.len());
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = History::default();
        let m = parse_uci(&Position::startpos(), "e2e4").unwrap();
        for _ in 0..1000 {
            h.update(Color::White, m, HISTORY_MAX);
        }
        assert!(h.get(Color::White, m) <= HISTORY_MAX);
        for _ in 0..1000 {
            h.update(Color::White, m, -HISTORY_MAX);
        }
        assert!(h.get(Color::White, m) >= -HISTORY_MAX);
    }
}
