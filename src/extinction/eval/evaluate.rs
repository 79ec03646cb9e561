//! Static evaluation for Extinction chess with a given set of [`Weights`], from the side to
//! move's point of view. Terms: scarcity-aware material (a piece is worth more the fewer of its
//! type remain: the last one is nearly the game), threats against last-of-type pieces,
//! piece-square tables, mobility and pawn structure, tapered between middle game and endgame.
//! Every term is a count times a weight, which is what lets the tuner fit them.

use shakmaty::{Bitboard, Color, Role};

use super::weights::{Score, Weights};
use crate::extinction::rules::position::{role_index, Position, ROLES};
use crate::extinction::rules::threats::{last_of_type, piece_attacks};

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
    tapered + w.tempo
}
