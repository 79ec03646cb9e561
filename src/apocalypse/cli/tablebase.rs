//! `apocalypse tb build | probe | verify`: endgame tablebases from the command line.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::print::{clean, Solved};
use super::tables::{build_on_first_use, default_dir};
use crate::apocalypse::rules::board::Position;
use crate::apocalypse::rules::notation::{format_position, parse_position};
use crate::apocalypse::rules::outcome::{outcome, Outcome};
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::tablebase::build::{self, BuildOptions, ClassSummary};
use crate::apocalypse::tablebase::index::classes_in_build_order;
use crate::apocalypse::tablebase::limit::LAYER_WEIGHT;
use crate::apocalypse::tablebase::{ClassKey, Tablebases, VERIFY_TOLERANCE};
use crate::console::outln;

/// Arguments of `apocalypse tb`.
#[derive(clap::Args, Debug, Clone)]
pub struct TbArgs {
    #[command(subcommand)]
    pub action: TbAction,
}

/// What `apocalypse tb` does.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum TbAction {
    /// Solve every position with at most K pieces exactly (resumes an interrupted build).
    Build {
        /// Largest number of pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        max_pieces: u32,
        /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user
        /// data directory; `--tb-dir`, as the other commands spell it, works too).
        #[arg(long, alias = "tb-dir", default_value_os_t = default_dir())]
        dir: PathBuf,
        /// Stop iterating a block after this many value-iteration passes (reported if not
        /// converged).
        #[arg(long, default_value_t = 100_000)]
        max_iterations: u32,
    },
    /// Exact value and both optimal strategies of a position.
    Probe {
        /// Position `BOARD [PENALTIES [QUIET [TURN]]]` (quote it); the quiet counter is ignored.
        #[arg(required = true)]
        position: Vec<String>,
        /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user
        /// data directory; `--tb-dir`, as the other commands spell it, works too).
        #[arg(long, alias = "tb-dir", default_value_os_t = default_dir())]
        dir: PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Check the fixed point on every position of every class (or of one class).
    Verify {
        /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user
        /// data directory; `--tb-dir`, as the other commands spell it, works too).
        #[arg(long, alias = "tb-dir", default_value_os_t = default_dir())]
        dir: PathBuf,
        /// Only this class, e.g. `PNvp-00`.
        #[arg(long)]
        class: Option<String>,
    },
}

/// Run `apocalypse tb` under `rules`.
pub fn run(args: &TbArgs, rules: RuleSet) -> Result<(), String> {
    match &args.action {
        TbAction::Build {
            max_pieces,
            dir,
            max_iterations,
        } => build(*max_pieces, dir, *max_iterations, rules),
        TbAction::Probe {
            position,
            dir,
            json,
        } => probe(&position.join(" "), dir, *json, rules),
        TbAction::Verify { dir, class } => verify(dir, class.as_deref(), rules),
    }
}

/// Build every class with at most `max_pieces` pieces into `dir` (valid files are reused) and
/// print a line per class as soon as it is finished, then the totals.
pub fn build(
    max_pieces: u32,
    dir: &Path,
    max_iterations: u32,
    rules: RuleSet,
) -> Result<(), String> {
    let mut opts = BuildOptions::new(max_pieces, rules, dir.to_path_buf());
    opts.max_iterations = max_iterations;
    let started = Instant::now();
    let summaries = build::build(&opts, print_class_line)?;
    print_build_totals(&summaries, started.elapsed().as_secs_f64());
    Ok(())
}

/// What a probe finds: a finished game, or the exact value and both strategies.
enum Probed {
    /// The game is over (the quiet counter ignored).
    Over(Outcome),
    /// The value and the strategies the engine would play; for a won position whether the
    /// win is sure or limit-sure.
    Solved {
        solved: Solved,
        win: Option<&'static str>,
    },
}

impl Probed {
    fn new(pos: &Position, tables: &Tablebases) -> Result<Probed, String> {
        // The tablebases ignore the quiet counter.
        let state = outcome(
            &{
                let mut p = *pos;
                p.quiet = 0;
                p
            },
            tables.rules(),
        );
        if state.is_over() {
            return Ok(Probed::Over(state));
        }
        let game = tables.root_game(pos)?;
        let mut sol = game.solve();
        // A won position's winner plays the strategy that makes progress (see
        // ProgressStrategy): the matrix-optimal one may shuttle forever.
        let win = tables.progress_strategy(pos).map(|p| {
            let kind = if p.sure { "sure" } else { "limit" };
            p.apply(&mut sol);
            kind
        });
        let solved = Solved::new(
            sol.value,
            (&game.white, &sol.row_strategy),
            (&game.black, &sol.col_strategy),
        );
        Ok(Probed::Solved { solved, win })
    }

    /// The one JSON object `tb probe --json` prints.
    fn json(&self) -> String {
        match self {
            Probed::Over(state) => Solved::new(state.value(), (&[], &[]), (&[], &[])).json(""),
            Probed::Solved { solved, win } => {
                let win = win.map_or(String::new(), |w| format!(", \"win\": \"{w}\""));
                solved.json(&win)
            }
        }
    }
}

/// The exact value of `pos` and both strategies as the JSON object `tb probe --json` prints
/// (for the web server's `/api/probe`); an error when the tablebases do not cover it.
pub fn probe_json(pos: &Position, tables: &Tablebases) -> Result<String, String> {
    Ok(Probed::new(pos, tables)?.json())
}

/// Print the exact value of `position` and both strategies the engine would play there
/// (the 4-piece tables are built into `dir` first if one is missing: `build_on_first_use`).
pub fn probe(position: &str, dir: &Path, json: bool, rules: RuleSet) -> Result<(), String> {
    let pos = parse_position(position)?;
    build_on_first_use(dir, rules);
    let probed = Probed::new(&pos, &Tablebases::open(dir, rules))?;
    if json {
        outln!("{}", probed.json());
        return Ok(());
    }
    match probed {
        Probed::Over(state) => {
            outln!("value (White): {}", clean(state.value()));
            outln!("game over: {}", state.describe());
        }
        Probed::Solved { solved, win } => {
            outln!("position: {}", format_position(&pos));
            outln!("{}", solved.text(12));
            match win {
                Some("sure") => {
                    outln!("win: sure (the winner's strategy risks nothing and makes progress)")
                }
                Some(_) => outln!(
                    "win: limit-sure (no strategy wins with certainty; this one wins with probability -> 1 as its small weights shrink, here {LAYER_WEIGHT} per layer)"
                ),
                None => {}
            }
        }
    }
    Ok(())
}

/// Check the fixed point on every position of every class in `dir` (or of `class` only);
/// an error when a residual exceeds the tolerance.
pub fn verify(dir: &Path, class: Option<&str>, rules: RuleSet) -> Result<(), String> {
    let tables = Tablebases::open(dir, rules);
    let classes = match class {
        Some(name) => vec![ClassKey::parse(name)?],
        None => classes_in_build_order(tables.max_pieces()),
    };
    if classes.is_empty() {
        return Err(format!("no tablebase files in {}", tables.dir().display()));
    }
    let mut worst: f64 = 0.0;
    let mut total = 0;
    for key in &classes {
        let r = tables.verify_class(key)?;
        outln!(
            "{:<14} {:>10} positions  max residual {:.3e}",
            key.name(),
            r.positions,
            r.max_residual
        );
        if r.max_residual > VERIFY_TOLERANCE {
            if let Some(p) = r.worst {
                outln!("  worst: {}", format_position(&p));
            }
        }
        worst = worst.max(r.max_residual);
        total += r.positions;
    }
    outln!(
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

/// One class's line, written (and flushed) as soon as the class is finished.
fn print_class_line(s: &ClassSummary) {
    outln!(
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
}

fn print_build_totals(summaries: &[ClassSummary], seconds: f64) {
    let mut both = [0u64; 4];
    let (mut stored, mut bytes, mut unconverged) = (0u64, 0u64, 0);
    for s in summaries {
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
    outln!(
        "total: {} classes, {stored} positions stored ({all} with both colours), {bytes} bytes, {seconds:.1} s",
        summaries.len()
    );
    outln!(
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
