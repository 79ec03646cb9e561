//! Zobrist keys for positions and transposition-table entries.
//!
//! The lowest file of the rules: it knows squares, sides and counters as plain numbers and
//! nothing of `Position`, so that the board can key itself without a cycle.

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

/// Key of a footman (`horseman` false) or horseman of side `side` (0 White, 1 Black) on `square`.
pub fn piece_key(side: usize, horseman: bool, square: u8) -> u64 {
    PIECE_KEYS[side * 50 + usize::from(horseman) * 25 + square as usize]
}

/// Key of side `side`'s penalty points (3 and more share a key).
pub fn penalty_key(side: usize, points: u8) -> u64 {
    PENALTY_KEYS[side * 4 + (points as usize).min(3)]
}

/// Key of the N-turn game from a position with key `position_key` and quiet counter `quiet`:
/// the quiet counter only matters when it can reach the limit within `remaining` turns.
pub fn game_key(position_key: u64, quiet: u8, remaining: u32, quiet_limit: u32) -> u64 {
    let mut key = position_key ^ DEPTH_KEYS[remaining as usize & 255];
    if quiet as u32 + remaining >= quiet_limit {
        key ^= QUIET_KEYS[quiet as usize];
    }
    key
}
