//! Compact move encoding and a fixed-capacity move list.

use std::fmt;
use std::mem::MaybeUninit;

use shakmaty::{File, Role, Square};

/// Kind codes stored in the top four bits of a [`Move`].
const KIND_NORMAL: u16 = 0;
const KIND_CASTLE: u16 = 1;
const KIND_EN_PASSANT: u16 = 2;
// Promotions use `KIND_PROMOTION_BASE + role as u16`, role in Knight..=King (2..=6).
const KIND_PROMOTION_BASE: u16 = 1;

/// A move packed into 16 bits: from (6), to (6), kind (4).
///
/// Castling is stored as "king takes own rook" (`to` is the rook square) so that
/// Chess960-style castling is unambiguous; [`fmt::Display`] prints UCI.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The null move (a1a1); never legal, prints as `0000`.
    pub const NULL: Move = Move(0);

    /// A plain move or capture (including pawn pushes).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6 | KIND_NORMAL << 12)
    }

    /// A pawn move to the last rank promoting to `role` (Knight..=King).
    #[inline]
    pub const fn promote(from: Square, to: Square, role: Role) -> Move {
        Move(from as u16 | (to as u16) << 6 | (KIND_PROMOTION_BASE + role as u16) << 12)
    }

    /// An en passant capture; `to` is the destination square of the capturing pawn.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6 | KIND_EN_PASSANT << 12)
    }

    /// A castling move given as king square and rook square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king as u16 | (rook as u16) << 6 | KIND_CASTLE << 12)
    }

    /// Origin square (the king's square for castling).
    #[inline]
    pub const fn from(self) -> Square {
        // SAFETY: masked to 0..64.
        unsafe { Square::new_unchecked((self.0 & 63) as u32) }
    }

    /// Destination square (the rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        // SAFETY: masked to 0..64.
        unsafe { Square::new_unchecked(((self.0 >> 6) & 63) as u32) }
    }

    /// Raw kind code (internal).
    #[inline]
    pub(crate) const fn kind(self) -> u16 {
        self.0 >> 12
    }

    /// Promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            3 => Some(Role::Knight),
            4 => Some(Role::Bishop),
            5 => Some(Role::Rook),
            6 => Some(Role::Queen),
            7 => Some(Role::King),
            _ => None,
        }
    }

    /// Whether this is a castling move.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.kind() == KIND_CASTLE
    }

    /// Whether this is an en passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.kind() == KIND_EN_PASSANT
    }

    /// Whether this is a promotion.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self.kind(), 3..=7)
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 16-bit encoding (for transposition tables).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Rebuild a move from [`Move::to_u16`]; validate with `Position::is_pseudo_legal`.
    #[inline]
    pub const fn from_u16(raw: u16) -> Move {
        Move(raw)
    }

    /// Destination square of the king for a castling move.
    #[inline]
    pub fn castle_king_to(self) -> Square {
        self.castling_square(File::G, File::C)
    }

    /// Destination square of the rook for a castling move.
    #[inline]
    pub fn castle_rook_to(self) -> Square {
        self.castling_square(File::F, File::D)
    }

    /// The square on the castling rank on file `king_side` or `queen_side`, by the side this
    /// castling move goes to.
    #[inline]
    fn castling_square(self, king_side: File, queen_side: File) -> Square {
        let file = if self.to() > self.from() {
            king_side
        } else {
            queen_side
        };
        Square::from_coords(file, self.from().rank())
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8k`, castling `e1g1` (king on the e-file) or king-takes-rook.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        let to = if self.is_castle() && self.from().file() == File::E {
            self.castle_king_to()
        } else {
            self.to()
        };
        write!(f, "{}{}", self.from(), to)?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Maximum number of moves in a list; more than any reachable position needs.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity, stack-allocated list of moves.
///
/// The buffer is left uninitialised past `len` so that creating a list per node costs nothing.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut copy = MoveList::new();
        copy.moves[..self.len].copy_from_slice(&self.moves[..self.len]);
        copy.len = self.len;
        copy
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }

    /// Append a move; silently drops moves beyond capacity (unreachable in legal positions).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Remove all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`; MaybeUninit<Move> has Move's layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Iterate over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether `m` is in the list.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Swap two entries (for move ordering).
    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    #[inline]
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl std::ops::IndexMut<usize> for MoveList {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Move {
        &mut self.as_mut_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
