//! `apocalypse solve`: the value and both optimal mixed strategies of a position, either
//! exactly for the game cut off after N turns or by the anytime search.

use std::path::PathBuf;
use std::time::Instant;

use super::print::{clean, Solved, Strategy};
use crate::apocalypse::rules::board::Position;
use crate::apocalypse::rules::notation::{diagram, parse_position};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::search::anytime::{self, Iteration, Limits};
use crate::apocalypse::solver::{self, Method, RootSolution};
use crate::apocalypse::tablebase::Tablebases;
use crate::console::{out, outln};

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
        /// Directory of the tablebase files.
        tb_dir: PathBuf,
    },
}

/// Solve `position` and print the value and both strategies (one JSON object per report with
/// `json`).
pub fn solve(position: &str, by: SolveBy, json: bool) -> Result<(), String> {
    let pos = parse_position(position)?;
    match by {
        SolveBy::Turns { turns, method } => {
            solve_turns(&pos, turns, method, json);
            Ok(())
        }
        SolveBy::Search { limits, tb_dir } => {
            search(&pos, limits, &Tablebases::open(&tb_dir), json)
        }
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
    fn new(pos: &Position, turns: u32, method: Method) -> ExactSolve {
        let started = Instant::now();
        let (root, tables) = solver::solve_keeping_tables(pos, turns, method);
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
        let root = &self.root;
        Solved::new(
            root.value,
            (&root.white_moves, &root.white),
            (&root.black_moves, &root.black),
        )
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

/// The exact solution of `pos` cut off after `turns` turns, as the JSON object
/// `solve --turns N --json` prints (for the web server's `/api/solve`).
pub fn turns_json(pos: &Position, turns: u32, method: Method) -> String {
    ExactSolve::new(pos, turns, method).json()
}

/// Print the exact N-turn solution (the board first, unless `json`).
fn solve_turns(pos: &Position, turns: u32, method: Method, json: bool) {
    let solution = ExactSolve::new(pos, turns, method);
    if json {
        outln!("{}", solution.json());
        return;
    }
    out!("{}", diagram(pos));
    let state = outcome(pos);
    if state.is_over() {
        outln!("game over: {}", state.describe());
    }
    outln!("{}", solution.text());
}

/// The anytime search, one report per completed iteration.
fn search(pos: &Position, limits: Limits, tables: &Tablebases, json: bool) -> Result<(), String> {
    let state = outcome(pos);
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
    format!(
        "{{\"depth\": {}, \"value\": {}, \"exact\": {}, \"nodes\": {}, \"time_ms\": {}, \"white\": {}, \"black\": {}}}",
        it.depth,
        clean(it.value),
        it.exact,
        it.nodes,
        it.elapsed.as_millis(),
        Strategy::new(&it.white_moves, &it.white).json(),
        Strategy::new(&it.black_moves, &it.black).json()
    )
}

/// One search iteration: one line of text or one JSON object.
fn print_iteration(it: &Iteration, json: bool) {
    if json {
        outln!("{}", iteration_json(it));
        return;
    }
    outln!(
        "depth {:>2}  value {:+.6}{}  nodes {:>10}  time {:>6} ms  White: {}  Black: {}",
        it.depth,
        clean(it.value),
        if it.exact { " (exact)" } else { "" },
        it.nodes,
        it.elapsed.as_millis(),
        Strategy::new(&it.white_moves, &it.white).text(4),
        Strategy::new(&it.black_moves, &it.black).text(4)
    );
}
