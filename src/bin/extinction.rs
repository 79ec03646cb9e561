//! The `extinction` binary: the command line of the Extinction chess engine (UCI, XBoard, and
//! the tools analyze, bench, perft, datagen, import-pgn and tune). Only clap definitions and
//! dispatch live here; every subcommand is a function of the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variant_engines::extinction::protocol::{self, Protocol};
use variant_engines::extinction::tools::{analyze, bench, datagen, perft, train, tune};

/// Extinction chess engine: UCI or XBoard/CECP v2 on stdin/stdout (picked from the first line
/// without a subcommand), plus tools to analyse, benchmark, count perft and tune.
// The doc comment above is the `--help` text: the package description also names the
// Apocalypse solver, which lives in the other binary.
#[derive(Parser, Debug)]
#[command(name = "extinction", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Subcommands of the `extinction` binary.
#[derive(Subcommand, Debug)]
enum Command {
    /// Count leaf nodes of the move tree (move generator test).
    Perft(perft::PerftArgs),
    /// Speak UCI on stdin/stdout.
    Uci,
    /// Speak XBoard / CECP v2 on stdin/stdout.
    Xboard,
    /// Analyse a position, or every move of every game in a PGN file.
    Analyze(analyze::AnalyzeArgs),
    /// Search a fixed set of positions to a fixed depth; prints node count and speed.
    Bench(bench::BenchArgs),
    /// Play fast self-play games and write quiet positions labelled with the search score and the game result (training data; resumable).
    Datagen(datagen::DatagenArgs),
    /// Turn finished PGN games into labelled quiet positions (tuning data).
    ImportPgn(datagen::ImportArgs),
    /// Fit the evaluation weights to labelled positions and rewrite the tuned weights file.
    Tune(tune::TuneArgs),
    /// Train the evaluation network on self-play data and write the network file.
    Train(train::TrainArgs),
}

/// Exit status 0, or 2 after a one-line `error: ...` on stderr.
fn exit_code(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    variant_engines::console::init_logging();
    exit_code(match Cli::parse().command {
        None => protocol::run(None),
        Some(Command::Uci) => protocol::run(Some(Protocol::Uci)),
        Some(Command::Xboard) => protocol::run(Some(Protocol::Xboard)),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Analyze(args)) => analyze::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Datagen(args)) => datagen::run_datagen(&args),
        Some(Command::ImportPgn(args)) => datagen::run_import(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Train(args)) => train::run(&args),
    })
}
