//! The anytime search (pruned solver with the evaluation at the horizon) against backward
//! induction over every joint move with the same horizon, written out directly.

#[path = "common/apocalypse_positions.rs"]
mod apocalypse_positions;

use std::time::{Duration, Instant};

use variant_engines::apocalypse::rules::board::{Position, Side};
use variant_engines::apocalypse::rules::moves::declarable_moves;
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::search::anytime::{search, Limits};
use variant_engines::apocalypse::search::eval::evaluate;
use variant_engines::apocalypse::tablebase::Tablebases;
use variant_engines::matrix_game::{self, Matrix};
use variant_engines::rng::Rng;

/// The root matrix of the depth-limited game: children searched `depth - 1` turns deep by
/// backward induction, finished games scoring their outcome and the horizon the evaluation.
fn root_matrix(pos: &Position, depth: u32, rules: RuleSet) -> Matrix {
    let white = declarable_moves(pos, Side::White, rules);
    let black = declarable_moves(pos, Side::Black, rules);
    let mut data = Vec::new();
    for &w in &white {
        for &b in &black {
            data.push(backward_induction(
                &resolve(pos, [w, b]).0,
                depth - 1,
                rules,
            ));
        }
    }
    Matrix::new(white.len(), black.len(), data)
}

fn backward_induction(pos: &Position, depth: u32, rules: RuleSet) -> f64 {
    let state = outcome(pos, rules);
    if state.is_over() {
        return state.value();
    }
    if depth == 0 {
        return evaluate(pos, rules);
    }
    matrix_game::solve(&root_matrix(pos, depth, rules)).value
}

#[test]
fn anytime_values_and_strategies_equal_backward_induction_with_the_same_horizon() {
    for rules in [RuleSet::Classic, RuleSet::Vchess] {
        let tables = Tablebases::none(rules);
        let mut rng = Rng::new(0x5EA2_C4A7_0001 ^ rules as u64);
        let mut mixed = 0;
        for n in 0..60 {
            let pos = apocalypse_positions::random_position(&mut rng, rules);
            let depth = 1 + n % 3;
            let it = search(&pos, Limits::new(Some(depth), None), &tables, |_| {}).unwrap();
            let m = root_matrix(&pos, depth, rules);
            let value = matrix_game::solve(&m).value;
            assert!(
                (it.root.value - value).abs() < 1e-9,
                "{pos:?} depth {depth}: search {} backward induction {value}",
                it.root.value
            );
            // Each strategy guarantees the value against every reply in the full matrix.
            assert!(
                m.row_guarantee(&it.root.white) >= value - 1e-9,
                "{pos:?} depth {depth}"
            );
            assert!(
                m.col_guarantee(&it.root.black) <= value + 1e-9,
                "{pos:?} depth {depth}"
            );
            if it.root.white.iter().filter(|&&p| p > 0.0).count() > 1 {
                mixed += 1;
            }
        }
        assert!(
            mixed > 5,
            "too few mixed roots ({mixed}) to test the double oracle"
        );
    }
}

#[test]
fn a_time_limit_stops_deepening_and_keeps_the_last_complete_iteration() {
    let tables = Tablebases::none(RuleSet::Classic);
    let started = Instant::now();
    let it = search(
        &Position::start(),
        Limits::new(None, Some(50)),
        &tables,
        |_| {},
    )
    .unwrap();
    assert!(started.elapsed() < Duration::from_millis(1000));
    assert!(it.depth >= 1 && !it.exact);
    assert!((it.root.white.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}
