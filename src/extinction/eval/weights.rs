//! The evaluation's weights: [`Score`] (a middle-game / endgame pair), the [`Weights`] table
//! every term of the evaluation reads, and the hand-set [`DEFAULT_WEIGHTS`] the tuner starts from.

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
