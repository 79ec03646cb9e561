//! The `apocalypse` binary: rules and solvers for Apocalypse.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variant_engines::apocalypse::board::Side;
use variant_engines::apocalypse::moves::{declarable_moves, to_action};
use variant_engines::apocalypse::notation::{
    diagram, format_move, format_position, parse_joint_move, parse_position,
};
use variant_engines::apocalypse::outcome::outcome;
use variant_engines::apocalypse::report::describe_turn;
use variant_engines::apocalypse::resolve::resolve;

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
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Moves { position } => {
            let pos = parse_position(&position.join(" "))?;
            print!("{}", diagram(&pos));
            let state = outcome(&pos);
            if state.is_over() {
                println!("game over: {}; no moves", state.describe());
                return Ok(());
            }
            for side in Side::BOTH {
                let moves: Vec<String> = declarable_moves(&pos, side)
                    .into_iter()
                    .map(format_move)
                    .collect();
                println!("{} ({}): {}", side.name(), moves.len(), moves.join(" "));
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
            println!("{}", format_position(&next));
            print!("{}", diagram(&next));
            for line in describe_turn(declared, actions, &events) {
                println!("{line}");
            }
            println!("{}", outcome(&next).describe());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    variant_engines::logging::init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("apocalypse: {message}");
            ExitCode::from(2)
        }
    }
}
