//! The Extinction analogue of check: which squares a side attacks, which of its pieces are the
//! last of their type, and whether such a piece can be captured (which ends the game at once).
//! Search, evaluation and the data tools ask these questions; none of them decides anything.

use shakmaty::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use shakmaty::{Bitboard, Color, Role, Square};

use super::position::{Position, ROLES};
use super::types::Move;

/// Squares attacked by one piece of `role` and `color` on `sq`.
#[inline]
pub fn piece_attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares attacked by all pieces of `color`.
pub fn attacked_by(pos: &Position, color: Color) -> Bitboard {
    let occupied = pos.occupied();
    let mut bb = Bitboard::EMPTY;
    for role in ROLES {
        for sq in pos.pieces(color, role) {
            bb |= piece_attacks(role, color, sq, occupied);
        }
    }
    bb
}

/// Own pieces that are the last of their type.
pub fn last_of_type(pos: &Position, color: Color) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for role in ROLES {
        let pieces = pos.pieces(color, role);
        if pieces.count() == 1 {
            bb |= pieces;
        }
    }
    bb
}

/// Whether the side to move can capture a last-of-type enemy piece (that wins at once).
pub fn can_capture_last_piece(pos: &Position) -> bool {
    let us = pos.turn();
    let occupied = pos.occupied();
    for sq in last_of_type(pos, us.other()) {
        if pos.attackers_to(sq, us, occupied).any() {
            return true;
        }
    }
    false
}

/// Own last-of-type pieces attacked by the opponent.
pub fn threatened_last_pieces(pos: &Position, color: Color) -> Bitboard {
    let occupied = pos.occupied();
    let mut bb = Bitboard::EMPTY;
    for sq in last_of_type(pos, color) {
        if pos.attackers_to(sq, color.other(), occupied).any() {
            bb.add(sq);
        }
    }
    bb
}

/// Whether move `m` attacks, from its destination, one of `targets` other than the square it
/// lands on. With the enemy's last-of-type pieces as targets (the search finds them once per
/// node) this is the analogue of giving check; discovered attacks are not counted.
pub fn attacks_from_destination(pos: &Position, m: Move, targets: Bitboard) -> bool {
    if m.is_castle() {
        return false;
    }
    let (from, to) = (m.from(), m.to());
    let role = m.promotion().unwrap_or_else(|| pos.moved_role(m));
    let occupied = (pos.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    (piece_attacks(role, pos.turn(), to, occupied) & targets & !Bitboard::from(to)).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_pieces_and_their_attackers() {
        // Black's only bishop on d5 is attacked by White's e4 pawn; White's lone queen is safe.
        let pos =
            Position::from_fen("rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
                .expect("fen");
        assert!(last_of_type(&pos, Color::Black).contains(Square::D5));
        assert!(!last_of_type(&pos, Color::Black).contains(Square::B8));
        assert!(can_capture_last_piece(&pos));
        assert_eq!(
            threatened_last_pieces(&pos, Color::Black),
            Bitboard::from_square(Square::D5)
        );
        assert!(threatened_last_pieces(&pos, Color::White).is_empty());
        assert!(attacked_by(&pos, Color::White).contains(Square::D5));
        assert!(!attacked_by(&pos, Color::White).contains(Square::D6));
    }

    fn threatens_last_piece(pos: &Position, m: Move) -> bool {
        attacks_from_destination(pos, m, last_of_type(pos, pos.turn().other()))
    }

    #[test]
    fn moves_that_attack_a_last_piece() {
        // Black's only queen stands on d4; Black has eight pawns and two knights.
        let pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/3q4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("fen");
        let threatens = |from, to| threatens_last_piece(&pos, Move::normal(from, to));
        assert!(threatens(Square::G1, Square::F3));
        assert!(threatens(Square::E2, Square::E3));
        assert!(!threatens(Square::B1, Square::A3));
        assert!(!threatens(Square::A2, Square::A3));
        // Attacking two of eight pawns is no threat; the knight then attacks neither the lone
        // king nor the lone queen.
        let pawns =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/1N6/PPPPPPPP/R1BQKBNR w KQkq - 0 1")
                .expect("fen");
        assert!(!threatens_last_piece(
            &pawns,
            Move::normal(Square::B3, Square::C5)
        ));
    }
}
