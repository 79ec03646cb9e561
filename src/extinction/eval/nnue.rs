//! An efficiently updatable network (NNUE) for Extinction chess, trained on this engine's own
//! self-play searches (`extinction datagen`, then `extinction train`) as a correction of the
//! hand-written evaluation: the engine's score is that evaluation plus the network's output,
//! so the scarcity and threat terms stay and the network adds what they miss. One hidden layer: 768
//! piece-square inputs seen from each side (own or enemy piece, role, square mirrored for
//! Black) feed a shared layer of [`HIDDEN`] clipped-ReLU units; the side to move's units and
//! the other side's feed one output, a score in centipawns. The search keeps one
//! [`Accumulator`] (the hidden layer before clipping, both views) per ply and updates it from
//! the pieces a move changed, so a move costs a few column additions, not a full evaluation.

use std::sync::LazyLock;

use shakmaty::{Color, Role};

use crate::extinction::rules::position::{role_index, Position, ROLES};

/// Piece-square inputs per view: 2 sides × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden units per view.
pub const HIDDEN: usize = 64;
/// Quantisation of the hidden layer: a float activation of 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's float output (the logit its trainer fits).
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"EXTNNUE1";

/// A network file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with this format's magic bytes.
    NotANetwork,
    /// The file's hidden-layer size is not the one this build evaluates.
    WrongShape { hidden: usize },
    /// The file ends early or has bytes past its end.
    WrongLength { expected: usize, actual: usize },
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::NotANetwork => write!(f, "not an Extinction network file"),
            NetworkError::WrongShape { hidden } => {
                write!(
                    f,
                    "network has {hidden} hidden units, this build needs {HIDDEN}"
                )
            }
            NetworkError::WrongLength { expected, actual } => {
                write!(f, "network file is {actual} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The quantised weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// One column of hidden-layer weights per input.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    pub feature_bias: [i16; HIDDEN],
    /// Weights of the side to move's units, then the other side's.
    pub output_weights: [[i16; HIDDEN]; 2],
    pub output_bias: i32,
}

/// The input index of `color`'s `role` on `square` (0..64) as `view` sees it.
#[inline]
pub fn feature(view: Color, color: Color, role: Role, square: usize) -> usize {
    let side = usize::from(color != view);
    let square = if view == Color::White {
        square
    } else {
        square ^ 56
    };
    side * 384 + role_index(role) * 64 + square
}

impl Network {
    /// The file's size in bytes.
    pub const fn file_len() -> usize {
        MAGIC.len() + 4 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4
    }

    /// Read a network from its file format: magic, hidden size (u32), then the feature
    /// weights input by input, the feature biases, the output weights and the output bias,
    /// all little-endian.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let mut at = MAGIC.len();
        let hidden = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        at += 4;
        if hidden as usize != HIDDEN {
            return Err(NetworkError::WrongShape {
                hidden: hidden as usize,
            });
        }
        if bytes.len() != Self::file_len() {
            return Err(NetworkError::WrongLength {
                expected: Self::file_len(),
                actual: bytes.len(),
            });
        }
        let mut next_i16 = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut column = || {
            let mut c = [0i16; HIDDEN];
            c.iter_mut().for_each(|w| *w = next_i16());
            c
        };
        let feature_weights = (0..INPUTS).map(|_| column()).collect();
        let feature_bias = column();
        let output_weights = [column(), column()];
        let end = Self::file_len() - 4;
        let output_bias =
            i32::from_le_bytes([bytes[end], bytes[end + 1], bytes[end + 2], bytes[end + 3]]);
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The file format [`Network::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::file_len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let columns = self
            .feature_weights
            .iter()
            .chain(std::iter::once(&self.feature_bias))
            .chain(self.output_weights.iter());
        for column in columns {
            for w in column {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The hidden layer of `pos` computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let view = |view: Color| {
            let pieces = [Color::White, Color::Black].into_iter().flat_map(|color| {
                ROLES.into_iter().flat_map(move |role| {
                    pos.pieces(color, role)
                        .into_iter()
                        .map(move |sq| feature(view, color, role, sq as usize))
                })
            });
            self.hidden(pieces)
        };
        let mut values = [[0i16; HIDDEN]; 2];
        values[Color::White as usize] = view(Color::White);
        values[Color::Black as usize] = view(Color::Black);
        Accumulator { values }
    }

    /// One view's hidden layer before clipping, from its active inputs.
    pub fn hidden(&self, features: impl Iterator<Item = usize>) -> [i16; HIDDEN] {
        let mut values = self.feature_bias;
        for f in features {
            add(&mut values, &self.feature_weights[f]);
        }
        values
    }

    /// The accumulator of `after` from that of `before`, one move (or any few changes) away.
    pub fn update(
        &self,
        from: &Accumulator,
        before: &PieceBoards,
        after: &PieceBoards,
    ) -> Accumulator {
        let mut acc = from.clone();
        self.update_into(from, &mut acc, before, after);
        acc
    }

    /// [`Network::update`] into an accumulator the caller already has.
    pub fn update_into(
        &self,
        from: &Accumulator,
        acc: &mut Accumulator,
        before: &PieceBoards,
        after: &PieceBoards,
    ) {
        acc.values = from.values;
        for (i, (&was, &now)) in before.0.iter().zip(after.0.iter()).enumerate() {
            let changed = was ^ now;
            if changed == 0 {
                continue;
            }
            let color = if i < 6 { Color::White } else { Color::Black };
            let role = ROLES[i % 6];
            for sq in shakmaty::Bitboard(changed) {
                let added = now & (1u64 << sq as u32) != 0;
                for view in [Color::White, Color::Black] {
                    let column = &self.feature_weights[feature(view, color, role, sq as usize)];
                    if added {
                        add(&mut acc.values[view as usize], column);
                    } else {
                        sub(&mut acc.values[view as usize], column);
                    }
                }
            }
        }
    }

    /// The score in centipawns for the side to move `turn`.
    pub fn output(&self, acc: &Accumulator, turn: Color) -> i32 {
        self.output_of_views(
            &acc.values[turn as usize],
            &acc.values[turn.other() as usize],
        )
    }

    /// The score in centipawns from the side to move's hidden layer and the other side's.
    pub fn output_of_views(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let mut sum = 0i32;
        for (values, weights) in [us, them].into_iter().zip(self.output_weights.iter()) {
            for (&v, &w) in values.iter().zip(weights.iter()) {
                sum += i32::from(v).clamp(0, QA) * i32::from(w);
            }
        }
        (sum + self.output_bias) * SCALE / (QA * QB)
    }

    /// The score of `pos` for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.turn())
    }
}

#[inline]
fn add(values: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(column.iter()) {
        *v = v.wrapping_add(w);
    }
}

#[inline]
fn sub(values: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (v, &w) in values.iter_mut().zip(column.iter()) {
        *v = v.wrapping_sub(w);
    }
}

/// The hidden layer before clipping, from White's view (index `Color::White`) and Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

/// Where each piece stands: White's six roles, then Black's, in [`ROLES`] order. Two of
/// these, before and after a move, say which inputs the move changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PieceBoards(pub [u64; 12]);

impl PieceBoards {
    /// The boards of `pos`.
    pub fn of(pos: &Position) -> PieceBoards {
        let mut boards = [0u64; 12];
        for (i, role) in ROLES.into_iter().enumerate() {
            boards[i] = pos.pieces(Color::White, role).0;
            boards[i + 6] = pos.pieces(Color::Black, role).0;
        }
        PieceBoards(boards)
    }
}

static EMBEDDED: &[u8] = include_bytes!("extinction.nnue");

/// The network the engine plays with, embedded in the binary.
pub static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(EMBEDDED).expect("the embedded network matches this build")
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::{MoveList, Position};

    #[test]
    fn embedded_network_reads_and_writes_back() {
        assert_eq!(NETWORK.to_bytes(), EMBEDDED);
        let mut bad = EMBEDDED.to_vec();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::NotANetwork));
        bad = EMBEDDED.to_vec();
        bad.pop();
        assert!(matches!(
            Network::from_bytes(&bad),
            Err(NetworkError::WrongLength { .. })
        ));
    }

    #[test]
    fn updates_match_refreshes_along_a_game() {
        let net = &*NETWORK;
        let mut pos = Position::startpos();
        let mut acc = net.refresh(&pos);
        let mut seed = 12345u64;
        for _ in 0..120 {
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = list[(seed >> 33) as usize % list.len()];
            let before = PieceBoards::of(&pos);
            pos.do_move(m);
            acc = net.update(&acc, &before, &PieceBoards::of(&pos));
            assert_eq!(acc, net.refresh(&pos), "after {m:?} in {}", pos.fen());
        }
    }

    #[test]
    fn colour_mirror_gives_the_same_score() {
        let a =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .expect("fen");
        let b =
            Position::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3")
                .expect("fen");
        assert_eq!(NETWORK.evaluate(&a), NETWORK.evaluate(&b));
    }

    #[test]
    fn a_lone_knight_is_bad_for_its_side() {
        // One knight left: one capture from extinction. The correction must not undo that.
        let score = super::super::evaluate_corrected;
        let full = Position::startpos();
        let minus = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1")
            .expect("fen");
        assert!(score(&minus) < score(&full) - 200);
    }
}
