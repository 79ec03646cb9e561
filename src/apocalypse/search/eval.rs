//! The horizon evaluation of the depth-limited search: a heuristic value strictly between -1
//! and 1 for an unfinished position (White's point of view).

use crate::apocalypse::rules::board::{rank_mask, Position, Side};
use crate::apocalypse::rules::moves::{attacked_squares, legal_move_count};
use crate::apocalypse::rules::ruleset::RuleSet;

/// How many terms the evaluation has.
pub const FEATURE_COUNT: usize = 8;

/// The evaluation's terms, each counted for White minus the same count for Black.
pub const FEATURES: [&str; FEATURE_COUNT] = [
    "footmen",
    "last footman (a side down to one can be hunted)",
    "horsemen",
    "footman ranks advanced (towards promotion or redeploy)",
    "legal moves",
    "penalty points (two lose)",
    "enemy footmen attacked",
    "enemy horsemen attacked",
];

/// Every weight of the evaluation, in one place: the value is
/// `BOUND * tanh(sum of WEIGHTS[i] * features[i])`.
pub mod weights {
    /// One weight per entry of [`super::FEATURES`], set by hand in footmen and divided by a
    /// scale of 3 (one footman ahead is worth tanh(1/3)). Weights fitted to game results and
    /// tablebase values (`apocalypse tune`) predict values better but played worse; see the
    /// README.
    pub const WEIGHTS: [f64; super::FEATURE_COUNT] = [
        1.0 / 3.0,
        -0.6 / 3.0,
        0.9 / 3.0,
        0.08 / 3.0,
        0.02 / 3.0,
        -0.7 / 3.0,
        0.15 / 3.0,
        0.15 / 3.0,
    ];
    /// Evaluations stay within (-BOUND, BOUND), short of a proven result.
    pub const BOUND: f64 = 0.95;
}

/// The feature counts of one side.
fn side_features(pos: &Position, side: Side, rules: RuleSet) -> [f64; FEATURE_COUNT] {
    let s = side.index();
    let enemy = side.opponent().index();
    let footmen = pos.footman_count(side);
    let advance: u32 = (1..5)
        .map(|r| {
            let rank = match side {
                Side::White => r,
                Side::Black => 4 - r,
            };
            r as u32 * (pos.footmen[s] & rank_mask(rank)).count_ones()
        })
        .sum();
    let moves = legal_move_count(pos, side, rules);
    let attacked = attacked_squares(pos, side);
    [
        footmen as f64,
        (footmen == 1) as u32 as f64,
        pos.horseman_count(side) as f64,
        advance as f64,
        moves as f64,
        pos.penalties[s] as f64,
        (attacked & pos.footmen[enemy]).count_ones() as f64,
        (attacked & pos.horsemen[enemy]).count_ones() as f64,
    ]
}

/// The evaluation's terms for `pos` under `rules`: White's counts minus Black's.
pub fn features(pos: &Position, rules: RuleSet) -> [f64; FEATURE_COUNT] {
    let white = side_features(pos, Side::White, rules);
    let black = side_features(pos, Side::Black, rules);
    std::array::from_fn(|i| white[i] - black[i])
}

/// The evaluation of terms `f` with weights `w`, strictly inside (-BOUND, BOUND).
pub fn evaluate_features(f: &[f64; FEATURE_COUNT], w: &[f64; FEATURE_COUNT]) -> f64 {
    let score: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
    weights::BOUND * score.tanh()
}

/// Heuristic value of an unfinished position for White under `rules`, strictly inside (-1, 1).
pub fn evaluate(pos: &Position, rules: RuleSet) -> f64 {
    evaluate_features(&features(pos, rules), &weights::WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::notation::parse_position;

    const C: RuleSet = RuleSet::Classic;

    #[test]
    fn symmetric_positions_are_level_and_material_counts() {
        let start = Position::start();
        assert!(evaluate(&start, C).abs() < 1e-12);
        let p = parse_position("npppn/p3p/5/P3P/NPPPN 00").unwrap();
        assert!((evaluate(&p, C) + evaluate(&p.mirrored(), C)).abs() < 1e-12);
        let up = parse_position("n1ppn/p3p/5/P3P/NPPPN 00").unwrap();
        assert!(evaluate(&up, C) > 0.1);
        let penalised = parse_position("npppn/p3p/5/P3P/NPPPN 10").unwrap();
        assert!(evaluate(&penalised, C) < evaluate(&p, C) - 0.1);
        assert!(evaluate(&up, C) < weights::BOUND);
    }

    #[test]
    fn every_term_changes_sign_with_the_colours() {
        for text in [
            "n1ppn/p3p/5/P3P/NPPPN 00",
            "1pNp1/2n1p/5/2N1P/1PnP1 01",
            "5/Nnp2/P3n/P4/5 10",
        ] {
            let pos = parse_position(text).unwrap();
            let (f, g) = (features(&pos, C), features(&pos.mirrored(), C));
            assert!(f.iter().any(|&x| x != 0.0), "{text}");
            for i in 0..FEATURE_COUNT {
                assert_eq!(f[i], -g[i], "{text}: {}", FEATURES[i]);
            }
        }
    }
}
