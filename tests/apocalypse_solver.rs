//! The pruned N-turn solver against plain backward induction (the reference), and symmetry.

#[path = "common/apocalypse_positions.rs"]
mod apocalypse_positions;

use variant_engines::apocalypse::rules::board::{mirror_square, rank_of, Position, Side};
use variant_engines::apocalypse::rules::moves::{declarable_moves, Move};
use variant_engines::apocalypse::rules::notation::{format_position, parse_position};
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::solver::plain::PlainSolver;
use variant_engines::apocalypse::solver::pruned::PrunedSolver;
use variant_engines::apocalypse::solver::{exploitability, solve, Method};
use variant_engines::matrix_game::{self, Matrix};
use variant_engines::rng::Rng;

const CLASSIC: RuleSet = RuleSet::Classic;

/// A random position ongoing under the classic rules.
fn random_position(rng: &mut Rng) -> Position {
    apocalypse_positions::random_position(rng, CLASSIC)
}

#[test]
fn pruned_solver_agrees_with_plain_backward_induction() {
    let mut rng = Rng::new(0xA90C_A1F5_E5EE_D001);
    let mut mixed = 0;
    for n in 0..sample_size(120) {
        let pos = random_position(&mut rng);
        let turns = 1 + (n % 3) as u32;
        let plain = PlainSolver::default();
        let (white_moves, black_moves, m) = plain.root_matrix(&pos, turns);
        let reference = solve(&pos, turns, Method::Plain, CLASSIC);
        let pruned = solve(&pos, turns, Method::Pruned, CLASSIC);
        let text = format_position(&pos);
        assert!(
            (pruned.value - reference.value).abs() < 1e-6,
            "{text} turns {turns}: pruned {} plain {}",
            pruned.value,
            reference.value
        );
        assert_eq!(pruned.white_moves, white_moves);
        assert_eq!(pruned.black_moves, black_moves);
        // Neither player gains by deviating from the pruned solver's strategies.
        let white_floor = m.row_guarantee(&pruned.white);
        let black_ceiling = m.col_guarantee(&pruned.black);
        assert!(
            white_floor >= reference.value - 1e-6 && black_ceiling <= reference.value + 1e-6,
            "{text} turns {turns}: strategies not optimal ({white_floor}, {black_ceiling})"
        );
        // The same for the plain solver's own strategies.
        assert!(m.row_guarantee(&reference.white) >= reference.value - 1e-6);
        assert!(m.col_guarantee(&reference.black) <= reference.value + 1e-6);
        // The exploitability the CLI reports agrees, with fresh tables of either solver.
        assert!(exploitability(&pos, turns, &pruned, &PlainSolver::default()).total() < 1e-6);
        assert!(
            exploitability(
                &pos,
                turns,
                &reference,
                &PrunedSolver::new(RuleSet::Classic)
            )
            .total()
                < 1e-6
        );
        if pruned.white.iter().filter(|&&p| p > 0.0).count() > 1 {
            mixed += 1;
        }
    }
    // The sample must exercise mixed equilibria, not just pure ones.
    assert!(mixed >= 5, "only {mixed} mixed roots");
}

#[test]
fn symmetric_positions_have_value_zero_and_mirrored_strategies() {
    let mut rng = Rng::new(7);
    let mut positions = vec![Position::start()];
    for _ in 0..30 {
        let p = random_position(&mut rng);
        // Keep White's pieces on ranks 1-2 and mirror them onto Black's side.
        let mut sym = Position::empty();
        for sq in 0..25u8 {
            if let Some((Side::White, piece)) = p.piece_at(sq) {
                if rank_of(sq) < 2 {
                    sym.put(Side::White, piece, sq);
                    sym.put(Side::Black, piece, mirror_square(sq));
                }
            }
        }
        sym.refresh_key();
        if sym.footmen[0] != 0 && !outcome(&sym, CLASSIC).is_over() && sym == sym.mirrored() {
            positions.push(sym);
        }
    }
    assert!(positions.len() >= 10);
    for pos in positions {
        for turns in 1..=3 {
            for method in [Method::Plain, Method::Pruned] {
                let root = solve(&pos, turns, method, CLASSIC);
                let text = format_position(&pos);
                assert!(root.value.abs() < 1e-9, "{text}: value {}", root.value);
                // Black's mirrored strategy, read as White's, is optimal for White too.
                let plain = PlainSolver::default();
                let (white_moves, black_moves, m) = plain.root_matrix(&pos, turns);
                let mirrored: Vec<f64> = white_moves
                    .iter()
                    .map(|w| {
                        let k = black_moves.iter().position(|b| b.mirrored() == *w).unwrap();
                        root.black[k]
                    })
                    .collect();
                assert!(m.row_guarantee(&mirrored) >= -1e-9, "{text} {method:?}");
                if method == Method::Pruned {
                    assert_eq!(mirrored, root.white, "{text}: strategies not mirrored");
                }
            }
        }
    }
}

/// The same moves seen from the other side.
fn mirrored(moves: &[Move]) -> Vec<Move> {
    moves.iter().map(|m| m.mirrored()).collect()
}

/// Backward induction written out directly: no transposition table, no pruning.
fn brute_force(pos: &Position, turns: u32, rules: RuleSet) -> f64 {
    let state = outcome(pos, rules);
    if state.is_over() {
        return state.value();
    }
    if turns == 0 {
        return 0.0;
    }
    let white = declarable_moves(pos, Side::White, rules);
    let black = declarable_moves(pos, Side::Black, rules);
    let mut data = Vec::new();
    for &w in &white {
        for &b in &black {
            data.push(brute_force(&resolve(pos, [w, b]).0, turns - 1, rules));
        }
    }
    matrix_game::solve(&Matrix::new(white.len(), black.len(), data)).value
}

/// Number of random positions for the cross-checks (`APOC_FUZZ` raises it for long runs).
fn sample_size(default: usize) -> usize {
    std::env::var("APOC_FUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn start_position_at_five_turns_is_a_mirrored_draw() {
    let root = solve(&Position::start(), 5, Method::Pruned, CLASSIC);
    assert!(root.value.abs() < 1e-9);
    let mirrored_black: Vec<f64> = root
        .white_moves
        .iter()
        .map(|w| {
            let k = root
                .black_moves
                .iter()
                .position(|b| b.mirrored() == *w)
                .unwrap();
            root.black[k]
        })
        .collect();
    assert_eq!(mirrored_black, root.white);
    // Neither side can be exploited: checked with fresh tables of the pruned solver.
    assert!(
        exploitability(
            &Position::start(),
            5,
            &root,
            &PrunedSolver::new(RuleSet::Classic)
        )
        .total()
            < 1e-9
    );
}

#[test]
fn solvers_agree_with_brute_force_near_the_quiet_turn_limit() {
    // The quiet counter changes values only when it can reach 50 within the horizon; the
    // transposition tables key it then. Brute force has no table to get wrong.
    let mut rng = Rng::new(0xC0FF_EE00_1234_5678);
    for n in 0..sample_size(40) {
        let mut pos = random_position(&mut rng);
        pos.quiet = 47 + rng.below(3) as u8;
        let turns = 1 + (n % 3) as u32;
        let exact = brute_force(&pos, turns, CLASSIC);
        for method in [Method::Plain, Method::Pruned] {
            let v = solve(&pos, turns, method, CLASSIC).value;
            assert!(
                (v - exact).abs() < 1e-6,
                "{} turns {turns} {method:?}: {v} vs brute force {exact}",
                format_position(&pos)
            );
        }
    }
}

#[test]
fn mirrored_positions_have_negated_values_and_mirrored_strategies() {
    let mut rng = Rng::new(0x005E_ED0F_1111);
    let mut mixed = 0;
    for n in 0..60 {
        let pos = random_position(&mut rng);
        let turns = 1 + (n % 3) as u32;
        let root = solve(&pos, turns, Method::Pruned, CLASSIC);
        let mirror = pos.mirrored();
        let mirror_root = solve(&mirror, turns, Method::Pruned, CLASSIC);
        let text = format_position(&pos);
        assert!(
            (root.value + mirror_root.value).abs() < 1e-9,
            "{text}: {} vs mirrored {}",
            root.value,
            mirror_root.value
        );
        // The mirror of each side's strategy is optimal for the other side in the mirror.
        let (white_moves, black_moves, m) = PlainSolver::default().root_matrix(&mirror, turns);
        assert_eq!(white_moves, mirrored(&root.black_moves));
        assert_eq!(black_moves, mirrored(&root.white_moves));
        assert!(
            m.row_guarantee(&root.black) >= mirror_root.value - 1e-9,
            "{text}"
        );
        assert!(
            m.col_guarantee(&root.white) <= mirror_root.value + 1e-9,
            "{text}"
        );
        if root.white.iter().filter(|&&p| p > 0.0).count() > 1 {
            mixed += 1;
        }
    }
    assert!(mixed >= 3, "only {mixed} mixed roots");
}

#[test]
fn finished_and_cut_off_positions() {
    // Already finished: no moves, value is the outcome.
    let won = parse_position("5/p4/5/P4/5 02").unwrap();
    let root = solve(&won, 3, Method::Pruned, CLASSIC);
    assert_eq!(root.value, 1.0);
    assert!(root.white_moves.is_empty());
    // Zero turns: unfinished scores 0.
    assert_eq!(
        solve(&Position::start(), 0, Method::Pruned, CLASSIC).value,
        0.0
    );
    // One turn, worked out by hand: White's horsemen hit b3 (a1b3) or b2 (d3b2); Black's only
    // footman stays or steps to b2, where it dies colliding with the horseman. A matching game:
    // White wins when it guesses right, else nothing happens: value 1/2.
    let pos = parse_position("4n/5/1p1N1/5/N3P").unwrap();
    let a = solve(&pos, 1, Method::Plain, CLASSIC).value;
    let b = solve(&pos, 1, Method::Pruned, CLASSIC).value;
    assert!(
        (a - 0.5).abs() < 1e-12 && (b - 0.5).abs() < 1e-12,
        "{a} {b}"
    );
}

#[test]
fn under_vchess_rules_both_solvers_equal_plain_backward_induction() {
    // Speculative steps make the vchess game different (and its matrices larger); the
    // solvers must still give its exact N-turn values: the pruned one against the plain one
    // and both against brute force with no table at all.
    let vchess = RuleSet::Vchess;
    let mut rng = Rng::new(0x7C4E_55AA_0013_0001);
    let (mut differs, mut speculative_roots) = (0, 0);
    for n in 0..sample_size(80) {
        let pos = apocalypse_positions::random_position(&mut rng, vchess);
        let turns = 1 + (n % 3) as u32;
        let text = format_position(&pos);
        let plain = solve(&pos, turns, Method::Plain, vchess);
        let pruned = solve(&pos, turns, Method::Pruned, vchess);
        assert!(
            (pruned.value - plain.value).abs() < 1e-6,
            "{text} turns {turns}: pruned {} plain {}",
            pruned.value,
            plain.value
        );
        if turns <= 2 {
            let exact = brute_force(&pos, turns, vchess);
            assert!(
                (plain.value - exact).abs() < 1e-9,
                "{text} turns {turns}: plain {} brute force {exact}",
                plain.value
            );
        }
        let solver = PlainSolver::new(vchess);
        assert!(exploitability(&pos, turns, &pruned, &solver).total() < 1e-6);
        assert!(declarable_moves(&pos, Side::White, vchess).len() >= pruned.white_moves.len());
        let classic = outcome(&pos, CLASSIC).is_over();
        if !classic
            && (solve(&pos, turns, Method::Pruned, CLASSIC).value - pruned.value).abs() > 1e-6
        {
            differs += 1;
        }
        if pruned.white_moves.len() > declarable_moves(&pos, Side::White, CLASSIC).len() {
            speculative_roots += 1;
        }
    }
    // The sample exercises the difference: roots with speculative steps, changed values.
    assert!(speculative_roots >= 20, "{speculative_roots}");
    assert!(differs >= 5, "{differs}");
}
