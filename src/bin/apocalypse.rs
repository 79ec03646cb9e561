//! The `apocalypse` binary: the command line of the Apocalypse solver (rules, exact solvers,
//! tablebases, the anytime search, games and the web server). Only clap definitions and
//! dispatch live here; every subcommand's arguments and implementation are a module of
//! `variant_engines::apocalypse::cli`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variant_engines::apocalypse::cli::{
    bench, exploit, play_human, rules, selfplay, serve, solve, tablebase, tune,
};
use variant_engines::apocalypse::rules::ruleset::RuleSet;

/// Apocalypse (5x5 simultaneous-move chess variant): rules, exact solvers, tablebases, search.
#[derive(Parser)]
#[command(name = "apocalypse", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The rules: `classic` (the spec's reading) or `vchess` (speculative footman steps, a
    /// speculation beats a plain move on a shared square, the last footman may advance).
    /// Tablebases are kept per rule set, in a subdirectory of the tablebase directory.
    #[arg(long, global = true, default_value = "classic", value_parser = RuleSet::parse)]
    rules: RuleSet,
}

/// Subcommands of the `apocalypse` binary.
#[derive(Subcommand)]
enum Command {
    /// List each side's declarable moves (legal moves plus the forfeit 0000).
    Moves(rules::MovesArgs),
    /// Resolve one turn and print the new position, the board and what happened.
    Play(rules::PlayArgs),
    /// Endgame tablebases: build, probe, verify.
    Tb(tablebase::TbArgs),
    /// Value and both optimal mixed strategies: exactly for the game cut off after N turns
    /// (--turns), or by the anytime search (--depth, --movetime).
    Solve(solve::SolveArgs),
    /// Best-response gains against the anytime search's root strategies.
    Exploit(exploit::ExploitArgs),
    /// Play one side against the engine in the terminal.
    PlayHuman(play_human::PlayHumanArgs),
    /// Engine matches against a uniform-random player or itself.
    Selfplay(selfplay::SelfplayArgs),
    /// Local web server: edit a position, see both mixed strategies drawn on the board, play
    /// the engine (open the printed address in a browser).
    Serve(serve::ServeArgs),
    /// Refit the evaluation's weights to self-play results and tablebase values, and print them.
    Tune(tune::TuneArgs),
    /// Run both exact solvers on the positions of a file and compare nodes and times.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    variant_engines::console::init_logging();
    let cli = Cli::parse();
    let rules = cli.rules;
    let result = match cli.command {
        Command::Moves(args) => rules::run_moves(&args, rules),
        Command::Play(args) => rules::run_play(&args, rules),
        Command::Tb(args) => tablebase::run(&args, rules),
        Command::Solve(args) => solve::run(&args, rules),
        Command::Exploit(args) => exploit::run(&args, rules),
        Command::PlayHuman(args) => play_human::run(&args, rules),
        Command::Selfplay(args) => selfplay::run(&args, rules),
        Command::Serve(args) => serve::run(&args, rules),
        Command::Tune(args) => tune::run(&args, rules),
        Command::Bench(args) => bench::run(&args, rules),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("apocalypse: {message}");
            ExitCode::from(2)
        }
    }
}
