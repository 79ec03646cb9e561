//! Zobrist keys for positions and transposition-table entries.

use super::board::{squares_of, Position, Side};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        i += 1;
    }
    out
}

/// Keys for [side][piece type][square], piece type 0 = footman, 1 = horseman.
const PIECE_KEYS: [u64; 100] = table::<100>(1);
/// Keys for [side][penalty points 0..4].
const PENALTY_KEYS: [u64; 8] = table::<8>(2);
/// Keys for the quiet counter 0..=255.
const QUIET_KEYS: [u64; 256] = table::<256>(3);
/// Keys for a search depth (remaining turns) 0..=255.
const DEPTH_KEYS: [u64; 256] = table::<256>(4);

/// Key of pieces and penalty points.
pub fn position_key(pos: &Position) -> u64 {
    let mut key = 0;
    for side in Side::BOTH {
        let s = side.index();
        for sq in squares_of(pos.footmen[s]) {
            key ^= PIECE_KEYS[s * 50 + sq as usize];
        }
        for sq in squares_of(pos.horsemen[s]) {
            key ^= PIECE_KEYS[s * 50 + 25 + sq as usize];
        }
        key ^= PENALTY_KEYS[s * 4 + (pos.penalties[s] as usize).min(3)];
    }
    key
}

/// Key of the N-turn game from `pos`: the quiet counter only matters when it can reach the limit.
pub fn game_key(pos: &Position, remaining: u32, quiet_limit: u32) -> u64 {
    let mut key = pos.key ^ DEPTH_KEYS[remaining as usize & 255];
    if pos.quiet as u32 + remaining >= quiet_limit {
        key ^= QUIET_KEYS[pos.quiet as usize];
    }
    key
}
