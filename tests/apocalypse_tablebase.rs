//! Tablebases: the fixed point holds on every position, values agree with an independent
//! N-turn backward induction, and missing or damaged files are reported and skipped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use variant_engines::apocalypse::rules::board::{Position, Side};
use variant_engines::apocalypse::rules::moves::declarable_moves;
use variant_engines::apocalypse::rules::notation::parse_position;
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::solver;
use variant_engines::apocalypse::tablebase::build::{build, BuildOptions};
use variant_engines::apocalypse::tablebase::index::classes_in_build_order;
use variant_engines::apocalypse::tablebase::{format, ClassIndex, ClassKey, Tablebases};
use variant_engines::matrix_game::{solve, Matrix};

const C: RuleSet = RuleSet::Classic;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("apoc-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Run the `apocalypse` binary: exit code, stdout, stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn build_small(dir: &Path, max_pieces: u32) {
    build_small_under(dir, max_pieces, C);
}

fn build_small_under(dir: &Path, max_pieces: u32, rules: RuleSet) {
    let mut opts = BuildOptions::new(max_pieces, rules, dir.to_path_buf());
    opts.progress = false;
    opts.max_iterations = 2000;
    build(&opts, |_| {}).expect("build");
}

/// Plain backward induction of the N-turn game, written independently of the tablebase code:
/// finished within N turns scores the outcome, unfinished after them scores 0.
fn n_turn_value(pos: &Position, turns: u32, memo: &mut HashMap<(u64, u32), f64>) -> f64 {
    n_turn_value_under(pos, turns, C, memo)
}

fn n_turn_value_under(
    pos: &Position,
    turns: u32,
    rules: RuleSet,
    memo: &mut HashMap<(u64, u32), f64>,
) -> f64 {
    let mut p = *pos;
    p.quiet = 0;
    let state = outcome(&p, rules);
    if state.is_over() {
        return state.value();
    }
    if turns == 0 {
        return 0.0;
    }
    if let Some(&v) = memo.get(&(p.key, turns)) {
        return v;
    }
    let white = declarable_moves(&p, Side::White, rules);
    let black = declarable_moves(&p, Side::Black, rules);
    let mut data = Vec::new();
    for &w in &white {
        for &b in &black {
            data.push(n_turn_value_under(
                &resolve(&p, [w, b]).0,
                turns - 1,
                rules,
                memo,
            ));
        }
    }
    let v = solve(&Matrix::new(white.len(), black.len(), data)).value;
    memo.insert((p.key, turns), v);
    v
}

#[test]
fn three_piece_tables_are_fixed_points_and_match_the_n_turn_game() {
    let dir = temp_dir("k3");
    build_small(&dir, 3);
    let tables = Tablebases::open(&dir, C);
    assert_eq!(tables.max_pieces(), 3);
    for key in classes_in_build_order(3) {
        let report = tables.verify_class(&key).expect("verify");
        assert!(report.max_residual <= 1e-9, "{}: {report:?}", key.name());
    }
    let mut memo = HashMap::new();
    let mut forced = 0;
    for key in classes_in_build_order(3) {
        let index = ClassIndex::new(key);
        let horsemen = key.horsemen[0] + key.horsemen[1];
        for idx in (0..index.len()).step_by(if horsemen == 0 { 1 } else { 13 }) {
            let pos = index.position(idx);
            let tb = tables.value(&pos).expect("covered");
            // Colour symmetry: the swapped position has the negated value.
            assert!((tables.value(&pos.mirrored()).unwrap() + tb).abs() < 1e-12);
            if horsemen == 0 {
                // Without horsemen every turn moves a footman or costs a point, so games end
                // within 4 steps per footman plus 3 penalty turns: the 20-turn game is exact.
                let v = n_turn_value(&pos, 20, &mut memo);
                assert!((v - tb).abs() < 1e-9, "{}: {v} vs {tb}", pos.key);
            } else {
                let v = n_turn_value(&pos, 3, &mut memo);
                // The project's pruned N-turn solver agrees with the plain induction here.
                if idx % 5 == 0 {
                    let pruned = solver::solve(&pos, 3, solver::Method::Pruned, C).value;
                    assert!((pruned - v).abs() < 1e-9, "{pruned} vs {v}");
                }
                if v.abs() == 1.0 {
                    forced += 1;
                    assert_eq!(tb, v, "forced result within 3 turns must be exact");
                }
            }
        }
    }
    assert!(
        forced > 50,
        "the sample should hold forced results ({forced})"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_or_missing_files_are_skipped_and_rebuilt() {
    let dir = temp_dir("damage");
    build_small(&dir, 3);
    let key = ClassKey::parse("PNvp-00").unwrap();
    let path = format::path_of(&format::rules_dir(&dir, C), &key);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let other = format::path_of(
        &format::rules_dir(&dir, C),
        &ClassKey::parse("PPvp-01").unwrap(),
    );
    std::fs::remove_file(&other).unwrap();
    let tables = Tablebases::open(&dir, C);
    let damaged = parse_position("4p/5/1N3/2P2/5 00").unwrap();
    assert_eq!(tables.value(&damaged), None);
    let intact = parse_position("4p/5/1N3/2P2/5 11").unwrap();
    assert!(tables.value(&intact).is_some());
    // A rebuild notices both, redoes them, and gives the same values as before.
    build_small(&dir, 3);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn anytime_search_with_tablebases_keeps_the_exact_value_and_is_unexploitable() {
    use variant_engines::apocalypse::search::anytime::{search, Limits};
    use variant_engines::apocalypse::search::exploit::against_tablebase;
    let dir = temp_dir("anytime");
    build_small(&dir, 3);
    let tables = Tablebases::open(&dir, C);
    let limits = Limits::new(Some(2), None);
    let mut checked = 0;
    for key in classes_in_build_order(3) {
        let index = ClassIndex::new(key);
        for idx in (0..index.len()).step_by(97) {
            let pos = index.position(idx);
            if outcome(&pos, C).is_over() {
                continue;
            }
            let exact = tables.value(&pos).unwrap();
            let game = tables.root_game(&pos).unwrap();
            let it = search(&pos, limits, &tables, |_| {}).unwrap();
            assert!(it.exact);
            // White's strategy guarantees the exact value against every Black reply, and
            // Black's holds White to it.
            assert!((game.matrix.row_guarantee(&it.root.white) - exact).abs() <= 1e-9);
            assert!((game.matrix.col_guarantee(&it.root.black) - exact).abs() <= 1e-9);
            let e = against_tablebase(&pos, limits, &tables, &tables).unwrap();
            assert!(e.gains.total() <= 1e-9, "{e:?}");
            checked += 1;
        }
    }
    assert!(checked > 100);
    // Without tablebases the heuristic search is measurably exploitable somewhere.
    let none = Tablebases::none(C);
    let mut worst: f64 = 0.0;
    let index = ClassIndex::new(ClassKey::parse("PNvp-00").unwrap());
    for idx in (0..index.len()).step_by(41) {
        let pos = index.position(idx);
        if !outcome(&pos, C).is_over() {
            worst = worst.max(
                against_tablebase(&pos, limits, &none, &tables)
                    .unwrap()
                    .gains
                    .total(),
            );
        }
    }
    assert!(worst > 1e-3, "{worst}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_probe_reports_a_damaged_file_in_one_line_and_carries_on() {
    let dir = temp_dir("cli");
    build_small(&dir, 3);
    let d = dir.to_str().unwrap();
    let (code, out, _) = run(&["tb", "probe", "4p/5/1N3/2P2/5 11", "--dir", d, "--json"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("{\"value\": "), "{out}");
    let path = format::path_of(
        &format::rules_dir(&dir, C),
        &ClassKey::parse("PNvp-00").unwrap(),
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    // The search still answers, saying once which file it skipped.
    let (code, out, err) = run(&["solve", "4p/5/1N3/2P2/5 00", "--depth", "2", "--tb-dir", d]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("depth  2"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("PNvp-00.tb") && err.contains("checksum"),
        "{err}"
    );
    let (code, _, err) = run(&["tb", "verify", "--dir", d]);
    assert_ne!(code, Some(0));
    assert!(err.contains("PNvp-00"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The opponent of a won position who stalls best: among the moves that keep the most value
/// against the winner's mixed strategy, the one least likely to let the winner progress to a
/// win established earlier (a finished game, an earlier class or block, a smaller stamp).
fn stalling_reply(tables: &Tablebases, pos: &Position, winner: Side, strategy: &[f64]) -> usize {
    let mine = declarable_moves(pos, winner, C);
    let theirs = declarable_moves(pos, winner.opponent(), C);
    let here = tables.stored_entry(pos).unwrap();
    let mut best = (f64::INFINITY, f64::INFINITY, 0);
    for (j, &t) in theirs.iter().enumerate() {
        let (mut value, mut progress) = (0.0, 0.0);
        for (i, &m) in mine.iter().enumerate() {
            if strategy[i] == 0.0 {
                continue;
            }
            let joint = if winner == Side::White {
                [m, t]
            } else {
                [t, m]
            };
            let mut next = resolve(pos, joint).0;
            next.quiet = 0;
            let v = tables.value(&next).unwrap();
            let sign = if winner == Side::White { 1.0 } else { -1.0 };
            value += strategy[i] * v * sign;
            let advanced = outcome(&next, C).is_over()
                || tables.stored_entry(&next).is_some_and(|e| {
                    e.class != here.class || e.block != here.block || e.stamp < here.stamp
                });
            progress += strategy[i] * f64::from(u8::from(advanced));
        }
        if value < best.0 - 1e-12 || (value <= best.0 + 1e-12 && progress < best.1) {
            best = (value, progress, j);
        }
    }
    best.2
}

#[test]
fn four_piece_wins_converge_exactly_and_are_won_in_play_against_a_staller() {
    let dir = temp_dir("k4");
    let mut opts = BuildOptions::new(4, C, dir.clone());
    opts.progress = false;
    let summaries = build(&opts, |_| {}).expect("build");
    assert!(summaries.iter().all(|s| s.converged), "{summaries:?}");
    let tables = Tablebases::open(&dir, C);
    // Value iteration alone only reaches -0.99999 here after 10^5 rounds (limit-sure win).
    let slow = parse_position("4p/Pn3/5/N4/5 00").unwrap();
    assert_eq!(tables.value(&slow), Some(-1.0));
    let (mut games, mut won, mut limit_sure) = (0, 0, 0);
    for key in ["PNvpn-00", "PNvpn-10", "PNNvp-00", "PPvpn-01"] {
        let index = ClassIndex::new(ClassKey::parse(key).unwrap());
        for idx in (0..index.len()).step_by(61) {
            let start = index.position(idx);
            let value = tables.value(&start).unwrap();
            if outcome(&start, C).is_over() || value.abs() != 1.0 {
                continue;
            }
            // Every win has a strategy that makes progress; play it against the staller.
            let mut pos = start;
            let mut rng = idx;
            let mut result = 0.0;
            for _turn in 0..300 {
                let state = outcome(&pos, C);
                if state.is_over() {
                    result = state.value();
                    break;
                }
                let Some(p) = tables.progress_strategy(&pos) else {
                    // Only a limit-sure win's small risk lets the loser escape the win.
                    assert_ne!(
                        tables.value(&pos),
                        Some(value),
                        "no progress strategy at {}",
                        variant_engines::apocalypse::rules::notation::format_position(&pos)
                    );
                    break;
                };
                limit_sure += usize::from(!p.sure);
                let reply = stalling_reply(&tables, &pos, p.winner, &p.strategy);
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mut x = (rng >> 11) as f64 / (1u64 << 53) as f64;
                let mut choice = p.strategy.len() - 1;
                for (i, &w) in p.strategy.iter().enumerate() {
                    if x < w {
                        choice = i;
                        break;
                    }
                    x -= w;
                }
                let mine = declarable_moves(&pos, p.winner, C)[choice];
                let theirs = declarable_moves(&pos, p.winner.opponent(), C)[reply];
                let joint = if p.winner == Side::White {
                    [mine, theirs]
                } else {
                    [theirs, mine]
                };
                pos = resolve(&pos, joint).0;
                pos.quiet = 0;
            }
            games += 1;
            won += usize::from(result == value);
        }
    }
    eprintln!("{won}/{games} won, {limit_sure} limit-sure turns");
    assert!(games > 500, "{games}");
    assert!(won as f64 >= 0.97 * games as f64, "{won}/{games}");
    // The engine in matches: in tablebase positions it never gives value away (only limit-sure
    // wins take their deliberate small risk).
    use variant_engines::apocalypse::play::{play_game, Player, TablebaseAudit};
    use variant_engines::apocalypse::search::anytime::Limits;
    use variant_engines::rng::Rng;
    let limits = Limits::new(Some(1), None);
    let mut audit = TablebaseAudit::default();
    let mut rng = Rng::new(11);
    for (n, start) in [
        "4p/Pn3/5/N4/5 00",
        "n3p/1P3/5/2N2/5 00",
        "4p/1n3/5/1N1P1/5 10",
    ]
    .iter()
    .enumerate()
    {
        let start = parse_position(start).unwrap();
        for game in 0..6 {
            let players = if (game + n) % 2 == 0 {
                [Player::Engine, Player::Random]
            } else {
                [Player::Random, Player::Engine]
            };
            audit.add(&play_game(&start, players, limits, &tables, &mut rng).1);
        }
    }
    assert!(audit.turns > 50, "{audit:?}");
    assert_eq!(audit.lost, 0, "{audit:?}");
    assert_eq!(audit.kept + audit.progress, audit.turns);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_build_writes_each_class_line_as_soon_as_the_class_is_finished() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = temp_dir("stream");
    build_small(&dir, 3);
    // The three-piece classes are reused at once; the four-piece ones take seconds more. With
    // stdout a pipe, the first line must arrive while the last class is still to be built.
    let last = format::path_of(
        &format::rules_dir(&dir, C),
        classes_in_build_order(4).last().unwrap(),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_apocalypse"))
        // No test reads or builds the per-user tablebases.
        .env(
            "APOCALYPSE_TB_DIR",
            std::env::temp_dir().join("apocalypse-tests-no-tablebases"),
        )
        .env("APOCALYPSE_NO_TB_BUILD", "1")
        .args(["tb", "build", "--max-pieces", "4", "--dir"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("(reused)"), "{first}");
    assert!(
        !last.exists(),
        "the first class line came only after the whole build"
    );
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    assert!(child.wait().unwrap().success());
    assert!(last.exists());
    assert!(rest.iter().any(|l| l.starts_with("total: ")), "{rest:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn vchess_tables_are_kept_apart_and_match_the_vchess_n_turn_game() {
    let vchess = RuleSet::Vchess;
    let dir = temp_dir("vchess");
    build_small_under(&dir, 3, vchess);
    build_small(&dir, 3);
    let tables = Tablebases::open(&dir, vchess);
    assert_eq!(tables.max_pieces(), 3);
    let classic = Tablebases::open(&dir, C);
    let mut memo = HashMap::new();
    let (mut checked, mut differ) = (0, 0);
    for key in classes_in_build_order(3) {
        let report = tables.verify_class(&key).expect("verify");
        assert!(report.max_residual <= 1e-9, "{}: {report:?}", key.name());
        if key.horsemen != [0, 0] {
            continue;
        }
        // Without horsemen the game ends within 20 turns under vchess too.
        let index = ClassIndex::new(key);
        for idx in 0..index.len() {
            let pos = index.position(idx);
            let tb = tables.value(&pos).unwrap();
            let v = n_turn_value_under(&pos, 20, vchess, &mut memo);
            assert!((v - tb).abs() < 1e-9, "{}: {v} vs {tb}", pos.key);
            checked += 1;
            differ += usize::from((classic.value(&pos).unwrap() - tb).abs() > 1e-9);
        }
    }
    assert!(checked > 1000 && differ > 50, "{checked} {differ}");
    // A class file moved to the other rule set's directory is refused, not misread.
    let key = ClassKey::parse("PNvp-00").unwrap();
    let v = format::path_of(&format::rules_dir(&dir, vchess), &key);
    std::fs::copy(v, format::path_of(&format::rules_dir(&dir, C), &key)).unwrap();
    let classic = Tablebases::open(&dir, C);
    assert_eq!(
        classic.value(&parse_position("4p/5/1N3/2P2/5 00").unwrap()),
        None
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_fits_weights_that_lower_the_error_and_needs_tablebases() {
    let dir = temp_dir("tune");
    build_small(&dir, 3);
    let d = dir.to_str().unwrap();
    let (code, out, err) = run(&[
        "tune",
        "--games",
        "40",
        "--per-class",
        "3000",
        "--tb-dir",
        d,
    ]);
    assert_eq!(code, Some(0), "{err}");
    // "<before> -> <after>" pairs of a report line.
    let errors = |prefix: &str| -> Vec<(f64, f64)> {
        let line = out.lines().find(|l| l.starts_with(prefix)).unwrap();
        line.split(',')
            .map(|part| {
                let numbers: Vec<f64> = part
                    .split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect();
                (numbers[0], numbers[1])
            })
            .collect()
    };
    let training = errors("training squared error");
    assert!(training[0].1 < training[0].0, "{out}");
    let held_out = errors("held-out squared error");
    assert!(held_out[1].1 < held_out[1].0, "tablebase positions: {out}");
    let weights = out.lines().find(|l| l.starts_with("WEIGHTS = [")).unwrap();
    assert_eq!(weights.matches(',').count(), 7, "{weights}");
    let empty = temp_dir("tune-empty");
    let (code, _, err) = run(&["tune", "--games", "4", "--tb-dir", empty.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no tablebases"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
