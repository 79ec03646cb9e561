//! What a move is under the Extinction rules, read off the position before it is played: a
//! capture of the opponent's last piece of a type (it wins at once), a promotion of the
//! mover's last pawn (it loses at once, unless it also wins), or a quiet move (neither a
//! capture nor a promotion). The search orders, prunes and reduces by these; the data tools
//! keep only positions reached by quiet moves.

use shakmaty::Role;

use super::position::Position;
use super::types::Move;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::MoveList;

    /// The predicates agree with the rule that decides the game once the move is played.
    #[test]
    fn predicates_agree_with_the_played_outcome() {
        let fens = [
            // Black's last bishop on d5 can be taken by the e4 pawn.
            "rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            // White's last pawn promotes on b8 (it loses) or takes Black's last knight on a8.
            "n2qkb1r/1P4pp/8/8/8/8/8/RNBQKBNR w KQk - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut seen = [0usize; 3];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("fen");
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            for &m in list.iter() {
                let mut after = pos.clone();
                after.do_move(m);
                let winner = after.extinction_outcome().and_then(|o| o.winner);
                let wins = wins_by_extinction(&pos, m);
                let loses = is_self_extinction(&pos, m);
                assert_eq!(wins, winner == Some(pos.turn()), "{fen} {m}");
                assert_eq!(loses, winner == Some(pos.turn().other()), "{fen} {m}");
                assert_eq!(
                    is_quiet(&pos, m),
                    pos.captured_role(m).is_none() && m.promotion().is_none(),
                    "{fen} {m}"
                );
                seen[usize::from(wins) + 2 * usize::from(loses)] += 1;
            }
        }
        // Each kind occurs: ordinary moves, winning captures and losing promotions.
        assert!(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "{seen:?}");
    }
}
