//! Random Apocalypse positions for the tests that compare solvers and searchers on many
//! small, ongoing positions.

use variant_engines::apocalypse::rules::board::{rank_of, Piece, Position, Side};
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::rng::Rng;

/// A random position with 1-2 footmen and 0-2 horsemen per side, ongoing under `rules`.
pub fn random_position(rng: &mut Rng, rules: RuleSet) -> Position {
    loop {
        let mut pos = Position::empty();
        let mut free: Vec<u8> = (0..25).collect();
        for side in Side::BOTH {
            let footmen = 1 + rng.below(2);
            let horsemen = rng.below(3);
            for (piece, count) in [(Piece::Footman, footmen), (Piece::Horseman, horsemen)] {
                for _ in 0..count {
                    // Footmen never stand on their own last rank.
                    let candidates: Vec<usize> = (0..free.len())
                        .filter(|&k| {
                            piece == Piece::Horseman || rank_of(free[k]) != side.last_rank()
                        })
                        .collect();
                    let k = candidates[rng.below(candidates.len())];
                    pos.put(side, piece, free.swap_remove(k));
                }
            }
            pos.penalties[side.index()] = (rng.below(4) == 0) as u8;
        }
        pos.refresh_key();
        if !outcome(&pos, rules).is_over() {
            return pos;
        }
    }
}
