//! The `extinction` binary: Extinction chess engine (UCI, XBoard, analysis, perft, bench).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variant_engines::extinction::{divide_parallel, perft_threaded, protocol, Position};

/// Extinction chess engine.
#[derive(Parser, Debug)]
#[command(name = "extinction", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Subcommands of the `extinction` binary.
#[derive(Subcommand, Debug)]
enum Command {
    /// Count leaf nodes of the move tree (move generator test).
    Perft(PerftArgs),
    /// Speak UCI on stdin/stdout.
    Uci,
    /// Speak XBoard / CECP v2 on stdin/stdout.
    Xboard,
    /// Analyse a position or the moves of a PGN game.
    Analyze(variant_engines::extinction::analyze::AnalyzeArgs),
    /// Search a fixed set of positions to a fixed depth; prints node count and speed.
    Bench(BenchArgs),
    /// Play fast self-play games and write quiet positions labelled with results (tuning data).
    Datagen(variant_engines::extinction::datagen::DatagenArgs),
    /// Turn finished PGN games into labelled quiet positions (tuning data).
    ImportPgn(variant_engines::extinction::datagen::ImportArgs),
    /// Fit the evaluation weights to labelled positions and write weights_tuned.rs.
    Tune(variant_engines::extinction::tune::TuneArgs),
}

/// Arguments of `extinction bench`.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Search depth per position.
    #[arg(long, short, default_value_t = variant_engines::extinction::bench::DEFAULT_DEPTH)]
    depth: u32,
}

/// Arguments of `extinction perft`.
#[derive(clap::Args, Debug)]
struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Start position (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Print the node count of each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn run_perft(args: &PerftArgs) -> ExitCode {
    let pos = match &args.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(),
    };
    let nodes = if args.divide {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads.max(1))
            .build();
        let rows = match pool {
            Ok(pool) => pool.install(|| divide_parallel(&pos, args.depth)),
            Err(_) => divide_parallel(&pos, args.depth),
        };
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|&(_, n)| n).sum()
    } else {
        perft_threaded(&pos, args.depth, args.threads)
    };
    println!("Nodes searched: {nodes}");
    ExitCode::SUCCESS
}

fn report(result: Result<(), String>) -> ExitCode {
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
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Uci) => {
            protocol::run(Some(protocol::Protocol::Uci));
            ExitCode::SUCCESS
        }
        Some(Command::Xboard) => {
            protocol::run(Some(protocol::Protocol::Xboard));
            ExitCode::SUCCESS
        }
        Some(Command::Analyze(args)) => match variant_engines::extinction::analyze::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Bench(args)) => {
            variant_engines::extinction::bench::run_and_print(args.depth);
            ExitCode::SUCCESS
        }
        Some(Command::Datagen(args)) => {
            report(variant_engines::extinction::datagen::run_datagen(&args))
        }
        Some(Command::ImportPgn(args)) => {
            report(variant_engines::extinction::datagen::run_import(&args))
        }
        Some(Command::Tune(args)) => report(variant_engines::extinction::tune::run(&args)),
        None => {
            protocol::run(None);
            ExitCode::SUCCESS
        }
    }
}
