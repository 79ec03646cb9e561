//! The pure-strategy alpha-beta opponent (`selfplay --opponent alphabeta`): its values equal a
//! brute-force minimax of the serialized game with the same leaves, its move is always
//! declarable, it keeps to its time, and it finds forced wins (checked by hand and by the exact
//! solver) for either colour.

#[path = "common/apocalypse_positions.rs"]
mod apocalypse_positions;

use std::time::{Duration, Instant};

use variant_engines::apocalypse::rules::board::{Position, Side};
use variant_engines::apocalypse::rules::moves::{declarable_moves, Move};
use variant_engines::apocalypse::rules::notation::{format_position, parse_move, parse_position};
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::search::alphabeta::{pure_move, AlphaBeta};
use variant_engines::apocalypse::search::anytime::Limits;
use variant_engines::apocalypse::search::eval::evaluate;
use variant_engines::apocalypse::solver::{solve, Method};
use variant_engines::apocalypse::tablebase::Tablebases;
use variant_engines::rng::Rng;

/// The serialized game written out directly: `leader` commits, the other side answers seeing
/// it; finished games score their outcome, the horizon the evaluation (both for the leader).
fn serialized_minimax(pos: &Position, depth: u32, leader: Side, rules: RuleSet) -> f64 {
    let sign = if leader == Side::White { 1.0 } else { -1.0 };
    let state = outcome(pos, rules);
    if state.is_over() {
        return sign * state.value();
    }
    if depth == 0 {
        return sign * evaluate(pos, rules);
    }
    declarable_moves(pos, leader, rules)
        .into_iter()
        .map(|mine| reply_value(pos, mine, depth, leader, rules))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The leader's value of committing to `mine`: the follower's best answer to it.
fn reply_value(pos: &Position, mine: Move, depth: u32, leader: Side, rules: RuleSet) -> f64 {
    declarable_moves(pos, leader.opponent(), rules)
        .into_iter()
        .map(|theirs| {
            let joint = if leader == Side::White {
                [mine, theirs]
            } else {
                [theirs, mine]
            };
            serialized_minimax(&resolve(pos, joint).0, depth - 1, leader, rules)
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn values_and_moves_equal_a_brute_force_serialized_minimax() {
    let mut rng = Rng::new(0xA1FA_BE7A_0013_0003);
    let mut checked = 0;
    for n in 0..60 {
        let rules = RuleSet::ALL[n % 2];
        let tables = Tablebases::none(rules);
        let pos = apocalypse_positions::random_position(&mut rng, rules);
        // Brute force at three turns is slow; a few positions suffice there.
        let depth = if n % 12 == 0 { 3 } else { 1 + (n % 2) as u32 };
        for leader in Side::BOTH {
            let choice = AlphaBeta::new(&tables, leader)
                .search(&pos, Limits::new(Some(depth), None))
                .expect("an ongoing position");
            let text = format_position(&pos);
            let exact = serialized_minimax(&pos, choice.depth, leader, rules);
            assert!(
                (choice.value - exact).abs() < 1e-12,
                "{text} {leader:?} {rules:?} depth {}: alpha-beta {} minimax {exact}",
                choice.depth,
                choice.value
            );
            // The move played achieves that value.
            let achieved = reply_value(&pos, choice.best, choice.depth, leader, rules);
            assert!(
                (achieved - exact).abs() < 1e-12,
                "{text}: {achieved} vs {exact}"
            );
            assert!(declarable_moves(&pos, leader, rules).contains(&choice.best));
            // Deepening stops early only at a forced result.
            assert!(choice.depth == depth || choice.value.abs() >= 1.0);
            checked += 1;
        }
    }
    assert_eq!(checked, 120);
}

#[test]
fn it_finds_forced_wins_for_either_colour() {
    let tables = Tablebases::none(RuleSet::Classic);
    // Black's only footman b4 is blocked by b3 and has no capture; the horseman on c2 takes
    // it, and nothing Black does saves it or hurts White: a win in one turn.
    // In the second position the horseman needs two turns, and only via c2: Black's e5
    // horseman could meet it on d3 (both removed). The exact solver agrees on both.
    for (text, turns, winning) in [
        ("4n/1p3/1P3/2N2/5", 1, "c2b4"),
        ("4n/1p3/1P3/5/4N", 2, "e1c2"),
    ] {
        let pos = parse_position(text).unwrap();
        let exact = solve(&pos, turns, Method::Pruned, RuleSet::Classic).value;
        assert_eq!(exact, 1.0, "{text}");
        for (pos, side, winning) in [
            (pos, Side::White, parse_move(winning).unwrap()),
            (
                pos.mirrored(),
                Side::Black,
                parse_move(winning).unwrap().mirrored(),
            ),
        ] {
            let choice = AlphaBeta::new(&tables, side)
                .search(&pos, Limits::new(Some(6), Some(5_000)))
                .unwrap();
            assert_eq!(choice.value, 1.0, "{text} {side:?}");
            assert_eq!(choice.depth, turns, "{text} {side:?}");
            assert_eq!(choice.best, winning, "{text} {side:?}");
        }
        // One turn short of the win it does not claim one.
        if turns > 1 {
            let short = AlphaBeta::new(&tables, Side::White)
                .search(&pos, Limits::new(Some(turns - 1), None))
                .unwrap();
            assert!(short.value < 1.0);
        }
    }
}

#[test]
fn it_keeps_to_its_time_per_turn() {
    for rules in RuleSet::ALL {
        let tables = Tablebases::none(rules);
        for (ms, side) in [(60, Side::White), (300, Side::Black)] {
            let started = Instant::now();
            let choice = AlphaBeta::new(&tables, side)
                .search(&Position::start(), Limits::new(None, Some(ms)))
                .unwrap();
            let elapsed = started.elapsed();
            // The deadline is checked every 1024 positions, well under a millisecond; the slack is
            // for a loaded machine.
            assert!(
                elapsed <= Duration::from_millis(ms + 100),
                "{rules:?} {ms} ms: took {elapsed:?}"
            );
            // Depth 2 at the start takes some 65 000 positions: well within 300 ms.
            assert!(
                ms < 300 || choice.depth >= 2,
                "{rules:?} {ms} ms: depth {}",
                choice.depth
            );
            assert!(declarable_moves(&Position::start(), side, rules).contains(&choice.best));
        }
    }
    // A finished game has no move to search; the player declares the forfeit.
    let over = parse_position("5/2p2/5/5/2N2").unwrap();
    let tables = Tablebases::none(RuleSet::Classic);
    assert!(AlphaBeta::new(&tables, Side::White)
        .search(&over, Limits::new(Some(2), None))
        .is_none());
    assert!(pure_move(&over, Side::White, Limits::new(Some(2), None), &tables).is_forfeit());
}

#[test]
fn selfplay_against_alphabeta_runs_and_reports() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args([
            "selfplay",
            "--games",
            "2",
            "--depth",
            "1",
            "--opponent",
            "alphabeta",
            "--opponent-depth",
            "1",
            "--position",
            "4n/1p3/1P3/5/4N",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games: W "), "{text}");
    let misuse = std::process::Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(["selfplay", "--games", "1", "--opponent-depth", "2"])
        .output()
        .unwrap();
    assert_eq!(misuse.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&misuse.stderr).contains("--opponent alphabeta"));
}
