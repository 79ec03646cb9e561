//! Command-line front ends of the tablebase, search, exploitability and play tools; the
//! `apocalypse` binary parses into these argument structs and calls the `run_*` functions.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::moves::Move;
use super::notation::{format_move, format_position, parse_position};
use super::tablebase::build::{build, BuildOptions};
use super::tablebase::{ClassKey, Tablebases, DEFAULT_DIR, VERIFY_TOLERANCE};

/// `apocalypse tb ...`: build, probe and verify endgame tablebases.
#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    action: TbAction,
}

#[derive(Subcommand, Debug)]
enum TbAction {
    /// Solve every position with at most K pieces exactly (resumes an interrupted build).
    Build {
        /// Largest number of pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        max_pieces: u32,
        /// Directory of the tablebase files.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
        /// Stop iterating a group after this many rounds (reported if not converged).
        #[arg(long, default_value_t = 100_000)]
        max_iterations: u32,
    },
    /// Exact value and both optimal strategies of a position.
    Probe {
        /// Position `BOARD [PENALTIES [QUIET [TURN]]]` (quote it); the quiet counter is ignored.
        position: Vec<String>,
        /// Directory of the tablebase files.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Check the fixed point on every position of every class (or of one class).
    Verify {
        /// Directory of the tablebase files.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
        /// Only this class, e.g. `PNvp-00`.
        #[arg(long)]
        class: Option<String>,
    },
}

/// A float for output without rounding noise or negative zero.
pub fn clean(v: f64) -> f64 {
    let r = (v * 1e12).round() / 1e12;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// Moves with positive probability, most likely first.
pub fn strategy_entries(moves: &[Move], probs: &[f64]) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = moves
        .iter()
        .zip(probs)
        .filter(|(_, &p)| p > 1e-12)
        .map(|(&m, &p)| (format_move(m), p))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// A strategy as a JSON object `{"c1c2": 0.4, ...}`.
pub fn strategy_json(entries: &[(String, f64)]) -> String {
    let parts: Vec<String> = entries
        .iter()
        .map(|(m, p)| format!("\"{m}\": {}", clean(*p)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// A strategy as text `c1c2 0.400000, ...` (at most `limit` moves).
pub fn strategy_text(entries: &[(String, f64)], limit: usize) -> String {
    if entries.is_empty() {
        return "(no moves)".to_string();
    }
    let mut parts: Vec<String> = entries
        .iter()
        .take(limit)
        .map(|(m, p)| format!("{m} {:.6}", clean(*p)))
        .collect();
    if entries.len() > limit {
        parts.push(format!("... ({} more)", entries.len() - limit));
    }
    parts.join(", ")
}

/// Run `apocalypse tb ...`.
pub fn run_tb(args: TbArgs) -> Result<(), String> {
    match args.action {
        TbAction::Build {
            max_pieces,
            dir,
            max_iterations,
        } => {
            let mut opts = BuildOptions::new(max_pieces, dir);
            opts.max_iterations = max_iterations;
            let started = Instant::now();
            let summaries = build(&opts)?;
            print_build_summary(&summaries, started.elapsed().as_secs_f64());
            Ok(())
        }
        TbAction::Probe {
            position,
            dir,
            json,
        } => {
            let pos = parse_position(&position.join(" "))?;
            let tables = Tablebases::open(&dir);
            let state = super::outcome::outcome(&{
                let mut p = pos;
                p.quiet = 0;
                p
            });
            if state.is_over() {
                if json {
                    println!(
                        "{{\"value\": {}, \"white\": {{}}, \"black\": {{}}}}",
                        clean(state.value())
                    );
                } else {
                    println!("value (White): {}", clean(state.value()));
                    println!("game over: {}", state.describe());
                }
                return Ok(());
            }
            let game = tables.root_game(&pos)?;
            let sol = game.solve();
            let white = strategy_entries(&game.white, &sol.row_strategy);
            let black = strategy_entries(&game.black, &sol.col_strategy);
            if json {
                println!(
                    "{{\"value\": {}, \"white\": {}, \"black\": {}}}",
                    clean(sol.value),
                    strategy_json(&white),
                    strategy_json(&black)
                );
            } else {
                println!("position: {}", format_position(&pos));
                println!("value (White): {:.12}", clean(sol.value));
                println!("White: {}", strategy_text(&white, usize::MAX));
                println!("Black: {}", strategy_text(&black, usize::MAX));
            }
            Ok(())
        }
        TbAction::Verify { dir, class } => {
            let tables = Tablebases::open(&dir);
            let classes = match class {
                Some(name) => vec![ClassKey::parse(&name)?],
                None => super::tablebase::index::classes_in_build_order(tables.max_pieces()),
            };
            if classes.is_empty() {
                return Err(format!("no tablebase files in {}", dir.display()));
            }
            let mut worst: f64 = 0.0;
            let mut total = 0;
            for key in &classes {
                let r = tables.verify_class(key)?;
                println!(
                    "{:<14} {:>10} positions  max residual {:.3e}",
                    key.name(),
                    r.positions,
                    r.max_residual
                );
                if r.max_residual > VERIFY_TOLERANCE {
                    if let Some(p) = r.worst {
                        println!("  worst: {}", format_position(&p));
                    }
                }
                worst = worst.max(r.max_residual);
                total += r.positions;
            }
            println!(
                "{} classes, {total} positions, max residual {worst:.3e} (tolerance {VERIFY_TOLERANCE:.0e})",
                classes.len()
            );
            if worst > VERIFY_TOLERANCE {
                return Err(format!(
                    "fixed-point check failed: residual {worst:.3e} > {VERIFY_TOLERANCE:.0e}"
                ));
            }
            Ok(())
        }
    }
}

fn print_build_summary(summaries: &[super::tablebase::build::ClassSummary], seconds: f64) {
    let mut both = [0u64; 4];
    let (mut stored, mut bytes, mut unconverged) = (0u64, 0u64, 0);
    for s in summaries {
        println!(
            "{:<12} {:>9} positions  W {:>8} D {:>8} L {:>8} frac {:>7}  {:>8.1} s {:>10} B  iters {:>5}{}{}",
            s.key.name(),
            s.positions,
            s.results[0],
            s.results[1],
            s.results[2],
            s.results[3],
            s.seconds,
            s.bytes,
            s.iterations,
            if s.reused { "  (reused)" } else { "" },
            if s.converged { "" } else { "  NOT CONVERGED" }
        );
        stored += s.positions;
        bytes += s.bytes;
        unconverged += usize::from(!s.converged);
        // The colour-swapped class (not stored) has wins and losses exchanged.
        let [w, d, l, f] = s.results;
        if s.key.mirrored() == s.key {
            both = [both[0] + w, both[1] + d, both[2] + l, both[3] + f];
        } else {
            both = [
                both[0] + w + l,
                both[1] + 2 * d,
                both[2] + l + w,
                both[3] + 2 * f,
            ];
        }
    }
    let all: u64 = both.iter().sum();
    let share = |n: u64| 100.0 * n as f64 / all.max(1) as f64;
    println!(
        "total: {} classes, {stored} positions stored ({all} with both colours), {bytes} bytes, {seconds:.1} s",
        summaries.len()
    );
    println!(
        "both colours: won by White {:.2}%, drawn {:.2}%, lost {:.2}%, fractional {:.2}%{}",
        share(both[0]),
        share(both[1]),
        share(both[2]),
        share(both[3]),
        if unconverged > 0 {
            format!("; {unconverged} classes not converged")
        } else {
            String::new()
        }
    );
}
