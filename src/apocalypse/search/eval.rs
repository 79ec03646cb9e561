//! The horizon evaluation of the depth-limited search: a heuristic value strictly between -1
//! and 1 for an unfinished position (White's point of view).

use crate::apocalypse::rules::board::{rank_of, squares_of, Position, Side, KNIGHT_ATTACKS};
use crate::apocalypse::rules::moves::for_each_legal_move;
use crate::apocalypse::rules::ruleset::RuleSet;

/// Every weight of the evaluation, in one place (units: roughly "footmen").
pub mod weights {
    /// A footman (losing all of them loses the game).
    pub const FOOTMAN: f64 = 1.0;
    /// Extra worth of the footmen when a side is down to its last one (it can be hunted).
    pub const LAST_FOOTMAN: f64 = 0.6;
    /// A horseman.
    pub const HORSEMAN: f64 = 0.9;
    /// Per rank a footman has advanced (towards promotion or redeploy).
    pub const ADVANCE: f64 = 0.08;
    /// Per legal move.
    pub const MOBILITY: f64 = 0.02;
    /// Per penalty point (two lose).
    pub const PENALTY: f64 = 0.7;
    /// Per enemy piece attacked (it must move or risk capture).
    pub const THREAT: f64 = 0.15;
    /// Score that maps to tanh(1) ~ 0.76 of the value range.
    pub const SCALE: f64 = 3.0;
    /// Evaluations stay within (-BOUND, BOUND), short of a proven result.
    pub const BOUND: f64 = 0.95;
}

/// Squares attacked by `side`'s pieces (knight jumps and footman diagonals).
fn attacks(pos: &Position, side: Side) -> u32 {
    let s = side.index();
    let mut out = 0;
    for sq in squares_of(pos.horsemen[s]) {
        out |= KNIGHT_ATTACKS[sq as usize];
    }
    for sq in squares_of(pos.footmen[s]) {
        let (f, r) = (sq % 5, rank_of(sq));
        let r2 = match side {
            Side::White if r < 4 => r + 1,
            Side::Black if r > 0 => r - 1,
            _ => continue,
        };
        if f > 0 {
            out |= 1 << (r2 * 5 + f - 1);
        }
        if f < 4 {
            out |= 1 << (r2 * 5 + f + 1);
        }
    }
    out
}

/// Material, advance, mobility, penalties and threats of one side.
fn side_score(pos: &Position, side: Side, rules: RuleSet) -> f64 {
    use weights::*;
    let s = side.index();
    let footmen = pos.footman_count(side) as f64;
    let mut score = FOOTMAN * footmen + HORSEMAN * pos.horseman_count(side) as f64;
    if footmen == 1.0 {
        score -= LAST_FOOTMAN;
    }
    for sq in squares_of(pos.footmen[s]) {
        let advanced = match side {
            Side::White => rank_of(sq),
            Side::Black => 4 - rank_of(sq),
        };
        score += ADVANCE * advanced as f64;
    }
    let mut moves = 0;
    for_each_legal_move(pos, side, rules, |_| moves += 1);
    score += MOBILITY * moves as f64;
    score -= PENALTY * pos.penalties[s] as f64;
    let threatened = attacks(pos, side) & pos.pieces(side.opponent());
    score += THREAT * threatened.count_ones() as f64;
    score
}

/// Heuristic value of an unfinished position for White under `rules`, strictly inside (-1, 1).
pub fn evaluate(pos: &Position, rules: RuleSet) -> f64 {
    let score = side_score(pos, Side::White, rules) - side_score(pos, Side::Black, rules);
    weights::BOUND * (score / weights::SCALE).tanh()
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
        assert!(evaluate(&penalised, C) < -0.1);
        assert!(evaluate(&up, C) < 1.0);
    }
}
