//! The evaluation weights fitted by `extinction tune`. The tuner rewrites everything below the
//! marker line and keeps everything above it as it stands, this paragraph included.

use super::weights::{Score, Weights};

/// This file's path from the crate root: where `extinction tune` writes by default.
pub const SOURCE_PATH: &str = file!();

/// This file's text as compiled, so that the tuner can keep what stands above the marker.
pub const SOURCE_TEXT: &str = include_str!("weights_tuned.rs");

/// The line below which `extinction tune` writes.
pub const GENERATED_MARKER: &str = "// ---- written by `extinction tune` below this line ----";

// ---- written by `extinction tune` below this line ----
/// The weights the evaluation uses.
///
/// Tuned on 70469 positions from sp70k.txt, fsf.txt (300 epochs, rate 2, prior 0.0000001, K 0.433).
#[rustfmt::skip]
pub const TUNED_WEIGHTS: Weights = Weights {
    piece_value: [Score(48, 106), Score(338, 306), Score(361, 324), Score(435, 514), Score(900, 920), Score(250, 300)],
    scarcity: [300, 225, 234, 189, 350, 350],
    last_piece_attacked: 60,
    last_pieces_forked: 500,
    attacks_enemy_last_piece: 800,
    last_piece_exposed: 18,
    hanging_piece: Score(33, 30),
    mobility: [Score(0, 0), Score(-3, 22), Score(10, 9), Score(18, -28), Score(8, 14), Score(-20, 6)],
    passed_pawn: [Score(0, 0), Score(3, 11), Score(2, 15), Score(19, 30), Score(16, 48), Score(49, 85), Score(78, 120), Score(0, 0)],
    doubled_pawn: Score(-2, 20),
    isolated_pawn: Score(12, 13),
    tempo: 14,
    psqt: [
        [
            Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
            Score(-23, 5), Score(-15, 10), Score(-24, 8), Score(16, -14), Score(16, -12), Score(-23, 6), Score(7, 10), Score(-3, 7),
            Score(1, 1), Score(10, -4), Score(-19, -3), Score(16, 3), Score(10, 1), Score(-5, -8), Score(-7, -2), Score(-7, 2),
            Score(-6, 0), Score(1, -1), Score(2, 1), Score(11, 17), Score(22, 20), Score(6, 5), Score(0, -2), Score(10, 2),
            Score(18, 6), Score(20, 8), Score(17, 8), Score(13, 23), Score(11, 20), Score(8, 8), Score(-1, 4), Score(10, 6),
            Score(15, 14), Score(13, 13), Score(16, 19), Score(30, 28), Score(28, 28), Score(19, 20), Score(22, 16), Score(15, 14),
            Score(41, 40), Score(39, 40), Score(41, 40), Score(40, 40), Score(41, 40), Score(40, 40), Score(38, 40), Score(38, 40),
            Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0),
        ],
        [
            Score(-41, -40), Score(3, -27), Score(-26, -25), Score(-18, -20), Score(-22, -20), Score(-23, -23), Score(-10, -32), Score(-40, -40),
            Score(-25, -29), Score(-13, -14), Score(4, 0), Score(0, 4), Score(6, 4), Score(15, 2), Score(-12, -14), Score(-25, -28),
            Score(-26, -24), Score(4, 4), Score(9, 10), Score(10, 14), Score(18, 14), Score(-4, 9), Score(-6, 2), Score(-36, -25),
            Score(-16, -20), Score(-4, 0), Score(13, 15), Score(23, 21), Score(19, 20), Score(9, 14), Score(1, 1), Score(-21, -21),
            Score(-18, -20), Score(-10, 4), Score(15, 14), Score(27, 21), Score(20, 20), Score(15, 14), Score(-5, 4), Score(-18, -20),
            Score(-24, -24), Score(2, 2), Score(10, 10), Score(13, 14), Score(15, 14), Score(10, 10), Score(3, 2), Score(-24, -24),
            Score(-31, -30), Score(-13, -14), Score(0, 0), Score(2, 2), Score(2, 2), Score(0, 0), Score(-13, -14), Score(-31, -30),
            Score(-42, -40), Score(-30, -30), Score(-24, -24), Score(-20, -20), Score(-20, -20), Score(-24, -24), Score(-30, -30), Score(-41, -40),
        ],
        [
            Score(-16, -16), Score(-8, -8), Score(14, -5), Score(-9, -8), Score(-6, -8), Score(15, -5), Score(-6, -8), Score(-14, -16),
            Score(-8, -8), Score(29, 3), Score(7, 2), Score(7, 1), Score(0, 1), Score(1, 1), Score(9, 4), Score(-6, -8),
            Score(4, -6), Score(4, 8), Score(6, 6), Score(-4, 5), Score(-20, 8), Score(13, 9), Score(1, 7), Score(1, -7),
            Score(-10, -8), Score(-6, 0), Score(-2, 7), Score(8, 8), Score(8, 8), Score(4, 7), Score(-1, 0), Score(-8, -8),
            Score(-10, -8), Score(12, 5), Score(2, 4), Score(7, 8), Score(10, 9), Score(5, 4), Score(-2, 3), Score(-10, -9),
            Score(-9, -8), Score(0, 0), Score(3, 4), Score(9, 8), Score(8, 8), Score(1, 3), Score(1, 0), Score(-8, -8),
            Score(-8, -8), Score(-1, 0), Score(-1, 0), Score(0, 0), Score(0, 0), Score(1, 0), Score(1, 0), Score(-8, -8),
            Score(-16, -16), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-8, -8), Score(-19, -16),
        ],
        [
            Score(-17, 0), Score(1, 1), Score(-2, -1), Score(-12, 2), Score(5, 5), Score(2, 4), Score(-8, -2), Score(-20, -2),
            Score(-4, -5), Score(-1, -1), Score(-2, -1), Score(0, 0), Score(2, 0), Score(-3, -1), Score(0, -1), Score(-8, -5),
            Score(-4, -5), Score(1, 0), Score(0, 0), Score(-1, 0), Score(-1, 0), Score(0, 0), Score(-2, 0), Score(1, -4),
            Score(3, -3), Score(1, 0), Score(1, 0), Score(0, 0), Score(2, 0), Score(3, 0), Score(2, 0), Score(-4, -5),
            Score(-5, -4), Score(1, 0), Score(1, 0), Score(0, 0), Score(3, 0), Score(0, 0), Score(-1, -1), Score(-2, -4),
            Score(1, -4), Score(0, 0), Score(2, 0), Score(-1, 0), Score(1, 0), Score(0, 0), Score(0, 0), Score(-2, -4),
            Score(3, 4), Score(8, 8), Score(7, 8), Score(8, 8), Score(8, 8), Score(8, 8), Score(9, 8), Score(5, 4),
            Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(1, 0), Score(1, 0),
        ],
        [
            Score(-15, -16), Score(-15, -9), Score(-2, -8), Score(-11, -4), Score(2, -3), Score(-8, -8), Score(-8, -8), Score(-10, -14),
            Score(-9, -8), Score(4, 1), Score(15, 3), Score(-2, 0), Score(-7, -2), Score(2, 1), Score(3, 0), Score(-15, -9),
            Score(0, -7), Score(6, 2), Score(5, 4), Score(1, 4), Score(6, 5), Score(-6, 2), Score(4, 0), Score(-14, -8),
            Score(8, -3), Score(2, 1), Score(4, 4), Score(4, 4), Score(6, 4), Score(2, 4), Score(-2, 0), Score(-16, -6),
            Score(0, -3), Score(-4, -1), Score(8, 5), Score(4, 4), Score(2, 4), Score(3, 4), Score(-3, -1), Score(-9, -5),
            Score(-9, -8), Score(-1, 0), Score(2, 4), Score(5, 4), Score(4, 4), Score(4, 4), Score(-2, -1), Score(-8, -8),
            Score(-9, -8), Score(-1, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(1, 0), Score(1, 0), Score(-6, -8),
            Score(-16, -16), Score(-8, -8), Score(-8, -8), Score(-4, -4), Score(-4, -4), Score(-8, -8), Score(-8, -8), Score(-16, -16),
        ],
        [
            Score(15, -30), Score(18, -21), Score(-4, -22), Score(8, -19), Score(7, -22), Score(4, -21), Score(32, -16), Score(9, -31),
            Score(12, -20), Score(11, -10), Score(-7, 0), Score(-14, 1), Score(-10, 0), Score(6, 1), Score(12, -9), Score(12, -20),
            Score(-10, -10), Score(-18, 0), Score(-17, 10), Score(-18, 16), Score(-16, 16), Score(-16, 10), Score(-16, 0), Score(-8, -9),
            Score(-21, -10), Score(-24, 0), Score(-24, 16), Score(-30, 20), Score(-30, 20), Score(-25, 16), Score(-24, 0), Score(-20, -10),
            Score(-30, -10), Score(-32, 0), Score(-34, 16), Score(-40, 20), Score(-40, 20), Score(-34, 16), Score(-32, 0), Score(-30, -10),
            Score(-36, -10), Score(-36, 0), Score(-40, 10), Score(-40, 16), Score(-40, 16), Score(-40, 10), Score(-36, 0), Score(-36, -10),
            Score(-40, -20), Score(-40, -10), Score(-40, 0), Score(-40, 10), Score(-40, 10), Score(-40, 0), Score(-40, -10), Score(-40, -20),
            Score(-40, -30), Score(-40, -20), Score(-40, -10), Score(-40, 0), Score(-40, 0), Score(-40, -10), Score(-40, -20), Score(-40, -30),
        ],
    ],
};
