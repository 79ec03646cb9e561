//! Evaluation weights written by `extinction tune` (do not edit by hand).
//!
//! Tuned on 206585 positions from selfplay.txt, selfplay2.txt, fsf.txt (300 epochs, rate 2, prior 0.0000001, K 0.583).

use super::evaluate::{Score, Weights};

/// The weights the evaluation uses.
#[rustfmt::skip]
pub const TUNED_WEIGHTS: Weights = Weights {
    piece_value: [Score(58, 105), Score(341, 308), Score(378, 326), Score(414, 511), Score(900, 920), Score(250, 300)],
    scarcity: [300, 229, 248, 171, 350, 350],
    last_piece_attacked: 60,
    last_pieces_forked: 500,
    attacks_enemy_last_piece: 800,
    last_piece_exposed: 17,
    hanging_piece: Score(44, 31),
    mobility: [Score(0, 0), Score(-3, 18), Score(9, 17), Score(16, -29), Score(5, 26), Score(-17, 8)],
    passed_pawn: [Score(0, 0), Score(3, 11), Score(2, 16), Score(25, 31), Score(12, 48), Score(46, 84), Score(72, 119), Score(0, 0)],
    doubled_pawn: Score(-14, 23),
    isolated_pawn: Score(18, 14),
    tempo: 15,
    psqt: [
        [
            Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
            Score(-22, 6), Score(-12, 11), Score(-19, 12), Score(9, -13), Score(10, -10), Score(-10, 7), Score(8, 11), Score(-9, 8),
            Score(2, 0), Score(6, -5), Score(-15, -1), Score(16, 1), Score(8, -1), Score(-8, -8), Score(4, -1), Score(-20, -1),
            Score(-17, -1), Score(-6, -1), Score(0, 0), Score(22, 16), Score(36, 21), Score(3, 5), Score(-1, -3), Score(10, 2),
            Score(17, 6), Score(24, 7), Score(18, 6), Score(19, 25), Score(21, 20), Score(9, 7), Score(6, 3), Score(9, 6),
            Score(13, 14), Score(6, 12), Score(12, 18), Score(31, 28), Score(29, 28), Score(17, 20), Score(23, 17), Score(15, 14),
            Score(40, 40), Score(39, 40), Score(41, 40), Score(39, 40), Score(41, 40), Score(41, 40), Score(36, 40), Score(35, 40),
            Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
        ],
        [
            Score(-42, -40), Score(-2, -26), Score(-26, -25), Score(-18, -20), Score(-24, -20), Score(-22, -23), Score(4, -32), Score(-37, -40),
            Score(-23, -28), Score(-12, -14), Score(6, 0), Score(6, 3), Score(8, 5), Score(19, 3), Score(-11, -14), Score(-26, -27),
            Score(-31, -25), Score(4, 5), Score(7, 10), Score(8, 14), Score(22, 14), Score(-4, 7), Score(-9, 2), Score(-29, -24),
            Score(-17, -20), Score(-8, 0), Score(14, 15), Score(21, 22), Score(17, 20), Score(6, 14), Score(2, 1), Score(-24, -22),
            Score(-18, -20), Score(-11, 4), Score(14, 14), Score(27, 21), Score(20, 20), Score(14, 14), Score(-13, 3), Score(-16, -20),
            Score(-24, -24), Score(3, 2), Score(10, 10), Score(12, 14), Score(16, 14), Score(10, 10), Score(5, 2), Score(-24, -24),
            Score(-32, -30), Score(-13, -14), Score(0, 0), Score(2, 2), Score(2, 2), Score(1, 0), Score(-12, -14), Score(-31, -30),
            Score(-45, -40), Score(-30, -30), Score(-24, -24), Score(-20, -20), Score(-20, -20), Score(-24, -24), Score(-30, -30), Score(-43, -40),
        ],
        [
            Score(-14, -15), Score(-8, -8), Score(20, -4), Score(-9, -8), Score(-6, -8), Score(12, -6), Score(-6, -8), Score(-13, -16),
            Score(-10, -8), Score(46, 4), Score(9, 3), Score(15, 2), Score(0, 0), Score(4, 2), Score(11, 4), Score(-5, -8),
            Score(12, -5), Score(1, 7), Score(5, 5), Score(-10, 4), Score(-28, 8), Score(18, 10), Score(-4, 7), Score(4, -6),
            Score(-11, -8), Score(-10, 0), Score(-5, 7), Score(8, 8), Score(9, 8), Score(2, 7), Score(0, 0), Score(-8, -8),
            Score(-11, -8), Score(19, 6), Score(1, 4), Score(5, 8), Score(10, 9), Score(7, 4), Score(1, 3), Score(-12, -9),
            Score(-11, -8), Score(0, 0), Score(3, 4), Score(10, 9), Score(8, 8), Score(-1, 3), Score(1, 0), Score(-8, -8),
            Score(-8, -8), Score(-1, 0), Score(-3, 0), Score(0, 0), Score(0, 0), Score(3, 0), Score(2, 0), Score(-8, -8),
            Score(-15, -16), Score(-9, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-21, -16),
        ],
        [
            Score(-15, 2), Score(5, 1), Score(-1, -1), Score(-7, 2), Score(9, 6), Score(7, 6), Score(-18, -4), Score(-25, -3),
            Score(-16, -6), Score(-1, -1), Score(-6, -2), Score(3, 0), Score(2, 0), Score(-11, -2), Score(3, -1), Score(-15, -6),
            Score(-1, -6), Score(-5, 0), Score(-4, 0), Score(-5, 0), Score(-1, 0), Score(1, 0), Score(-13, -1), Score(-4, -4),
            Score(5, -3), Score(2, 0), Score(1, 0), Score(0, 0), Score(3, 0), Score(5, 0), Score(2, 0), Score(-1, -5),
            Score(-5, -4), Score(0, 0), Score(1, 0), Score(1, 0), Score(5, 0), Score(1, 0), Score(1, -1), Score(-3, -4),
            Score(3, -4), Score(1, 0), Score(3, 0), Score(-1, 0), Score(2, 0), Score(1, 0), Score(-1, 0), Score(-2, -4),
            Score(4, 4), Score(8, 8), Score(7, 8), Score(8, 8), Score(8, 8), Score(8, 8), Score(9, 8), Score(7, 4),
            Score(1, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(2, 0), Score(2, 0),
        ],
        [
            Score(-14, -15), Score(-18, -10), Score(3, -8), Score(-17, -5), Score(4, -3), Score(-8, -8), Score(-9, -8), Score(-7, -13),
            Score(-10, -8), Score(7, 2), Score(15, 3), Score(-5, 0), Score(-3, -2), Score(0, 1), Score(8, 0), Score(-19, -10),
            Score(1, -6), Score(5, 2), Score(2, 4), Score(-3, 4), Score(7, 6), Score(-2, 2), Score(10, 0), Score(-15, -8),
            Score(8, -2), Score(5, 2), Score(5, 4), Score(3, 4), Score(5, 4), Score(1, 4), Score(-3, 0), Score(-21, -7),
            Score(3, -3), Score(-5, -1), Score(10, 5), Score(4, 4), Score(-2, 4), Score(3, 4), Score(-5, -1), Score(-10, -6),
            Score(-11, -8), Score(-1, 0), Score(0, 4), Score(6, 4), Score(5, 4), Score(4, 4), Score(-4, -1), Score(-9, -8),
            Score(-11, -8), Score(-2, 0), Score(1, 0), Score(0, 0), Score(0, 0), Score(1, 0), Score(2, 0), Score(-4, -8),
            Score(-16, -16), Score(-7, -8), Score(-8, -8), Score(-4, -4), Score(-4, -4), Score(-8, -8), Score(-7, -8), Score(-15, -16),
        ],
        [
            Score(15, -30), Score(18, -21), Score(-5, -22), Score(16, -19), Score(8, -23), Score(3, -21), Score(32, -15), Score(7, -31),
            Score(13, -20), Score(11, -10), Score(-8, 0), Score(-19, 1), Score(-14, 0), Score(3, 1), Score(17, -8), Score(14, -20),
            Score(-10, -10), Score(-19, 0), Score(-17, 10), Score(-19, 16), Score(-16, 16), Score(-15, 10), Score(-16, 0), Score(-7, -9),
            Score(-21, -10), Score(-24, 0), Score(-24, 16), Score(-30, 20), Score(-30, 20), Score(-25, 16), Score(-24, 0), Score(-20, -10),
            Score(-30, -10), Score(-32, 0), Score(-34, 16), Score(-40, 20), Score(-40, 20), Score(-34, 16), Score(-32, 0), Score(-30, -10),
            Score(-36, -10), Score(-36, 0), Score(-40, 10), Score(-40, 16), Score(-40, 16), Score(-40, 10), Score(-36, 0), Score(-36, -10),
            Score(-40, -20), Score(-40, -10), Score(-40, 0), Score(-40, 10), Score(-40, 10), Score(-40, 0), Score(-40, -10), Score(-40, -20),
            Score(-40, -30), Score(-40, -20), Score(-40, -10), Score(-40, 0), Score(-40, 0), Score(-40, -10), Score(-40, -20), Score(-40, -30),
        ],
    ],
};
