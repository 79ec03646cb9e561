//! Move generation. Every pseudo-legal move is legal in Extinction chess, so there is no
//! legality filter; a finished position (some type extinct) has no moves at all.

use shakmaty::{
    attacks::{
        bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    },
    Bitboard, Color, Role,
};

use super::position::{code, sq, Position, NO_SQUARE};
use super::types::{Move, MoveList};

const RANK_1: u64 = 0xff;
const RANK_3: u64 = 0xff << 16;
const RANK_6: u64 = 0xff << 40;
const RANK_8: u64 = 0xff << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Promotion roles in the order they are generated (queen first helps move ordering).
pub const PROMOTION_ROLES: [Role; 5] = [
    Role::Queen,
    Role::Knight,
    Role::Rook,
    Role::Bishop,
    Role::King,
];

/// Pawn target sets for one side: (single pushes, double pushes, left captures, right captures).
/// "Left" captures come from the file to the right of the target (shift by 7 for White).
#[inline]
fn pawn_targets(us: Color, pawns: u64, empty: u64, enemies: u64) -> (u64, u64, u64, u64) {
    if us == Color::White {
        let push1 = (pawns << 8) & empty;
        let push2 = ((push1 & RANK_3) << 8) & empty;
        let cap_l = ((pawns & !FILE_A) << 7) & enemies;
        let cap_r = ((pawns & !FILE_H) << 9) & enemies;
        (push1, push2, cap_l, cap_r)
    } else {
        let push1 = (pawns >> 8) & empty;
        let push2 = ((push1 & RANK_6) >> 8) & empty;
        let cap_l = ((pawns & !FILE_A) >> 9) & enemies;
        let cap_r = ((pawns & !FILE_H) >> 7) & enemies;
        (push1, push2, cap_l, cap_r)
    }
}

/// Offsets from target back to origin for (push1, push2, cap_l, cap_r).
#[inline]
const fn pawn_offsets(us: Color) -> (i32, i32, i32, i32) {
    match us {
        Color::White => (-8, -16, -7, -9),
        Color::Black => (8, 16, 9, 7),
    }
}

#[inline]
fn push_pawn_moves(list: &mut MoveList, mut targets: u64, offset: i32, promo_rank: u64) {
    let mut promos = targets & promo_rank;
    targets &= !promo_rank;
    while targets != 0 {
        let to = targets.trailing_zeros();
        targets &= targets - 1;
        list.push(Move::normal(sq((to as i32 + offset) as u32), sq(to)));
    }
    while promos != 0 {
        let to = promos.trailing_zeros();
        promos &= promos - 1;
        let from = sq((to as i32 + offset) as u32);
        for role in PROMOTION_ROLES {
            list.push(Move::promote(from, sq(to), role));
        }
    }
}

#[inline]
fn push_targets(list: &mut MoveList, from: u32, mut targets: u64) {
    while targets != 0 {
        let to = targets.trailing_zeros();
        targets &= targets - 1;
        list.push(Move::normal(sq(from), sq(to)));
    }
}

impl Position {
    #[inline]
    fn promo_rank(&self) -> u64 {
        if self.turn == Color::White {
            RANK_8
        } else {
            RANK_1
        }
    }

    /// Generate moves of non-pawn pieces landing on `target`.
    #[inline]
    fn piece_moves(&self, list: &mut MoveList, target: u64) {
        let us = self.turn as usize;
        let own = self.by_color[us];
        let occ = self.occ();
        let r = &self.by_role;
        let mut bb = own & r[Role::Knight as usize];
        while bb != 0 {
            let from = bb.trailing_zeros();
            bb &= bb - 1;
            push_targets(list, from, knight_attacks(sq(from)).0 & target);
        }
        let mut bb = own & r[Role::Bishop as usize];
        while bb != 0 {
            let from = bb.trailing_zeros();
            bb &= bb - 1;
            push_targets(
                list,
                from,
                bishop_attacks(sq(from), Bitboard(occ)).0 & target,
            );
        }
        let mut bb = own & r[Role::Rook as usize];
        while bb != 0 {
            let from = bb.trailing_zeros();
            bb &= bb - 1;
            push_targets(list, from, rook_attacks(sq(from), Bitboard(occ)).0 & target);
        }
        let mut bb = own & r[Role::Queen as usize];
        while bb != 0 {
            let from = bb.trailing_zeros();
            bb &= bb - 1;
            push_targets(
                list,
                from,
                queen_attacks(sq(from), Bitboard(occ)).0 & target,
            );
        }
        let mut bb = own & r[Role::King as usize];
        while bb != 0 {
            let from = bb.trailing_zeros();
            bb &= bb - 1;
            push_targets(list, from, king_attacks(sq(from)).0 & target);
        }
    }

    #[inline]
    fn en_passant_moves(&self, list: &mut MoveList) {
        if self.ep != NO_SQUARE {
            let ep = sq(self.ep as u32);
            let mut bb = pawn_attacks(self.turn.other(), ep).0
                & self.by_color[self.turn as usize]
                & self.by_role[Role::Pawn as usize];
            while bb != 0 {
                let from = bb.trailing_zeros();
                bb &= bb - 1;
                list.push(Move::en_passant(sq(from), ep));
            }
        }
    }

    /// Castling moves available now (rights present and path empty).
    #[inline]
    fn castling_moves(&self, list: &mut MoveList) {
        let base = (self.turn as usize) * 2;
        let occ = self.occ();
        for idx in base..base + 2 {
            if self.castling & (1 << idx) != 0 && self.castle.path[idx] & occ == 0 {
                let king = sq(self.castle.king[self.turn as usize] as u32);
                let rook = sq(self.castle.rook[idx] as u32);
                list.push(Move::castle(king, rook));
            }
        }
    }

    /// All legal moves (none if the game is finished by extinction).
    pub fn generate_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.status != 0 {
            return;
        }
        let us = self.turn;
        let own = self.by_color[us as usize];
        let enemies = self.by_color[us.other() as usize];
        let empty = !self.occ();
        let pawns = own & self.by_role[Role::Pawn as usize];
        let (p1, p2, cl, cr) = pawn_targets(us, pawns, empty, enemies);
        let (o1, o2, ol, or) = pawn_offsets(us);
        let promo = self.promo_rank();
        push_pawn_moves(list, cl, ol, promo);
        push_pawn_moves(list, cr, or, promo);
        self.en_passant_moves(list);
        push_pawn_moves(list, p1, o1, promo);
        push_pawn_moves(list, p2, o2, 0);
        self.piece_moves(list, !own);
        self.castling_moves(list);
    }

    /// Captures (en passant included) and all promotions, for quiescence search.
    pub fn generate_captures(&self, list: &mut MoveList) {
        list.clear();
        if self.status != 0 {
            return;
        }
        let us = self.turn;
        let own = self.by_color[us as usize];
        let enemies = self.by_color[us.other() as usize];
        let empty = !self.occ();
        let pawns = own & self.by_role[Role::Pawn as usize];
        let promo = self.promo_rank();
        let (p1, _, cl, cr) = pawn_targets(us, pawns, empty, enemies);
        let (o1, _, ol, or) = pawn_offsets(us);
        push_pawn_moves(list, cl, ol, promo);
        push_pawn_moves(list, cr, or, promo);
        self.en_passant_moves(list);
        push_pawn_moves(list, p1 & promo, o1, promo);
        self.piece_moves(list, enemies);
    }

    /// Number of legal moves, counted with popcounts (no move list, no make).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.status != 0 {
            return 0;
        }
        let us = self.turn;
        let own = self.by_color[us as usize];
        let enemies = self.by_color[us.other() as usize];
        let occ = self.occ();
        let empty = !occ;
        let target = !own;
        let r = &self.by_role;
        let promo = self.promo_rank();
        let pawns = own & r[Role::Pawn as usize];
        let (p1, p2, cl, cr) = pawn_targets(us, pawns, empty, enemies);
        let mut n = (p1 & !promo).count_ones()
            + p2.count_ones()
            + (cl & !promo).count_ones()
            + (cr & !promo).count_ones()
            + 5 * ((p1 & promo).count_ones()
                + (cl & promo).count_ones()
                + (cr & promo).count_ones());
        if self.ep != NO_SQUARE {
            n += (pawn_attacks(us.other(), sq(self.ep as u32)).0 & pawns).count_ones();
        }
        let mut bb = own & r[Role::Knight as usize];
        while bb != 0 {
            n += (knight_attacks(sq(bb.trailing_zeros())).0 & target).count_ones();
            bb &= bb - 1;
        }
        let mut bb = own & r[Role::King as usize];
        while bb != 0 {
            n += (king_attacks(sq(bb.trailing_zeros())).0 & target).count_ones();
            bb &= bb - 1;
        }
        let mut bb = own & (r[Role::Bishop as usize] | r[Role::Queen as usize]);
        while bb != 0 {
            n += (bishop_attacks(sq(bb.trailing_zeros()), Bitboard(occ)).0 & target).count_ones();
            bb &= bb - 1;
        }
        let mut bb = own & (r[Role::Rook as usize] | r[Role::Queen as usize]);
        while bb != 0 {
            n += (rook_attacks(sq(bb.trailing_zeros()), Bitboard(occ)).0 & target).count_ones();
            bb &= bb - 1;
        }
        let base = (us as usize) * 2;
        for idx in base..base + 2 {
            if self.castling & (1 << idx) != 0 && self.castle.path[idx] & occ == 0 {
                n += 1;
            }
        }
        n as u64
    }

    /// Whether `m` is a legal move here (cheap check for hash and killer moves).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if self.status != 0 || m.is_null() || m.kind() > 7 {
            return false;
        }
        let us = self.turn;
        let from = m.from() as u32;
        let to = m.to() as u32;
        let mover = self.board[from as usize];
        if mover == 0 || (mover >> 3) != us as u8 {
            return false;
        }
        let own = self.by_color[us as usize];
        let occ = self.occ();
        if m.is_castle() {
            let base = (us as usize) * 2;
            return (base..base + 2).any(|idx| {
                self.castling & (1 << idx) != 0
                    && self.castle.king[us as usize] as u32 == from
                    && self.castle.rook[idx] as u32 == to
                    && self.castle.path[idx] & occ == 0
            });
        }
        let to_bb = 1u64 << to;
        if m.is_en_passant() {
            return mover == code(us, Role::Pawn)
                && self.ep as u32 == to
                && pawn_attacks(us, sq(from)).0 & to_bb != 0;
        }
        if own & to_bb != 0 {
            return false;
        }
        let role = mover & 7;
        if role == Role::Pawn as u8 {
            if (self.promo_rank() & to_bb != 0) != m.is_promotion() {
                return false;
            }
            let enemies = self.by_color[us.other() as usize];
            let (p1, p2, cl, cr) = pawn_targets(us, 1u64 << from, !occ, enemies);
            return (p1 | p2 | cl | cr) & to_bb != 0;
        }
        if m.is_promotion() {
            return false;
        }
        let attacks = match role {
            2 => knight_attacks(sq(from)).0,
            3 => bishop_attacks(sq(from), Bitboard(occ)).0,
            4 => rook_attacks(sq(from), Bitboard(occ)).0,
            5 => queen_attacks(sq(from), Bitboard(occ)).0,
            _ => king_attacks(sq(from)).0,
        };
        attacks & to_bb != 0
    }
}
