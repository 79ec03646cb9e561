//! The `apocalypse` binary: rules and solvers for Apocalypse.

use std::process::ExitCode;
use variant_engines::console::{out, outln};

use std::time::Instant;

use clap::{Parser, Subcommand};
use variant_engines::apocalypse::commands::{self, clean, strategy_json};
use variant_engines::apocalypse::rules::board::Side;
use variant_engines::apocalypse::rules::moves::{declarable_moves, to_action};
use variant_engines::apocalypse::rules::notation::{
    diagram, format_move, format_position, parse_joint_move, parse_position,
};
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::report::describe_turn;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::solver::{self, Method, RootSolution};

/// Apocalypse (5x5 simultaneous-move chess variant): rules and exact solver.
#[derive(Parser)]
#[command(name = "apocalypse", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List each side's declarable moves (legal moves plus the forfeit 0000).
    Moves {
        /// Position `BOARD [PENALTIES [QUIET [TURN]]]` (quote it) or `start`.
        position: Vec<String>,
    },
    /// Resolve one turn and print the new position, the board and what happened.
    Play {
        /// Position (quoted) or `start`.
        position: String,
        /// Joint move, White's first, e.g. `c1c2 e4e3` (one quoted argument or two).
        #[arg(num_args = 1..=2, required = true)]
        joint_move: Vec<String>,
    },
    /// Endgame tablebases: build, probe, verify.
    Tb(commands::TbArgs),
    /// Best-response gains against the anytime search's root strategies.
    Exploit(commands::ExploitArgs),
    /// Play one side against the engine in the terminal.
    PlayHuman(commands::PlayHumanArgs),
    /// Engine matches against a uniform-random player or itself.
    Selfplay(commands::SelfplayArgs),
    /// Solve the game cut off after N turns: value and both optimal mixed strategies.
    Solve {
        /// Position (quote it) or `start`.
        position: Vec<String>,
        /// Number of turns (unfinished after them scores 0).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=50), required_unless_present_any = ["movetime", "depth"])]
        turns: Option<u32>,
        /// Anytime search instead: iterative deepening for this many milliseconds.
        #[arg(long, conflicts_with = "turns")]
        movetime: Option<u64>,
        /// Anytime search instead: iterative deepening to this depth (heuristic horizon).
        #[arg(long, conflicts_with = "turns")]
        depth: Option<u32>,
        /// Tablebase directory for the anytime search.
        #[arg(long, default_value = commands::DEFAULT_TB_DIR)]
        tb_dir: std::path::PathBuf,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Use plain backward induction (no pruning).
        #[arg(long)]
        plain: bool,
    },
    /// Run both solvers on the positions of a file and compare nodes and times.
    Bench {
        /// Lines `POSITION ; TURNS ; both|pruned` (`#` starts a comment).
        #[arg(long, default_value = "benches/apocalypse-positions.txt")]
        file: String,
    },
}

/// One solver run for the benchmark: value, nodes, milliseconds.
fn bench_run(
    pos: &variant_engines::apocalypse::Position,
    turns: u32,
    method: Method,
) -> (f64, u64, f64) {
    let started = Instant::now();
    let root = solver::solve(pos, turns, method);
    (
        root.value,
        root.nodes,
        started.elapsed().as_secs_f64() * 1000.0,
    )
}

fn bench(file: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    outln!(
        "{:<40} {:>5} {:>10} {:>12} {:>10} {:>12} {:>10} {:>8}",
        "position",
        "turns",
        "value",
        "plain nodes",
        "plain ms",
        "pruned nodes",
        "pruned ms",
        "ratio"
    );
    let mut ratios = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [position, turns, methods] = fields[..] else {
            return Err(format!(
                "bad bench line '{line}': expected POSITION ; TURNS ; METHODS"
            ));
        };
        let pos = parse_position(position)?;
        let turns: u32 = turns
            .parse()
            .map_err(|_| format!("bad turns in '{line}'"))?;
        let (value, nodes, millis) = bench_run(&pos, turns, Method::Pruned);
        let (plain_nodes, plain_ms, ratio) = if methods == "both" {
            let (plain_value, plain_nodes, plain_ms) = bench_run(&pos, turns, Method::Plain);
            if (plain_value - value).abs() > 1e-6 {
                return Err(format!(
                    "{position}: pruned value {value} differs from plain {plain_value}"
                ));
            }
            let ratio = plain_nodes as f64 / nodes.max(1) as f64;
            ratios.push(ratio);
            (
                plain_nodes.to_string(),
                format!("{plain_ms:.1}"),
                format!("{ratio:.1}"),
            )
        } else {
            ("-".to_string(), "-".to_string(), "-".to_string())
        };
        outln!(
            "{:<40} {:>5} {:>10.6} {:>12} {:>10} {:>12} {:>10.1} {:>8}",
            position,
            turns,
            clean(value),
            plain_nodes,
            plain_ms,
            nodes,
            millis,
            ratio
        );
    }
    if !ratios.is_empty() {
        ratios.sort_by(f64::total_cmp);
        outln!(
            "node ratio plain/pruned: median {:.1}, min {:.1}, max {:.1}",
            ratios[ratios.len() / 2],
            ratios[0],
            ratios[ratios.len() - 1]
        );
    }
    Ok(())
}

/// A strategy as (move, probability), largest first, zero-probability moves left out.
fn strategy_lines(
    moves: &[variant_engines::apocalypse::Move],
    probs: &[f64],
) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = moves
        .iter()
        .zip(probs)
        .filter(|(_, &p)| p > 1e-12)
        .map(|(&m, &p)| (format_move(m), p))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out
}

fn print_solution(root: &RootSolution, turns: u32, json: bool, exploitability: f64, millis: f64) {
    let white = strategy_lines(&root.white_moves, &root.white);
    let black = strategy_lines(&root.black_moves, &root.black);
    if json {
        outln!(
            "{{\"value\": {}, \"white\": {}, \"black\": {}, \"turns\": {}, \"nodes\": {}, \"exploitability\": {}, \"time_ms\": {:.1}}}",
            clean(root.value),
            strategy_json(&white),
            strategy_json(&black),
            turns,
            root.nodes,
            clean(exploitability),
            millis
        );
        return;
    }
    outln!("value (White): {:.9}", clean(root.value));
    for (name, lines) in [("White", &white), ("Black", &black)] {
        let parts: Vec<String> = lines
            .iter()
            .map(|(m, p)| format!("{m} {:.6}", clean(*p)))
            .collect();
        outln!(
            "{name}: {}",
            if parts.is_empty() {
                "(no moves)".to_string()
            } else {
                parts.join(", ")
            }
        );
    }
    outln!(
        "turns: {turns}  nodes: {}  time: {:.1} ms",
        root.nodes,
        millis
    );
    outln!("exploitability: {:.3e}", exploitability);
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Moves { position } => {
            let pos = parse_position(&position.join(" "))?;
            out!("{}", diagram(&pos));
            let state = outcome(&pos);
            if state.is_over() {
                outln!("game over: {}; no moves", state.describe());
                return Ok(());
            }
            for side in Side::BOTH {
                let moves: Vec<String> = declarable_moves(&pos, side)
                    .into_iter()
                    .map(format_move)
                    .collect();
                outln!("{} ({}): {}", side.name(), moves.len(), moves.join(" "));
            }
            Ok(())
        }
        Command::Play {
            position,
            joint_move,
        } => {
            let pos = parse_position(&position)?;
            let declared = parse_joint_move(&joint_move.join(" "))?;
            let state = outcome(&pos);
            if state.is_over() {
                return Err(format!("game is already over: {}", state.describe()));
            }
            let actions = [
                to_action(&pos, Side::White, declared[0]),
                to_action(&pos, Side::Black, declared[1]),
            ];
            let (next, events) = resolve(&pos, actions);
            outln!("{}", format_position(&next));
            out!("{}", diagram(&next));
            for line in describe_turn(declared, actions, &events) {
                outln!("{line}");
            }
            outln!("{}", outcome(&next).describe());
            Ok(())
        }
        Command::Solve {
            position,
            turns,
            json,
            plain,
            movetime,
            depth,
            tb_dir,
        } => {
            let Some(turns) = turns else {
                return commands::run_search(&position, depth, movetime, json, &tb_dir);
            };
            let pos = parse_position(&position.join(" "))?;
            let method = if plain { Method::Plain } else { Method::Pruned };
            let started = Instant::now();
            let (root, tables) = solver::solve_keeping_tables(&pos, turns, method);
            let millis = started.elapsed().as_secs_f64() * 1000.0;
            let exploitability =
                solver::exploitability(&pos, turns, &root, tables.as_ref()).total();
            if !json {
                out!("{}", diagram(&pos));
                let state = outcome(&pos);
                if state.is_over() {
                    outln!("game over: {}", state.describe());
                }
            }
            print_solution(&root, turns, json, exploitability, millis);
            Ok(())
        }
        Command::Bench { file } => bench(&file),
        Command::Tb(args) => commands::run_tb(args),
        Command::Exploit(args) => commands::run_exploit(args),
        Command::PlayHuman(args) => commands::run_play_human(args),
        Command::Selfplay(args) => commands::run_selfplay(args),
    }
}

fn main() -> ExitCode {
    variant_engines::console::init_logging();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("apocalypse: {message}");
            ExitCode::from(2)
        }
    }
}
