//! Correction history: how far searches have found the static evaluation off, on average, in
//! positions that share a feature with the one at hand. The evaluation's errors are systematic
//! for a pawn structure (a blocked centre, a doomed last pawn) and for where each side's other
//! pieces stand, so three tables (keyed by the pawns and by each side's pieces other than
//! pawns) each hold a part of the error, and the search corrects the static evaluation it
//! prunes with by their sum. Each table learns the error that the sum still leaves (least mean
//! squares), so that together they do not count one error three times.

use shakmaty::{Color, Role};

use crate::extinction::rules::Position;

const ENTRIES: usize = 1 << 14;
/// Fixed-point scale of an entry: 1 cp = `GRAIN` units, so small updates do not round away.
const GRAIN: i32 = 256;
/// No correction beyond this many centipawns either way, by one table or by their sum.
const MAX_CORRECTION_CP: i32 = 100;
const LIMIT: i32 = MAX_CORRECTION_CP * GRAIN;
/// Weight of one update, out of 256, per ply of depth (deeper searches say more).
const WEIGHT_PER_PLY: i32 = 16;
const MAX_WEIGHT: i32 = 128;
/// The tables: pawns, White's other pieces, Black's other pieces.
const TABLES: usize = 3;
/// Each table takes this share (out of 256) of an update's step: three full steps on one
/// residual would overshoot it.
const TABLE_SHARE: i32 = 128;

type Table = Box<[[i32; ENTRIES]; 2]>;

fn table() -> Table {
    vec![[0i32; ENTRIES]; 2]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("sized by construction"))
}

/// Per side to move and per feature of a position, running parts of (search result − static
/// evaluation).
pub struct CorrectionHistory {
    tables: [Table; TABLES],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            tables: std::array::from_fn(|_| table()),
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

/// Index of where `color`'s pieces other than pawns stand.
fn pieces_index(pos: &Position, color: Color) -> usize {
    let h = (pos.by_color(color) & !pos.by_role(Role::Pawn))
        .0
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ pos
            .pieces(color, Role::Knight)
            .0
            .wrapping_mul(0x85EB_CA77_C2B2_AE63)
        ^ (pos.by_color(color) & (pos.by_role(Role::Rook) | pos.by_role(Role::Queen)))
            .0
            .wrapping_mul(0x27D4_EB2F_1656_67C5)
            .rotate_left(17)
        ^ (pos.by_color(color) & (pos.by_role(Role::Bishop) | pos.by_role(Role::Queen)))
            .0
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            .rotate_left(41);
    (h >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// The entry of each table that describes `pos`.
fn indices(pos: &Position) -> [usize; TABLES] {
    [
        pawn_index(pos),
        pieces_index(pos, Color::White),
        pieces_index(pos, Color::Black),
    ]
}

impl CorrectionHistory {
    fn sum(&self, turn: usize, indices: &[usize; TABLES]) -> i32 {
        let sum: i32 = (self.tables.iter().zip(indices))
            .map(|(table, &i)| table[turn][i])
            .sum();
        sum.clamp(-LIMIT, LIMIT)
    }

    /// `raw_eval` corrected by what searches found in positions sharing these features.
    pub fn corrected(&self, pos: &Position, raw_eval: i32) -> i32 {
        raw_eval + self.sum(pos.turn() as usize, &indices(pos)) / GRAIN
    }

    /// A search of `depth` found `result` where the static evaluation said `raw_eval`.
    pub fn update(&mut self, pos: &Position, raw_eval: i32, result: i32, depth: i32) {
        let turn = pos.turn() as usize;
        let indices = indices(pos);
        let target = (result - raw_eval).clamp(-MAX_CORRECTION_CP, MAX_CORRECTION_CP) * GRAIN;
        let residual = i64::from(target - self.sum(turn, &indices));
        let weight = i64::from((WEIGHT_PER_PLY * depth).clamp(1, MAX_WEIGHT));
        let step = (residual * weight * i64::from(TABLE_SHARE) / (256 * 256)) as i32;
        for (table, &i) in self.tables.iter_mut().zip(&indices) {
            let entry = &mut table[turn][i];
            *entry = (*entry + step).clamp(-LIMIT, LIMIT);
        }
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
        // The same pieces with other pawns: the piece tables' part of the correction.
        let part = history.corrected(&moved, 0);
        assert!((-70..=-20).contains(&part), "{part}");
    }
}
