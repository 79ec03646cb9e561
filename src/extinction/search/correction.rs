//! Correction history: how far searches have found the static evaluation off, on average, in
//! positions with the same pawns and side to move. The evaluation's errors are systematic for
//! a pawn structure (a blocked centre, a doomed last pawn), so the search corrects the static
//! evaluation it prunes with by this running average.

use shakmaty::{Color, Role};

use crate::extinction::rules::Position;

const ENTRIES: usize = 1 << 14;
/// Fixed-point scale of an entry: 1 cp = `GRAIN` units, so small updates do not round away.
const GRAIN: i32 = 256;
/// No correction beyond this many centipawns either way.
const MAX_CORRECTION_CP: i32 = 100;
/// Weight of one update, out of 256, per ply of depth (deeper searches say more).
const WEIGHT_PER_PLY: i32 = 16;
const MAX_WEIGHT: i32 = 128;

/// Per side to move, a running average of (search result − static evaluation) per pawn hash.
pub struct CorrectionHistory {
    entries: Box<[[i32; ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            entries: vec![[0i32; ENTRIES]; 2]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("sized by construction")),
        }
    }
}

/// Index of `pos`'s pawn structure: a multiplicative hash of both sides' pawn bitboards.
fn pawn_index(pos: &Position) -> usize {
    let white = pos.pieces(Color::White, Role::Pawn).0;
    let black = pos.pieces(Color::Black, Role::Pawn).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
    (h >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionHistory {
    /// `raw_eval` corrected by what searches found in positions with these pawns.
    pub fn corrected(&self, pos: &Position, raw_eval: i32) -> i32 {
        raw_eval + self.entries[pos.turn() as usize][pawn_index(pos)] / GRAIN
    }

    /// A search of `depth` found `result` where the static evaluation said `raw_eval`.
    pub fn update(&mut self, pos: &Position, raw_eval: i32, result: i32, depth: i32) {
        let target = (result - raw_eval).clamp(-MAX_CORRECTION_CP, MAX_CORRECTION_CP) * GRAIN;
        let weight = (WEIGHT_PER_PLY * depth).clamp(1, MAX_WEIGHT);
        let entry = &mut self.entries[pos.turn() as usize][pawn_index(pos)];
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("fen")
    }

    #[test]
    fn repeated_results_pull_the_evaluation_towards_them_within_bounds() {
        let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let mut history = CorrectionHistory::default();
        assert_eq!(history.corrected(&p, 10), 10);
        for _ in 0..200 {
            history.update(&p, 10, 50, 8);
        }
        let corrected = history.corrected(&p, 10);
        assert!((45..=50).contains(&corrected), "{corrected}");
        for _ in 0..200 {
            history.update(&p, 0, 5_000, 8);
        }
        assert!(history.corrected(&p, 0) <= MAX_CORRECTION_CP);
    }

    #[test]
    fn the_other_side_to_move_and_other_pawns_are_apart() {
        let white = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        let moved = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        let mut history = CorrectionHistory::default();
        for _ in 0..50 {
            history.update(&white, 0, -80, 10);
        }
        assert!(history.corrected(&white, 0) < -70);
        assert_eq!(history.corrected(&black, 0), 0);
        assert_eq!(history.corrected(&moved, 0), 0);
    }
}
