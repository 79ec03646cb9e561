//! The board state of an Extinction chess game, with incremental make/unmake.
//!
//! Kings are ordinary pieces: there is no check, so move generation needs no legality
//! filter. A position where some piece type of either side is extinct is finished and
//! has no moves.

use shakmaty::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks},
    Bitboard, CastlingSide, Color, File, Piece, Rank, Role, Square,
};

use super::types::Move;
use super::zobrist;

/// Sentinel for "no square" in compact fields.
pub(crate) const NO_SQUARE: u8 = 64;

/// All six roles, in the order used for reporting extinctions.
pub const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Index of a role in per-role tables (pawn 0 .. king 5), the order of [`ROLES`].
#[inline]
pub fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Index of a castling right: color (Black 0, White 1) times two plus side (king 0, queen 1).
#[inline]
pub(crate) const fn right_index(color: Color, side: CastlingSide) -> usize {
    (color as usize) * 2
        + match side {
            CastlingSide::KingSide => 0,
            CastlingSide::QueenSide => 1,
        }
}

/// Castling geometry fixed when the position is set up (king and rook start squares).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CastlingConfig {
    /// Castling king square per color (NO_SQUARE if none).
    pub king: [u8; 2],
    /// Rook square per right (NO_SQUARE if the right was never granted).
    pub rook: [u8; 4],
    /// Squares that must be empty (other than king and rook) per right.
    pub path: [u64; 4],
    /// Rights lost when a move starts or ends on a square.
    pub mask: [u8; 64],
}

impl CastlingConfig {
    /// No castling at all.
    pub const fn empty() -> CastlingConfig {
        CastlingConfig {
            king: [NO_SQUARE; 2],
            rook: [NO_SQUARE; 4],
            path: [0; 4],
            mask: [0; 64],
        }
    }

    /// Grant `color` the right to castle with the king on `king` and the rook on `rook`.
    pub fn add(&mut self, color: Color, king: Square, rook: Square) -> usize {
        let side = if rook > king {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        let idx = right_index(color, side);
        let rank = king.rank();
        let (kto, rto) = match side {
            CastlingSide::KingSide => (
                Square::from_coords(File::G, rank),
                Square::from_coords(File::F, rank),
            ),
            CastlingSide::QueenSide => (
                Square::from_coords(File::C, rank),
                Square::from_coords(File::D, rank),
            ),
        };
        let path = shakmaty::attacks::between(king, kto)
            | shakmaty::attacks::between(rook, rto)
            | Bitboard::from_square(kto)
            | Bitboard::from_square(rto);
        self.king[color as usize] = king as u8;
        self.rook[idx] = rook as u8;
        self.path[idx] = path.0 & !(1u64 << king as u32) & !(1u64 << rook as u32);
        self.mask[king as usize] |= 1 << idx;
        self.mask[rook as usize] |= 1 << idx;
        idx
    }
}

/// What [`Position::do_move`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    key: u64,
    halfmove: u32,
    captured: u8,
    castling: u8,
    ep: u8,
    status: u8,
}

/// An Extinction chess position.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// Mailbox: 0 empty, else `color << 3 | role`.
    pub(crate) board: [u8; 64],
    pub(crate) by_color: [u64; 2],
    /// Indexed by `Role as usize` (1..=6); slot 0 unused.
    pub(crate) by_role: [u64; 7],
    pub(crate) turn: Color,
    /// Bit set of castling right indices still available.
    pub(crate) castling: u8,
    /// En passant target square (only when a capture is possible), or NO_SQUARE.
    pub(crate) ep: u8,
    /// Bit `1 << color` set when that color has an extinct piece type.
    pub(crate) status: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmoves: u32,
    pub(crate) key: u64,
    pub(crate) castle: CastlingConfig,
}

#[inline]
pub(crate) const fn code(color: Color, role: Role) -> u8 {
    (color as u8) << 3 | role as u8
}

#[inline]
pub(crate) fn decode(code: u8) -> Piece {
    let color = if code & 8 != 0 {
        Color::White
    } else {
        Color::Black
    };
    Piece {
        color,
        role: role_from_index(code & 7),
    }
}

#[inline]
pub(crate) fn role_from_index(i: u8) -> Role {
    match i {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        _ => Role::King,
    }
}

#[inline]
pub(crate) fn sq(i: u32) -> Square {
    // SAFETY: callers pass indices taken from bitboards or masked values (< 64).
    debug_assert!(i < 64);
    unsafe { Square::new_unchecked(i) }
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// An empty board, White to move, no rights (internal building block).
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; 64],
            by_color: [0; 2],
            by_role: [0; 7],
            turn: Color::White,
            castling: 0,
            ep: NO_SQUARE,
            status: 0,
            halfmove: 0,
            fullmoves: 1,
            key: 0,
            castle: CastlingConfig::empty(),
        }
    }

    /// The orthodox start position.
    pub fn startpos() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("start position FEN is valid")
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Piece on a square.
    #[inline]
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        let c = self.board[s as usize];
        if c == 0 {
            None
        } else {
            Some(decode(c))
        }
    }

    /// All pieces of a color.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color as usize])
    }

    /// All pieces of a role, both colors.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        Bitboard(self.by_role[role as usize])
    }

    /// Pieces of one color and role.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        Bitboard(self.by_color[color as usize] & self.by_role[role as usize])
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ())
    }

    #[inline]
    pub(crate) fn occ(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// Number of pieces of one color and role.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u32 {
        (self.by_color[color as usize] & self.by_role[role as usize]).count_ones()
    }

    /// Incrementally maintained Polyglot Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Halfmoves since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Fullmove number (starts at 1, incremented after Black's move).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// En passant target square, present only if a capture there is possible.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        if self.ep == NO_SQUARE {
            None
        } else {
            Some(sq(self.ep as u32))
        }
    }

    /// Whether `color` has a piece type with no pieces left.
    #[inline]
    pub fn has_extinct_type(&self, color: Color) -> bool {
        self.status & (1 << color as u8) != 0
    }

    /// Whether the game is over by extinction (then there are no moves).
    #[inline]
    pub fn is_finished(&self) -> bool {
        self.status != 0
    }

    /// The first extinct role of `color` in [`ROLES`] order, if any.
    pub fn extinct_role(&self, color: Color) -> Option<Role> {
        ROLES.into_iter().find(|&r| self.count(color, r) == 0)
    }

    /// Castling rook squares still available to `color` (for display and search).
    pub fn castling_rooks(&self, color: Color) -> Bitboard {
        let mut bb = 0u64;
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let idx = right_index(color, side);
            if self.castling & (1 << idx) != 0 {
                bb |= 1u64 << self.castle.rook[idx];
            }
        }
        Bitboard(bb)
    }

    /// Pieces of `color` attacking `target` given the occupancy `occupied`.
    #[inline]
    pub fn attackers_to(&self, target: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[color as usize];
        let r = &self.by_role;
        let diag = r[Role::Bishop as usize] | r[Role::Queen as usize];
        let orth = r[Role::Rook as usize] | r[Role::Queen as usize];
        let bb = (pawn_attacks(color.other(), target).0 & r[Role::Pawn as usize])
            | (knight_attacks(target).0 & r[Role::Knight as usize])
            | (king_attacks(target).0 & r[Role::King as usize])
            | (bishop_attacks(target, occupied).0 & diag)
            | (rook_attacks(target, occupied).0 & orth);
        Bitboard(bb & them)
    }

    /// Whether `m` captures something (en passant included, castling excluded).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && self.board[m.to() as usize] != 0)
    }

    /// Role captured by `m`, if any.
    #[inline]
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if m.is_en_passant() {
            Some(Role::Pawn)
        } else if m.is_castle() {
            None
        } else {
            let c = self.board[m.to() as usize];
            if c == 0 {
                None
            } else {
                Some(role_from_index(c & 7))
            }
        }
    }

    /// Role of the piece making `m` (the king for castling).
    #[inline]
    pub fn moved_role(&self, m: Move) -> Role {
        role_from_index(self.board[m.from() as usize] & 7)
    }

    /// Put a piece on an empty square, updating the key.
    #[inline]
    pub(crate) fn put(&mut self, c: u8, s: u32) {
        let bb = 1u64 << s;
        self.board[s as usize] = c;
        self.by_color[(c >> 3) as usize] |= bb;
        self.by_role[(c & 7) as usize] |= bb;
        self.key ^= zobrist::piece_key(decode(c), sq(s));
    }

    /// Remove the piece standing on `s`, updating the key; returns its code.
    #[inline]
    pub(crate) fn remove(&mut self, s: u32) -> u8 {
        let c = self.board[s as usize];
        let bb = 1u64 << s;
        self.board[s as usize] = 0;
        self.by_color[(c >> 3) as usize] ^= bb;
        self.by_role[(c & 7) as usize] ^= bb;
        self.key ^= zobrist::piece_key(decode(c), sq(s));
        c
    }

    /// Put without touching the key (unmake path).
    #[inline]
    fn put_raw(&mut self, c: u8, s: u32) {
        let bb = 1u64 << s;
        self.board[s as usize] = c;
        self.by_color[(c >> 3) as usize] |= bb;
        self.by_role[(c & 7) as usize] |= bb;
    }

    /// Remove without touching the key (unmake path).
    #[inline]
    fn remove_raw(&mut self, s: u32) -> u8 {
        let c = self.board[s as usize];
        let bb = 1u64 << s;
        self.board[s as usize] = 0;
        self.by_color[(c >> 3) as usize] ^= bb;
        self.by_role[(c & 7) as usize] ^= bb;
        c
    }

    /// Key contribution of a set of castling rights.
    pub(crate) fn castling_rights_key(rights: u8) -> u64 {
        let mut k = 0;
        for (idx, (color, side)) in [
            (Color::Black, CastlingSide::KingSide),
            (Color::Black, CastlingSide::QueenSide),
            (Color::White, CastlingSide::KingSide),
            (Color::White, CastlingSide::QueenSide),
        ]
        .into_iter()
        .enumerate()
        {
            if rights & (1 << idx) != 0 {
                k ^= zobrist::castling_key(color, side);
            }
        }
        k
    }

    /// Recompute the extinction status from the bitboards.
    pub(crate) fn compute_status(&self) -> u8 {
        let mut st = 0;
        for color in [Color::Black, Color::White] {
            if ROLES.iter().any(|&r| self.count(color, r) == 0) {
                st |= 1 << color as u8;
            }
        }
        st
    }

    /// Recompute the Zobrist key from scratch (used after setup and in tests).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for s in 0..64u32 {
            let c = self.board[s as usize];
            if c != 0 {
                k ^= zobrist::piece_key(decode(c), sq(s));
            }
        }
        if self.turn == Color::White {
            k ^= zobrist::white_turn_key();
        }
        k ^= Self::castling_rights_key(self.castling);
        if self.ep != NO_SQUARE {
            k ^= zobrist::en_passant_key(sq(self.ep as u32).file());
        }
        k
    }

    /// Play a move (assumed pseudo-legal, see [`Position::is_pseudo_legal`]); returns what
    /// [`Position::undo_move`] needs.
    #[inline]
    pub fn do_move(&mut self, m: Move) -> Undo {
        let us = self.turn;
        let them = us.other();
        let from = m.from() as u32;
        let to = m.to() as u32;
        let undo = self.begin_move(if m.is_castle() {
            0
        } else {
            self.board[to as usize]
        });

        if m.is_castle() {
            let king = self.remove(from);
            let rook = self.remove(to);
            self.put(king, m.castle_king_to() as u32);
            self.put(rook, m.castle_rook_to() as u32);
        } else {
            if undo.captured != 0 {
                self.remove(to);
                self.halfmove = 0;
                let role = (undo.captured & 7) as usize;
                if self.by_color[them as usize] & self.by_role[role] == 0 {
                    self.status |= 1 << them as u8;
                }
            }
            let mover = self.remove(from);
            if mover & 7 == Role::Pawn as u8 {
                self.halfmove = 0;
                if let Some(role) = m.promotion() {
                    self.put(code(us, role), to);
                    if self.by_color[us as usize] & self.by_role[Role::Pawn as usize] == 0 {
                        self.status |= 1 << us as u8;
                    }
                } else {
                    self.put(mover, to);
                    if m.is_en_passant() {
                        let cap = if us == Color::White { to - 8 } else { to + 8 };
                        self.remove(cap);
                        if self.by_color[them as usize] & self.by_role[Role::Pawn as usize] == 0 {
                            self.status |= 1 << them as u8;
                        }
                    } else if from ^ to == 16 {
                        let mid = (from + to) / 2;
                        if pawn_attacks(us, sq(mid)).0
                            & self.by_color[them as usize]
                            & self.by_role[Role::Pawn as usize]
                            != 0
                        {
                            self.ep = mid as u8;
                            self.key ^= zobrist::en_passant_key(sq(mid).file());
                        }
                    }
                }
            } else {
                self.put(mover, to);
            }
        }

        let lost = self.castle.mask[from as usize] | self.castle.mask[to as usize];
        if self.castling & lost != 0 {
            self.key ^= Self::castling_rights_key(self.castling & lost);
            self.castling &= !lost;
        }
        self.pass_turn();
        undo
    }

    /// Take back `m`, which must be the last move played, with the [`Undo`] it returned.
    #[inline]
    pub fn undo_move(&mut self, m: Move, undo: Undo) {
        self.take_turn_back();
        let us = self.turn;
        let them = us.other();
        let from = m.from() as u32;
        let to = m.to() as u32;
        if m.is_castle() {
            let king = self.remove_raw(m.castle_king_to() as u32);
            let rook = self.remove_raw(m.castle_rook_to() as u32);
            self.put_raw(king, from);
            self.put_raw(rook, to);
        } else {
            let moved = self.remove_raw(to);
            let original = if m.is_promotion() {
                code(us, Role::Pawn)
            } else {
                moved
            };
            self.put_raw(original, from);
            if undo.captured != 0 {
                self.put_raw(undo.captured, to);
            } else if m.is_en_passant() {
                let cap = if us == Color::White { to - 8 } else { to + 8 };
                self.put_raw(code(them, Role::Pawn), cap);
            }
        }
        self.restore(undo);
    }

    /// Pass the turn (for null-move pruning); clears the en passant square.
    #[inline]
    pub fn do_null_move(&mut self) -> Undo {
        let undo = self.begin_move(0);
        self.pass_turn();
        undo
    }

    /// Take back a null move.
    #[inline]
    pub fn undo_null_move(&mut self, undo: Undo) {
        self.take_turn_back();
        self.restore(undo);
    }

    /// First steps of a move or a null move: remember what is restored on taking it back
    /// (with `captured`, the code of the piece it takes), clear the en passant square and
    /// count the half-move.
    #[inline]
    fn begin_move(&mut self, captured: u8) -> Undo {
        let undo = Undo {
            key: self.key,
            halfmove: self.halfmove,
            captured,
            castling: self.castling,
            ep: self.ep,
            status: self.status,
        };
        if self.ep != NO_SQUARE {
            self.key ^= zobrist::en_passant_key(sq(self.ep as u32).file());
            self.ep = NO_SQUARE;
        }
        self.halfmove += 1;
        undo
    }

    /// Last step of a move or a null move: the other side is to move.
    #[inline]
    fn pass_turn(&mut self) {
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.other();
        self.key ^= zobrist::white_turn_key();
    }

    /// First step of taking a move back: the side that made it is to move again.
    #[inline]
    fn take_turn_back(&mut self) {
        self.turn = self.turn.other();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
    }

    /// Last step of taking a move back: the fields the move changed besides the pieces.
    #[inline]
    fn restore(&mut self, undo: Undo) {
        self.key = undo.key;
        self.halfmove = undo.halfmove;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.status = undo.status;
    }

    /// Position after `m`, leaving `self` untouched.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.do_move(m);
        p
    }

    /// Back rank of `color` as a bitboard (helper for castling setup).
    pub(crate) fn back_rank(color: Color) -> u64 {
        Bitboard::from_rank(if color == Color::White {
            Rank::First
        } else {
            Rank::Eighth
        })
        .0
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}
