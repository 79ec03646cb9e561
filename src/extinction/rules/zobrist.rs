//! Polyglot Zobrist keys (taken from shakmaty's tables, so the start position hashes to
//! 0x463b96181691fc9c like every Polyglot book).

use shakmaty::{
    zobrist::{Zobrist64, ZobristValue},
    CastlingSide, Color, File, Piece, Square,
};

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    Zobrist64::zobrist_for_piece(sq, piece).0
}

/// Key toggled when White is to move.
#[inline]
pub fn white_turn_key() -> u64 {
    Zobrist64::zobrist_for_white_turn().0
}

/// Key of one castling right.
#[inline]
pub fn castling_key(color: Color, side: CastlingSide) -> u64 {
    Zobrist64::zobrist_for_castling_right(color, side).0
}

/// Key of an en passant file (only hashed when a capture is possible, as in Polyglot).
#[inline]
pub fn en_passant_key(file: File) -> u64 {
    Zobrist64::zobrist_for_en_passant_file(file).0
}
