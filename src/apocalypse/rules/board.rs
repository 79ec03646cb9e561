//! The compact Apocalypse board: two 25-bit masks per side, penalties, quiet counter, turn.

use super::zobrist;

/// A square index 0..25: `rank * 5 + file`, a1 = 0, e5 = 24.
pub type Square = u8;

/// Marks "no square" in move fields.
pub const NO_SQUARE: Square = 255;

/// Number of squares on the board.
pub const SQUARES: usize = 25;

/// Mask of all 25 squares.
pub const ALL: u32 = (1 << 25) - 1;

/// The two players; White moves up the board, Black down.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The player starting on ranks 1-2.
    White = 0,
    /// The player starting on ranks 4-5.
    Black = 1,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// Index 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The rank (0-based) a footman of this side may never stand on.
    pub fn last_rank(self) -> u8 {
        match self {
            Side::White => 4,
            Side::Black => 0,
        }
    }

    /// Name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// The two piece types.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// Moves like a chess pawn without double step.
    Footman,
    /// Moves like a chess knight.
    Horseman,
}

impl Piece {
    /// Name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Piece::Footman => "footman",
            Piece::Horseman => "horseman",
        }
    }
}

/// File (0..5) of a square.
pub fn file_of(sq: Square) -> u8 {
    sq % 5
}

/// Rank (0..5) of a square.
pub fn rank_of(sq: Square) -> u8 {
    sq / 5
}

/// Square from file and rank.
pub fn square(file: u8, rank: u8) -> Square {
    rank * 5 + file
}

/// Algebraic name of a square, e.g. `c2`.
pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + file_of(sq)) as char, rank_of(sq) + 1)
}

/// The square seen from the other side (ranks flipped, files kept).
pub fn mirror_square(sq: Square) -> Square {
    square(file_of(sq), 4 - rank_of(sq))
}

/// Mask of one rank.
pub fn rank_mask(rank: u8) -> u32 {
    0b11111 << (rank * 5)
}

/// Knight targets from every square.
pub const KNIGHT_ATTACKS: [u32; SQUARES] = knight_table();

const fn knight_table() -> [u32; SQUARES] {
    let mut table = [0u32; SQUARES];
    let jumps: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut sq = 0;
    while sq < SQUARES {
        let f = (sq % 5) as i32;
        let r = (sq / 5) as i32;
        let mut k = 0;
        while k < 8 {
            let nf = f + jumps[k].0;
            let nr = r + jumps[k].1;
            if nf >= 0 && nf < 5 && nr >= 0 && nr < 5 {
                table[sq] |= 1 << (nr * 5 + nf);
            }
            k += 1;
        }
        sq += 1;
    }
    table
}

/// A position: piece masks per side, penalty points, quiet-turn counter, turn number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Footmen of White and Black.
    pub footmen: [u32; 2],
    /// Horsemen of White and Black.
    pub horsemen: [u32; 2],
    /// Penalty points of White and Black.
    pub penalties: [u8; 2],
    /// Consecutive quiet turns (rule 4.4): no piece removed, no footman move executed, no
    /// penalty.
    pub quiet: u8,
    /// Turn number, starting at 1.
    pub turn: u32,
    /// Zobrist key of pieces and penalties (the quiet counter and turn are keyed separately).
    pub key: u64,
}

impl Position {
    /// The start position `npppn/p3p/5/P3P/NPPPN 00 0 1`.
    pub fn start() -> Position {
        let white_footmen = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5) | (1 << 9);
        let white_horsemen = (1 << 0) | (1 << 4);
        let mut pos = Position {
            footmen: [white_footmen, mirror_mask(white_footmen)],
            horsemen: [white_horsemen, mirror_mask(white_horsemen)],
            penalties: [0, 0],
            quiet: 0,
            turn: 1,
            key: 0,
        };
        pos.refresh_key();
        pos
    }

    /// An empty board (used by the parser and tests).
    pub fn empty() -> Position {
        Position {
            footmen: [0; 2],
            horsemen: [0; 2],
            penalties: [0; 2],
            quiet: 0,
            turn: 1,
            key: 0,
        }
    }

    /// Recompute the Zobrist key of pieces and penalty points from scratch.
    pub fn refresh_key(&mut self) {
        let mut key = 0;
        for side in Side::BOTH {
            let s = side.index();
            for sq in squares_of(self.footmen[s]) {
                key ^= zobrist::piece_key(s, false, sq);
            }
            for sq in squares_of(self.horsemen[s]) {
                key ^= zobrist::piece_key(s, true, sq);
            }
            key ^= zobrist::penalty_key(s, self.penalties[s]);
        }
        self.key = key;
    }

    /// All pieces of one side.
    pub fn pieces(&self, side: Side) -> u32 {
        self.footmen[side.index()] | self.horsemen[side.index()]
    }

    /// All pieces on the board.
    pub fn occupied(&self) -> u32 {
        self.pieces(Side::White) | self.pieces(Side::Black)
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(Side, Piece)> {
        let bit = 1u32 << sq;
        for side in Side::BOTH {
            if self.footmen[side.index()] & bit != 0 {
                return Some((side, Piece::Footman));
            }
            if self.horsemen[side.index()] & bit != 0 {
                return Some((side, Piece::Horseman));
            }
        }
        None
    }

    /// Put a piece on an empty square (does not update the key).
    pub fn put(&mut self, side: Side, piece: Piece, sq: Square) {
        let bit = 1u32 << sq;
        match piece {
            Piece::Footman => self.footmen[side.index()] |= bit,
            Piece::Horseman => self.horsemen[side.index()] |= bit,
        }
    }

    /// Remove whatever stands on a square for one side (does not update the key).
    pub fn clear(&mut self, side: Side, sq: Square) {
        let bit = !(1u32 << sq);
        self.footmen[side.index()] &= bit;
        self.horsemen[side.index()] &= bit;
    }

    /// Number of horsemen of one side.
    pub fn horseman_count(&self, side: Side) -> u32 {
        self.horsemen[side.index()].count_ones()
    }

    /// Number of footmen of one side.
    pub fn footman_count(&self, side: Side) -> u32 {
        self.footmen[side.index()].count_ones()
    }

    /// The same position with colours swapped and the board flipped.
    pub fn mirrored(&self) -> Position {
        let mut pos = Position {
            footmen: [mirror_mask(self.footmen[1]), mirror_mask(self.footmen[0])],
            horsemen: [mirror_mask(self.horsemen[1]), mirror_mask(self.horsemen[0])],
            penalties: [self.penalties[1], self.penalties[0]],
            quiet: self.quiet,
            turn: self.turn,
            key: 0,
        };
        pos.refresh_key();
        pos
    }
}

/// Flip a mask's ranks.
pub fn mirror_mask(mask: u32) -> u32 {
    let mut out = 0;
    for rank in 0..5 {
        let row = (mask >> (rank * 5)) & 0b11111;
        out |= row << ((4 - rank) * 5);
    }
    out
}

/// Iterate the squares of a mask, lowest first.
pub fn squares_of(mut mask: u32) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let sq = mask.trailing_zeros() as Square;
            mask &= mask - 1;
            Some(sq)
        }
    })
}
