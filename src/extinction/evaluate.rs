//! Static evaluation for Extinction chess, from the side to move's point of view.
//!
//! Every weight lives in [`Weights`] (one named table, [`DEFAULT_WEIGHTS`]) so that a tuner can
//! adjust them later. Terms: scarcity-aware material (a piece is worth more the fewer of its
//! type remain: the last one is nearly the game), threats against last-of-type pieces,
//! piece-square tables, mobility and pawn structure, tapered between middle game and endgame.

use shakmaty::{Bitboard, Color, Role};

use super::rules::position::{role_index, Position, ROLES};
use super::rules::threats::{last_of_type, piece_attacks};

/// A middle-game / endgame score pair, interpolated by game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

/// All evaluation weights, in centipawns.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Base value of one piece of each role (pawn..king).
    pub piece_value: [Score; 6],
    /// Scarcity penalty per role: a side with `n` pieces of a type loses `scarcity / n²`.
    /// This makes the last piece of a type worth far more than one of two.
    pub scarcity: [i32; 6],
    /// Penalty for the side to move per own last-of-type piece under attack (it must move it).
    pub last_piece_attacked: i32,
    /// Extra penalty when two or more own last-of-type pieces are attacked at once (fork).
    pub last_pieces_forked: i32,
    /// Bonus for the side to move when it attacks an enemy last-of-type piece (capture wins).
    pub attacks_enemy_last_piece: i32,
    /// Penalty per own last-of-type piece that an enemy piece could attack next move.
    pub last_piece_exposed: i32,
    /// Penalty per own non-last piece attacked by a cheaper piece or undefended.
    pub hanging_piece: Score,
    /// Mobility bonus per reachable square, per role (pawn and king unused for pawns).
    pub mobility: [Score; 6],
    /// Passed pawn bonus by relative rank (index 0 = rank 1).
    pub passed_pawn: [Score; 8],
    /// Penalty per doubled pawn.
    pub doubled_pawn: Score,
    /// Penalty per isolated pawn.
    pub isolated_pawn: Score,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Piece-square tables per role, from White's point of view, a1 = index 0.
    pub psqt: [[Score; 64]; 6],
}

/// Expand an 8x8 table written rank 8 first (as seen from White) into a1-indexed order.
const fn table(rows: [i32; 64], scale_mg: i32, scale_eg: i32) -> [Score; 64] {
    let mut out = [Score(0, 0); 64];
    let mut i = 0;
    while i < 64 {
        let rank = 7 - i / 8;
        let file = i % 8;
        out[rank * 8 + file] = Score(rows[i] * scale_mg / 4, rows[i] * scale_eg / 4);
        i += 1;
    }
    out
}

const PAWN_TABLE: [i32; 64] = [
    0, 0, 0, 0, 0, 0, 0, 0, //
    40, 40, 40, 40, 40, 40, 40, 40, //
    14, 14, 20, 28, 28, 20, 14, 14, //
    6, 6, 10, 22, 22, 10, 6, 6, //
    0, 0, 4, 18, 18, 4, 0, 0, //
    4, -2, -6, 2, 2, -6, -2, 4, //
    4, 8, 8, -14, -14, 8, 8, 4, //
    0, 0, 0, 0, 0, 0, 0, 0,
];

const KNIGHT_TABLE: [i32; 64] = [
    -40, -30, -24, -20, -20, -24, -30, -40, //
    -30, -14, 0, 2, 2, 0, -14, -30, //
    -24, 2, 10, 14, 14, 10, 2, -24, //
    -20, 4, 14, 20, 20, 14, 4, -20, //
    -20, 0, 14, 20, 20, 14, 0, -20, //
    -24, 2, 10, 14, 14, 10, 2, -24, //
    -30, -14, 0, 4, 4, 0, -14, -30, //
    -40, -30, -24, -20, -20, -24, -30, -40,
];

const BISHOP_TABLE: [i32; 64] = [
    -16, -8, -8, -8, -8, -8, -8, -16, //
    -8, 0, 0, 0, 0, 0, 0, -8, //
    -8, 0, 4, 8, 8, 4, 0, -8, //
    -8, 4, 4, 8, 8, 4, 4, -8, //
    -8, 0, 8, 8, 8, 8, 0, -8, //
    -8, 8, 8, 8, 8, 8, 8, -8, //
    -8, 4, 0, 0, 0, 0, 4, -8, //
    -16, -8, -8, -8, -8, -8, -8, -16,
];

const ROOK_TABLE: [i32; 64] = [
    0, 0, 0, 0, 0, 0, 0, 0, //
    4, 8, 8, 8, 8, 8, 8, 4, //
    -4, 0, 0, 0, 0, 0, 0, -4, //
    -4, 0, 0, 0, 0, 0, 0, -4, //
    -4, 0, 0, 0, 0, 0, 0, -4, //
    -4, 0, 0, 0, 0, 0, 0, -4, //
    -4, 0, 0, 0, 0, 0, 0, -4, //
    0, 0, 0, 4, 4, 2, 0, 0,
];

const QUEEN_TABLE: [i32; 64] = [
    -16, -8, -8, -4, -4, -8, -8, -16, //
    -8, 0, 0, 0, 0, 0, 0, -8, //
    -8, 0, 4, 4, 4, 4, 0, -8, //
    -4, 0, 4, 4, 4, 4, 0, -4, //
    -4, 0, 4, 4, 4, 4, 0, -4, //
    -8, 2, 4, 4, 4, 4, 0, -8, //
    -8, 0, 2, 0, 0, 0, 0, -8, //
    -16, -8, -8, -4, -4, -8, -8, -16,
];

/// The king is not royal but it is (almost always) the last of its type: in the middle
/// game it hides at the back, in the endgame it becomes a fighting piece.
const KING_TABLE_MG: [i32; 64] = [
    -40, -40, -40, -40, -40, -40, -40, -40, //
    -40, -40, -40, -40, -40, -40, -40, -40, //
    -36, -36, -40, -40, -40, -40, -36, -36, //
    -30, -32, -34, -40, -40, -34, -32, -30, //
    -20, -24, -24, -30, -30, -24, -24, -20, //
    -10, -16, -16, -16, -16, -16, -16, -10, //
    10, 10, -4, -4, -4, -4, 10, 10, //
    14, 20, 8, 0, 0, 8, 20, 14,
];

const KING_TABLE_EG: [i32; 64] = [
    -30, -20, -10, 0, 0, -10, -20, -30, //
    -20, -10, 0, 10, 10, 0, -10, -20, //
    -10, 0, 10, 16, 16, 10, 0, -10, //
    -10, 0, 16, 20, 20, 16, 0, -10, //
    -10, 0, 16, 20, 20, 16, 0, -10, //
    -10, 0, 10, 16, 16, 10, 0, -10, //
    -20, -10, 0, 0, 0, 0, -10, -20, //
    -30, -20, -20, -20, -20, -20, -20, -30,
];

const fn king_table() -> [Score; 64] {
    let mg = table(KING_TABLE_MG, 4, 0);
    let eg = table(KING_TABLE_EG, 0, 4);
    let mut out = [Score(0, 0); 64];
    let mut i = 0;
    while i < 64 {
        out[i] = Score(mg[i].0, eg[i].1);
        i += 1;
    }
    out
}

/// The default weights (hand-set; a tuner may replace them).
pub const DEFAULT_WEIGHTS: Weights = Weights {
    piece_value: [
        Score(90, 110),
        Score(310, 300),
        Score(320, 320),
        Score(470, 520),
        Score(900, 920),
        Score(250, 300),
    ],
    scarcity: [300, 200, 200, 220, 350, 350],
    last_piece_attacked: 60,
    last_pieces_forked: 500,
    attacks_enemy_last_piece: 800,
    last_piece_exposed: 12,
    hanging_piece: Score(30, 30),
    mobility: [
        Score(0, 0),
        Score(4, 4),
        Score(5, 5),
        Score(3, 5),
        Score(2, 3),
        Score(0, 2),
    ],
    passed_pawn: [
        Score(0, 0),
        Score(5, 10),
        Score(8, 16),
        Score(14, 28),
        Score(28, 50),
        Score(50, 85),
        Score(80, 120),
        Score(0, 0),
    ],
    doubled_pawn: Score(10, 18),
    isolated_pawn: Score(10, 12),
    tempo: 15,
    psqt: [
        table(PAWN_TABLE, 4, 4),
        table(KNIGHT_TABLE, 4, 4),
        table(BISHOP_TABLE, 4, 4),
        table(ROOK_TABLE, 4, 4),
        table(QUEEN_TABLE, 4, 4),
        king_table(),
    ],
};

/// Piece values used for move ordering and SEE (pawn..king), in centipawns.
pub const SEE_VALUE: [i32; 6] = [100, 310, 320, 480, 900, 280];

/// Value used by SEE/ordering for a piece; the king is a minor-piece-strength fighter.
#[inline]
pub fn see_value(role: Role) -> i32 {
    SEE_VALUE[role_index(role)]
}

/// Maximum game phase (all minor and major pieces on the board).
const MAX_PHASE: i32 = 24;
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

struct SideInfo {
    attacks: Bitboard,
    attacks_by_role: [Bitboard; 6],
}

fn side_info(pos: &Position, color: Color) -> SideInfo {
    let occupied = pos.occupied();
    let mut attacks_by_role = [Bitboard::EMPTY; 6];
    for role in ROLES {
        for sq in pos.pieces(color, role) {
            attacks_by_role[role_index(role)] |= piece_attacks(role, color, sq, occupied);
        }
    }
    let attacks = attacks_by_role.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    SideInfo {
        attacks,
        attacks_by_role,
    }
}

/// Material, scarcity, piece-square and mobility for one side (White's orientation handled).
fn pieces_score(pos: &Position, color: Color, w: &Weights) -> Score {
    let occupied = pos.occupied();
    let own = pos.by_color(color);
    let mut s = Score(0, 0);
    for role in ROLES {
        let ri = role_index(role);
        let pieces = pos.pieces(color, role);
        let n = pieces.count() as i32;
        if n > 0 {
            s += w.piece_value[ri] * n;
            let penalty = w.scarcity[ri] / (n * n);
            s -= Score(penalty, penalty);
        }
        for sq in pieces {
            let idx = if color == Color::White {
                sq as usize
            } else {
                sq.flip_vertical() as usize
            };
            s += w.psqt[ri][idx];
            if role != Role::Pawn {
                let reach = (piece_attacks(role, color, sq, occupied) & !own).count() as i32;
                s += w.mobility[ri] * reach;
            }
        }
    }
    s
}

fn file_mask(file: u32) -> u64 {
    0x0101_0101_0101_0101u64 << file
}

fn pawn_structure(pos: &Position, color: Color, w: &Weights) -> Score {
    let ours = pos.pieces(color, Role::Pawn).0;
    let theirs = pos.pieces(color.other(), Role::Pawn).0;
    let mut s = Score(0, 0);
    for sq in Bitboard(ours) {
        let file = sq.file() as u32;
        let rank = sq.rank() as u32;
        let rel_rank = if color == Color::White {
            rank
        } else {
            7 - rank
        };
        let adjacent = (if file > 0 { file_mask(file - 1) } else { 0 })
            | (if file < 7 { file_mask(file + 1) } else { 0 });
        if ours & adjacent == 0 {
            s -= w.isolated_pawn;
        }
        // Squares in front of the pawn on its own and adjacent files.
        let front_ranks = if color == Color::White {
            if rank >= 7 {
                0
            } else {
                !0u64 << ((rank + 1) * 8)
            }
        } else {
            (1u64 << (rank * 8)).wrapping_sub(1)
        };
        let span = (file_mask(file) | adjacent) & front_ranks;
        if theirs & span == 0 {
            s += w.passed_pawn[rel_rank as usize];
        }
        if ours & file_mask(file) & front_ranks != 0 {
            s -= w.doubled_pawn;
        }
    }
    s
}

/// Threat terms for `color` given both sides' attack maps; `to_move` says whether `color` moves.
fn threats(
    pos: &Position,
    color: Color,
    ours: &SideInfo,
    theirs: &SideInfo,
    to_move: bool,
    w: &Weights,
) -> Score {
    let mut s = Score(0, 0);
    let last = last_of_type(pos, color);
    let attacked_last = (last & theirs.attacks).count() as i32;
    if to_move {
        if attacked_last >= 2 {
            s -= Score(w.last_pieces_forked, w.last_pieces_forked);
        }
        s -= Score(w.last_piece_attacked, w.last_piece_attacked) * attacked_last;
        let enemy_last = last_of_type(pos, color.other());
        if (enemy_last & ours.attacks).any() {
            s += Score(w.attacks_enemy_last_piece, w.attacks_enemy_last_piece);
        }
    } else {
        // Not to move and a last piece attacked: the opponent simply takes it (search sees it);
        // counted here only mildly so that quiet evaluations stay ordered.
        s -= Score(w.last_piece_attacked, w.last_piece_attacked) * attacked_last;
    }
    // Last pieces standing where enemy pieces can reach attacking squares next move.
    let occupied = pos.occupied();
    for sq in last {
        for role in [Role::Knight, Role::Bishop, Role::Rook] {
            let from_here = piece_attacks(role, color, sq, occupied);
            let enemy = if role == Role::Knight {
                theirs.attacks_by_role[role_index(Role::Knight)]
            } else {
                theirs.attacks_by_role[role_index(role)]
                    | theirs.attacks_by_role[role_index(Role::Queen)]
            };
            if (from_here & enemy & !pos.by_color(color.other())).any() {
                s -= Score(w.last_piece_exposed, w.last_piece_exposed);
            }
        }
    }
    // Non-last pieces attacked and undefended, or attacked by a pawn.
    let loose = pos.by_color(color) & !last & theirs.attacks & !ours.attacks;
    let pawn_hits = pos.by_color(color)
        & !pos.pieces(color, Role::Pawn)
        & !last
        & theirs.attacks_by_role[role_index(Role::Pawn)];
    s -= w.hanging_piece * (loose | pawn_hits).count() as i32;
    s
}

/// Game phase in 0..=MAX_PHASE from the remaining pieces.
fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for role in ROLES {
        p += PHASE_WEIGHT[role_index(role)] * pos.by_role(role).count() as i32;
    }
    p.min(MAX_PHASE)
}

/// Evaluate `pos` with `w` from the side to move's point of view.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let us = pos.turn();
    let them = us.other();
    let info_us = side_info(pos, us);
    let info_them = side_info(pos, them);
    let mut s = pieces_score(pos, us, w) - pieces_score(pos, them, w);
    s += pawn_structure(pos, us, w) - pawn_structure(pos, them, w);
    s += threats(pos, us, &info_us, &info_them, true, w);
    s -= threats(pos, them, &info_them, &info_us, false, w);
    let ph = phase(pos);
    let tapered = (s.0 * ph + s.1 * (MAX_PHASE - ph)) / MAX_PHASE;
    let _ = info_us.attacks;
    tapered + w.tempo
}

/// The weights the engine plays with: the tuner's output (`extinction tune`).
pub const ACTIVE_WEIGHTS: Weights = super::weights_tuned::TUNED_WEIGHTS;

/// Evaluate `pos` with the engine's weights, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &ACTIVE_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).expect("test FEN"))
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        let e = evaluate(&pos);
        assert_eq!(e, ACTIVE_WEIGHTS.tempo);
    }

    #[test]
    fn evaluation_is_symmetric() {
        // Same position mirrored with colours swapped must give the same side-to-move score.
        let a = eval_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b);
    }

    #[test]
    fn last_bishop_worth_more_than_one_of_two() {
        let w = &DEFAULT_WEIGHTS;
        let b = role_index(Role::Bishop);
        let total = |n: i32| w.piece_value[b].0 * n - w.scarcity[b] / (n * n);
        // Losing the second-to-last bishop costs more than a plain bishop's value.
        assert!(total(2) - total(1) > w.piece_value[b].0);
        assert!(total(3) - total(2) < total(2) - total(1));
    }

    #[test]
    fn being_a_bishop_down_is_bad() {
        let full = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let minus = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
        assert!(minus < full - 300, "{minus} vs {full}");
    }
}
