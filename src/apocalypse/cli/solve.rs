//! `apocalypse solve`: the value and both optimal mixed strategies of a position, either
//! exactly for the game cut off after N turns or by the anytime search.

use std::path::PathBuf;
use std::time::Instant;

use super::print::{clean, Solved};
use super::tables::open_for_search;
use crate::apocalypse::rules::board::Position;
use crate::apocalypse::rules::notation::{diagram, parse_position};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::{self, Iteration, Limits};
use crate::apocalypse::solver::{self, Method, RootSolution};
use crate::apocalypse::tablebase::Tablebases;
use crate::console::{out, outln};

/// Arguments of `apocalypse solve`.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// Position (quote it) or `start`.
    #[arg(required = true)]
    pub position: Vec<String>,
    /// Number of turns (unfinished after them scores 0).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=50), required_unless_present_any = ["movetime", "depth"])]
    pub turns: Option<u32>,
    /// Anytime search instead: iterative deepening for this many milliseconds.
    #[arg(long, conflicts_with = "turns")]
    pub movetime: Option<u64>,
    /// Anytime search instead: iterative deepening to this depth (heuristic horizon).
    #[arg(long, conflicts_with = "turns")]
    pub depth: Option<u32>,
    /// Tablebase directory for the anytime search (default: $APOCALYPSE_TB_DIR, else the
    /// per-user data directory; the 4-piece tables are built there on first use); the exact
    /// N-turn solve (--turns) cannot use tablebases (their values are those of the game
    /// without a turn limit).
    #[arg(long, conflicts_with = "turns")]
    pub tb_dir: Option<PathBuf>,
    /// Print one JSON object per report.
    #[arg(long)]
    pub json: bool,
    /// With --turns: plain backward induction (no pruning).
    #[arg(long, conflicts_with_all = ["movetime", "depth"])]
    pub plain: bool,
}

/// Run `apocalypse solve` under `rules`: exactly with `--turns`, else by the anytime search.
pub fn run(args: &SolveArgs, rules: RuleSet) -> Result<(), String> {
    let by = match args.turns {
        Some(turns) => SolveBy::Turns {
            turns,
            method: if args.plain {
                Method::Plain
            } else {
                Method::Pruned
            },
        },
        None => SolveBy::Search {
            limits: Limits::new(args.depth, args.movetime),
            tb_dir: args.tb_dir.clone(),
        },
    };
    solve(&args.position.join(" "), by, args.json, rules)
}

/// How `solve` finds the value.
#[derive(Clone, Debug)]
pub enum SolveBy {
    /// Exactly, for the game cut off after `turns` turns (unfinished then scores 0).
    Turns {
        /// Number of turns.
        turns: u32,
        /// Which exact solver.
        method: Method,
    },
    /// Iterative deepening within `limits`, exact where the tablebases in `tb_dir` reach.
    Search {
        /// Depth or time.
        limits: Limits,
        /// Directory of the tablebase files (default: `tables::default_dir()`).
        tb_dir: Option<PathBuf>,
    },
}

/// Solve `position` under `rules` and print the value and both strategies (one JSON object per
/// report with `json`).
pub fn solve(position: &str, by: SolveBy, json: bool, rules: RuleSet) -> Result<(), String> {
    let pos = parse_position(position)?;
    match by {
        SolveBy::Turns { turns, method } => {
            solve_turns(&pos, turns, method, json, rules);
            Ok(())
        }
        SolveBy::Search { limits, tb_dir } => search(
            &pos,
            limits,
            &open_for_search(tb_dir.as_deref(), rules),
            json,
        ),
    }
}

/// An exact N-turn solution with the exploitability of its strategies checked afresh.
struct ExactSolve {
    root: RootSolution,
    turns: u32,
    exploitability: f64,
    millis: f64,
}

impl ExactSolve {
    fn new(pos: &Position, turns: u32, method: Method, rules: RuleSet) -> ExactSolve {
        let started = Instant::now();
        let (root, tables) = solver::solve_keeping_tables(pos, turns, method, rules);
        let millis = started.elapsed().as_secs_f64() * 1000.0;
        let exploitability = solver::exploitability(pos, turns, &root, tables.as_ref()).total();
        ExactSolve {
            root,
            turns,
            exploitability,
            millis,
        }
    }

    fn solved(&self) -> Solved {
        Solved::of(&self.root)
    }

    /// The one JSON object `solve --turns N --json` prints.
    fn json(&self) -> String {
        self.solved().json(&format!(
            ", \"turns\": {}, \"nodes\": {}, \"exploitability\": {}, \"time_ms\": {:.1}",
            self.turns,
            self.root.nodes,
            clean(self.exploitability),
            self.millis
        ))
    }

    fn text(&self) -> String {
        format!(
            "{}\nturns: {}  nodes: {}  time: {:.1} ms\nexploitability: {:.3e}",
            self.solved().text(9),
            self.turns,
            self.root.nodes,
            self.millis,
            self.exploitability
        )
    }
}

/// The exact solution of `pos` under `rules` cut off after `turns` turns, as the JSON object
/// `solve --turns N --json` prints (for the web server's `/api/solve`).
pub fn turns_json(pos: &Position, turns: u32, method: Method, rules: RuleSet) -> String {
    ExactSolve::new(pos, turns, method, rules).json()
}

/// Print the exact N-turn solution under `rules` (the board first, unless `json`).
fn solve_turns(pos: &Position, turns: u32, method: Method, json: bool, rules: RuleSet) {
    let solution = ExactSolve::new(pos, turns, method, rules);
    if json {
        outln!("{}", solution.json());
        return;
    }
    out!("{}", diagram(pos));
    let state = outcome(pos, rules);
    if state.is_over() {
        outln!("game over: {}", state.describe());
    }
    outln!("{}", solution.text());
}

/// The anytime search, one report per completed iteration.
fn search(pos: &Position, limits: Limits, tables: &Tablebases, json: bool) -> Result<(), String> {
    let state = outcome(pos, tables.rules());
    if state.is_over() {
        return Err(format!("game is already over: {}", state.describe()));
    }
    anytime::search(pos, limits, tables, |it| print_iteration(it, json))
        .ok_or("no iteration completed")?;
    Ok(())
}

/// One search iteration as the JSON object `solve --depth/--movetime --json` prints for it
/// (for the web server's `/api/solve`).
pub fn iteration_json(it: &Iteration) -> String {
    let solved = Solved::of(&it.root);
    format!(
        "{{\"depth\": {}, \"value\": {}, \"exact\": {}, \"nodes\": {}, \"time_ms\": {}, \"white\": {}, \"black\": {}}}",
        it.depth,
        clean(solved.value),
        it.exact,
        it.root.nodes,
        it.elapsed.as_millis(),
        solved.white.json(),
        solved.black.json()
    )
}

/// One search iteration: one line of text or one JSON object.
fn print_iteration(it: &Iteration, json: bool) {
    if json {
        outln!("{}", iteration_json(it));
        return;
    }
    let solved = Solved::of(&it.root);
    outln!(
        "depth {:>2}  value {:+.6}{}  nodes {:>10}  time {:>6} ms  White: {}  Black: {}",
        it.depth,
        clean(solved.value),
        if it.exact { " (exact)" } else { "" },
        it.root.nodes,
        it.elapsed.as_millis(),
        solved.white.text(4),
        solved.black.text(4)
    );
}
