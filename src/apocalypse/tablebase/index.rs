//! Material classes and the waste-free index of positions inside a class.
//!
//! A class index lists the class's footman configurations (White's and Black's footman
//! squares) that are canonical under the file mirror; every configuration leaves the same number
//! of free squares, so each has a block of the same size holding every placement of the
//! horsemen, ranked combinatorially (colex rank of White's horsemen among the free squares,
//! then of Black's among the rest).

use crate::apocalypse::rules::board::{squares_of, Position, Side, ALL};

/// Most pieces of one kind per side that a class may hold (the index uses 3 bits per count).
pub const MAX_COUNT: u8 = 7;

/// Squares a White footman may stand on (not rank 5).
const WHITE_FOOTMAN_SQUARES: u32 = (1 << 20) - 1;
/// Squares a Black footman may stand on (not rank 1).
const BLACK_FOOTMAN_SQUARES: u32 = ALL & !0b11111;

/// Binomial coefficients C(n, k) for n, k <= 25.
const BINOM: [[u64; 26]; 26] = binomials();

const fn binomials() -> [[u64; 26]; 26] {
    let mut t = [[0u64; 26]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k), zero when k > n.
pub fn binom(n: u32, k: u32) -> u64 {
    if k > n || n > 25 {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// A material-and-penalty class: piece counts per side and penalty points per side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ClassKey {
    /// Footmen of White and Black.
    pub footmen: [u8; 2],
    /// Horsemen of White and Black.
    pub horsemen: [u8; 2],
    /// Penalty points of White and Black (0 or 1; two points end the game).
    pub penalties: [u8; 2],
}

impl ClassKey {
    /// The class of a position.
    pub fn of(pos: &Position) -> ClassKey {
        ClassKey {
            footmen: [
                pos.footman_count(Side::White) as u8,
                pos.footman_count(Side::Black) as u8,
            ],
            horsemen: [
                pos.horseman_count(Side::White) as u8,
                pos.horseman_count(Side::Black) as u8,
            ],
            penalties: pos.penalties,
        }
    }

    /// Pieces on the board.
    pub fn pieces(&self) -> u32 {
        (self.footmen[0] + self.footmen[1] + self.horsemen[0] + self.horsemen[1]) as u32
    }

    /// The class with colours swapped.
    pub fn mirrored(&self) -> ClassKey {
        ClassKey {
            footmen: [self.footmen[1], self.footmen[0]],
            horsemen: [self.horsemen[1], self.horsemen[0]],
            penalties: [self.penalties[1], self.penalties[0]],
        }
    }

    fn order_tuple(&self) -> [u8; 6] {
        [
            self.footmen[0],
            self.horsemen[0],
            self.penalties[0],
            self.footmen[1],
            self.horsemen[1],
            self.penalties[1],
        ]
    }

    /// Whether this class is the stored one of the pair {class, colour-swapped class}.
    pub fn is_canonical(&self) -> bool {
        self.order_tuple() >= self.mirrored().order_tuple()
    }

    /// Whether a side may redeploy footmen (two or more horsemen), which lets footmen move back.
    pub fn can_redeploy(&self) -> bool {
        self.horsemen[0] >= 2 || self.horsemen[1] >= 2
    }

    /// A slot number for dense per-class arrays.
    pub fn slot(&self) -> usize {
        let c = |v: u8| v.min(MAX_COUNT) as usize;
        ((((c(self.footmen[0]) * 8 + c(self.horsemen[0])) * 8 + c(self.footmen[1])) * 8
            + c(self.horsemen[1]))
            * 2
            + self.penalties[0].min(1) as usize)
            * 2
            + self.penalties[1].min(1) as usize
    }

    /// Number of slots `slot` can return.
    pub const SLOTS: usize = 8 * 8 * 8 * 8 * 4;

    /// The class name, e.g. `PPNvp-01`: White's pieces, `v`, Black's, penalties.
    pub fn name(&self) -> String {
        format!(
            "{}{}v{}{}-{}{}",
            "P".repeat(self.footmen[0] as usize),
            "N".repeat(self.horsemen[0] as usize),
            "p".repeat(self.footmen[1] as usize),
            "n".repeat(self.horsemen[1] as usize),
            self.penalties[0],
            self.penalties[1]
        )
    }

    /// Parse a class name as written by `name` (letters case-insensitive).
    pub fn parse(text: &str) -> Result<ClassKey, String> {
        let bad = || {
            format!("invalid tablebase class '{text}': expected e.g. PPNvp-01 (White's pieces, v, Black's pieces, penalties)")
        };
        let (pieces, penalties) = text.split_once('-').ok_or_else(bad)?;
        let (white, black) = pieces
            .split_once(['v', 'V'])
            .filter(|(w, _)| !w.is_empty())
            .ok_or_else(bad)?;
        let count = |side: &str| -> Result<[u8; 2], String> {
            let mut n = [0u8; 2];
            for c in side.chars() {
                match c.to_ascii_lowercase() {
                    'p' => n[0] += 1,
                    'n' => n[1] += 1,
                    _ => return Err(bad()),
                }
            }
            if n[0] > MAX_COUNT || n[1] > MAX_COUNT {
                return Err(bad());
            }
            Ok(n)
        };
        let (w, b) = (count(white)?, count(black)?);
        let digits: Vec<u8> = penalties
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        if digits.len() != 2 || digits.iter().any(|&d| d > 1) {
            return Err(bad());
        }
        if w[0] == 0 || b[0] == 0 {
            return Err(format!(
                "invalid tablebase class '{text}': each side needs a footman (else the game is over)"
            ));
        }
        Ok(ClassKey {
            footmen: [w[0], b[0]],
            horsemen: [w[1], b[1]],
            penalties: [digits[0], digits[1]],
        })
    }
}

/// Every class with at most `max_pieces` pieces whose positions can be unfinished (a footman
/// each, penalties below two), canonical under colour swap, in build order: fewer pieces first,
/// then fewer footmen (promotion turns a footman into a horseman), then more penalty points.
/// Every successor outside a class lies in a class listed earlier.
pub fn classes_in_build_order(max_pieces: u32) -> Vec<ClassKey> {
    let mut out = Vec::new();
    for wf in 1..=max_pieces as u8 {
        for bf in 1..=max_pieces as u8 {
            for wh in 0..=max_pieces as u8 {
                for bh in 0..=max_pieces as u8 {
                    if (wf + bf + wh + bh) as u32 > max_pieces
                        || wf.max(bf).max(wh).max(bh) > MAX_COUNT
                    {
                        continue;
                    }
                    for pw in 0..2 {
                        for pb in 0..2 {
                            let key = ClassKey {
                                footmen: [wf, bf],
                                horsemen: [wh, bh],
                                penalties: [pw, pb],
                            };
                            if key.is_canonical() {
                                out.push(key);
                            }
                        }
                    }
                }
            }
        }
    }
    out.sort_by_key(|k| {
        (
            k.pieces(),
            k.footmen[0] + k.footmen[1],
            2 - k.penalties[0] - k.penalties[1],
            *k,
        )
    });
    out
}

/// Reverse the 5 bits of a rank.
const REVERSE5: [u32; 32] = reverse5();

const fn reverse5() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        let mut r = 0;
        let mut b = 0;
        while b < 5 {
            if i & (1 << b) != 0 {
                r |= 1 << (4 - b);
            }
            b += 1;
        }
        t[i] = r;
        i += 1;
    }
    t
}

/// A mask mirrored across the board's middle file (a <-> e).
pub fn flip_files(mask: u32) -> u32 {
    let mut out = 0;
    for rank in 0..5 {
        out |= REVERSE5[((mask >> (rank * 5)) & 31) as usize] << (rank * 5);
    }
    out
}

/// A position mirrored across the middle file; its value is the same.
pub fn flip_position(pos: &Position) -> Position {
    let mut p = *pos;
    for s in 0..2 {
        p.footmen[s] = flip_files(pos.footmen[s]);
        p.horsemen[s] = flip_files(pos.horsemen[s]);
    }
    p.refresh_key();
    p
}

fn config_key(white_footmen: u32, black_footmen: u32) -> u64 {
    ((white_footmen as u64) << 25) | black_footmen as u64
}

/// Colex rank of `subset` among the subsets of `free` of the same size.
fn rank_subset(free: u32, subset: u32) -> u64 {
    let mut rank = 0;
    for (i, sq) in squares_of(subset).enumerate() {
        let below = (free & ((1u32 << sq) - 1)).count_ones();
        rank += binom(below, i as u32 + 1);
    }
    rank
}

/// The `n`-th (0-based) set bit of `mask`.
fn select_bit(mut mask: u32, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    1 << mask.trailing_zeros()
}

/// The `k`-subset of `free` with colex rank `rank`.
fn unrank_subset(free: u32, k: u32, mut rank: u64) -> u32 {
    let mut out = 0;
    for i in (1..=k).rev() {
        let mut c = i - 1;
        while binom(c + 1, i) <= rank {
            c += 1;
        }
        rank -= binom(c, i);
        out |= select_bit(free, c);
    }
    out
}

/// Calls `f` for every `k`-subset of the bits of `mask`.
fn for_each_subset(mask: u32, k: u32, f: &mut impl FnMut(u32)) {
    fn rec(rest: u32, k: u32, acc: u32, f: &mut impl FnMut(u32)) {
        if k == 0 {
            f(acc);
            return;
        }
        if rest.count_ones() < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        rec(rest & !low, k - 1, acc | low, f);
        rec(rest & !low, k, acc, f);
    }
    rec(mask, k, 0, f);
}

/// The positions of one class, numbered without gaps.
pub struct ClassIndex {
    /// The class.
    pub key: ClassKey,
    /// Canonical footman configurations, sorted: White's mask << 25 | Black's mask.
    configs: Vec<u64>,
    /// Horsemen placements per configuration.
    group_size: u64,
    /// Placements of Black's horsemen per placement of White's.
    black_placements: u64,
    /// Every footman configuration by its rank (White's squares, then Black's, ranked
    /// combinatorially): the group holding it or its mirror image, with `MIRRORED` set when
    /// the group holds the mirror image; `NO_GROUP` for overlapping footmen. Makes `locate`
    /// a table lookup instead of a search.
    group_by_rank: Vec<u32>,
}

/// Flag of `group_by_rank`: the configuration is stored as its mirror image.
const MIRRORED: u32 = 1 << 31;
/// Entry of `group_by_rank` for configurations that cannot occur (footmen on one square).
const NO_GROUP: u32 = u32::MAX;

/// Rank of a footman configuration among all placements of `white` and `black` footmen
/// (White's on ranks 1-4, Black's on ranks 2-5), ignoring overlaps.
fn config_rank(white_footmen: u32, black_footmen: u32, black_count: u32) -> usize {
    let white = rank_subset(WHITE_FOOTMAN_SQUARES, white_footmen);
    let black = rank_subset(BLACK_FOOTMAN_SQUARES >> 5, black_footmen >> 5);
    (white * binom(20, black_count) + black) as usize
}

impl ClassIndex {
    /// Enumerate the class's footman configurations.
    pub fn new(key: ClassKey) -> ClassIndex {
        let mut configs = Vec::new();
        let (wf, bf) = (key.footmen[0] as u32, key.footmen[1] as u32);
        for_each_subset(WHITE_FOOTMAN_SQUARES, wf, &mut |w| {
            for_each_subset(BLACK_FOOTMAN_SQUARES & !w, bf, &mut |b| {
                let k = config_key(w, b);
                if k <= config_key(flip_files(w), flip_files(b)) {
                    configs.push(k);
                }
            });
        });
        configs.sort_unstable();
        let free = 25 - wf - bf;
        let (wh, bh) = (key.horsemen[0] as u32, key.horsemen[1] as u32);
        let black_placements = binom(free - wh.min(free), bh);
        let mut group_by_rank = vec![NO_GROUP; (binom(20, wf) * binom(20, bf)) as usize];
        for (group, &k) in configs.iter().enumerate() {
            let (w, b) = ((k >> 25) as u32, (k & ALL as u64) as u32);
            let (fw, fb) = (flip_files(w), flip_files(b));
            group_by_rank[config_rank(fw, fb, bf)] = group as u32 | MIRRORED;
            // A symmetric configuration is its own mirror: the plain entry wins.
            group_by_rank[config_rank(w, b, bf)] = group as u32;
        }
        ClassIndex {
            key,
            configs,
            group_size: binom(free, wh) * black_placements,
            black_placements,
            group_by_rank,
        }
    }

    /// Number of positions stored for the class.
    pub fn len(&self) -> u64 {
        self.configs.len() as u64 * self.group_size
    }

    /// Whether the class holds no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of footman configurations (groups of positions sharing footmen).
    pub fn groups(&self) -> usize {
        self.configs.len()
    }

    /// Positions per group.
    pub fn group_size(&self) -> u64 {
        self.group_size
    }

    /// White's and Black's footmen of a group.
    pub fn group_footmen(&self, group: usize) -> [u32; 2] {
        let k = self.configs[group];
        [(k >> 25) as u32, (k & ALL as u64) as u32]
    }

    /// How far the group's footmen have advanced (ranks walked by both sides). Footman steps
    /// that keep the material raise it; only redeploys lower it.
    pub fn advancement(&self, group: usize) -> u32 {
        let [w, b] = self.group_footmen(group);
        squares_of(w).map(|sq| (sq / 5) as u32).sum::<u32>()
            + squares_of(b).map(|sq| 4 - (sq / 5) as u32).sum::<u32>()
    }

    /// The position with number `idx` (quiet counter 0, turn 1).
    pub fn position(&self, idx: u64) -> Position {
        let [wf, bf] = self.group_footmen((idx / self.group_size) as usize);
        let rest = idx % self.group_size;
        let free = ALL & !(wf | bf);
        let wh = unrank_subset(
            free,
            self.key.horsemen[0] as u32,
            rest / self.black_placements,
        );
        let bh = unrank_subset(
            free & !wh,
            self.key.horsemen[1] as u32,
            rest % self.black_placements,
        );
        let mut pos = Position::empty();
        pos.footmen = [wf, bf];
        pos.horsemen = [wh, bh];
        pos.penalties = self.key.penalties;
        pos.refresh_key();
        pos
    }

    /// The number of a position of this class (or of its file mirror), if it belongs here.
    pub fn locate(&self, pos: &Position) -> Option<u64> {
        let f = pos.footmen;
        // `locate_pieces` trusts its input; a position from outside is checked first.
        if ClassKey::of(pos) != self.key
            || f[0] & !WHITE_FOOTMAN_SQUARES != 0
            || f[1] & !BLACK_FOOTMAN_SQUARES != 0
            || self.group_by_rank[config_rank(f[0], f[1], self.key.footmen[1] as u32)] == NO_GROUP
        {
            return None;
        }
        Some(self.locate_pieces(pos.footmen, pos.horsemen))
    }

    /// The number of the position with these pieces, which must be a position of this class
    /// (the right number of each piece, footmen off their last ranks, no square used twice).
    pub fn locate_pieces(&self, footmen: [u32; 2], horsemen: [u32; 2]) -> u64 {
        let entry =
            self.group_by_rank[config_rank(footmen[0], footmen[1], self.key.footmen[1] as u32)];
        debug_assert_ne!(entry, NO_GROUP, "footmen overlap");
        let (f, h) = if entry & MIRRORED != 0 {
            (
                [flip_files(footmen[0]), flip_files(footmen[1])],
                [flip_files(horsemen[0]), flip_files(horsemen[1])],
            )
        } else {
            (footmen, horsemen)
        };
        let group = (entry & !MIRRORED) as u64;
        let free = ALL & !(f[0] | f[1]);
        let white = rank_subset(free, h[0]);
        let black = rank_subset(free & !h[0], h[1]);
        group * self.group_size + white * self.black_placements + black
    }

    /// The footmen that never move back in this class: those of each side with fewer than two
    /// horsemen (the other side's footmen redeploy from the last rank to any square).
    pub fn fixed_footmen(&self, footmen: [u32; 2]) -> [u32; 2] {
        let mut fixed = footmen;
        for (f, &h) in fixed.iter_mut().zip(&self.key.horsemen) {
            if h >= 2 {
                *f = 0;
            }
        }
        fixed
    }

    /// The block of positions sharing fixed footmen (up to the file mirror). Every successor
    /// of a position of the class lies in its own block or in a block whose fixed footmen have
    /// advanced further, so blocks can be solved one after another, most advanced first; two
    /// positions of the class are in the same block exactly when their keys are equal.
    pub fn block_key(&self, footmen: [u32; 2]) -> u64 {
        let [w, b] = self.fixed_footmen(footmen);
        config_key(w, b).min(config_key(flip_files(w), flip_files(b)))
    }

    /// The groups of the class partitioned into blocks, in an order that solves every block
    /// after the blocks its successors lie in: levels of equal fixed-footman advancement, most
    /// advanced first (blocks of one level never reach each other).
    pub fn blocks(&self) -> Vec<Vec<Vec<usize>>> {
        let mut by_key: std::collections::BTreeMap<(std::cmp::Reverse<u32>, u64), Vec<usize>> =
            std::collections::BTreeMap::new();
        for g in 0..self.groups() {
            let footmen = self.group_footmen(g);
            let [w, b] = self.fixed_footmen(footmen);
            let advance = squares_of(w).map(|sq| (sq / 5) as u32).sum::<u32>()
                + squares_of(b).map(|sq| 4 - (sq / 5) as u32).sum::<u32>();
            by_key
                .entry((std::cmp::Reverse(advance), self.block_key(footmen)))
                .or_default()
                .push(g);
        }
        let mut levels: Vec<Vec<Vec<usize>>> = Vec::new();
        let mut last = None;
        for ((advance, _), groups) in by_key {
            if last != Some(advance) {
                levels.push(Vec::new());
                last = Some(advance);
            }
            levels.last_mut().expect("a level").push(groups);
        }
        levels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_round_trips_and_covers_the_class() {
        let key = ClassKey::parse("PNvpn-01").unwrap();
        let index = ClassIndex::new(key);
        for idx in (0..index.len()).step_by(7) {
            let pos = index.position(idx);
            assert_eq!(index.locate(&pos), Some(idx));
            // The mirror image is stored as itself only when the footmen are symmetric.
            let flipped = flip_position(&pos);
            let at = index.position(index.locate(&flipped).unwrap());
            assert!(at == pos || at == flipped);
        }
    }

    #[test]
    fn every_position_of_a_class_has_a_number_and_every_number_is_used() {
        // Brute force over all placements of P, N (White) and p (Black).
        let key = ClassKey::parse("PNvp-00").unwrap();
        let index = ClassIndex::new(key);
        let mut seen = vec![false; index.len() as usize];
        for wf in 0..20u8 {
            for bf in 5..25u8 {
                for wh in 0..25u8 {
                    if wf == bf || wh == wf || wh == bf {
                        continue;
                    }
                    let mut pos = Position::empty();
                    pos.footmen = [1 << wf, 1 << bf];
                    pos.horsemen = [1 << wh, 0];
                    let idx = index.locate(&pos).expect("every position has a number");
                    seen[idx as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn positions_outside_the_numbering_are_not_located() {
        let index = ClassIndex::new(ClassKey::parse("PNvpn-01").unwrap());
        let pos = index.position(0);
        let free = ALL & !(pos.footmen[0] | pos.footmen[1] | pos.horsemen[0] | pos.horsemen[1]);
        // White's footman on its last rank (it would have promoted), Black's on its own.
        let last = 1 << (free >> 20).trailing_zeros() << 20;
        let first = 1 << (free & 0b11111).trailing_zeros();
        let mut on_last_rank = pos;
        on_last_rank.footmen[0] = last;
        assert_eq!(index.locate(&on_last_rank), None);
        let mut on_first_rank = pos;
        on_first_rank.footmen[1] = first;
        assert_eq!(index.locate(&on_first_rank), None);
        assert_eq!(index.locate(&pos), Some(0));
    }

    #[test]
    fn class_names_round_trip() {
        for key in classes_in_build_order(4) {
            assert_eq!(ClassKey::parse(&key.name()), Ok(key));
        }
        assert!(ClassKey::parse("NvP-00").is_err());
        assert!(ClassKey::parse("PvP-20").is_err());
    }
}
