//! The `apocalypse` binary: the command line's clap definitions and the dispatch to
//! `variant_engines::apocalypse::cli`, where every subcommand is implemented.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use variant_engines::apocalypse::cli::serve::ServeOptions;
use variant_engines::apocalypse::cli::{self, solve::SolveBy};
use variant_engines::apocalypse::play::Player;
use variant_engines::apocalypse::rules::board::Side;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::search::anytime::Limits;
use variant_engines::apocalypse::solver::Method;
use variant_engines::apocalypse::tablebase::DEFAULT_DIR;

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

#[derive(Subcommand)]
enum Command {
    /// List each side's declarable moves (legal moves plus the forfeit 0000).
    Moves {
        /// Position `BOARD [PENALTIES [QUIET [TURN]]]` (quote it) or `start`.
        #[arg(required = true)]
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
    Tb {
        #[command(subcommand)]
        action: TbAction,
    },
    /// Value and both optimal mixed strategies: exactly for the game cut off after N turns
    /// (--turns), or by the anytime search (--depth, --movetime).
    Solve {
        /// Position (quote it) or `start`.
        #[arg(required = true)]
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
        /// Tablebase directory for the anytime search (default `tablebases`); the exact
        /// N-turn solve (--turns) cannot use tablebases (their values are those of the game
        /// without a turn limit).
        #[arg(long, conflicts_with = "turns")]
        tb_dir: Option<PathBuf>,
        /// Print one JSON object per report.
        #[arg(long)]
        json: bool,
        /// With --turns: plain backward induction (no pruning).
        #[arg(long, conflicts_with_all = ["movetime", "depth"])]
        plain: bool,
    },
    /// Best-response gains against the anytime search's root strategies.
    #[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime"]).required(true).multiple(true)))]
    Exploit {
        /// Position (quote it); not with --tb-class.
        #[arg(required_unless_present = "tb_class", conflicts_with = "tb_class")]
        position: Vec<String>,
        /// Search depth (turns) of the strategies measured.
        #[arg(long)]
        depth: Option<u32>,
        /// Search time per position instead of a depth.
        #[arg(long)]
        movetime: Option<u64>,
        /// Measure every position of a tablebase class (e.g. `PNvp-00`) against exact values.
        #[arg(long)]
        tb_class: Option<String>,
        /// With --tb-class: measure only every K-th position.
        #[arg(long, default_value_t = 1)]
        step: u64,
        /// With --tb-class: search without tablebases (heuristic strategies, measured exactly).
        #[arg(long)]
        no_tb_search: bool,
        /// Directory of the tablebase files (default `tablebases`).
        #[arg(long)]
        tb_dir: Option<PathBuf>,
    },
    /// Play one side against the engine in the terminal.
    PlayHuman {
        /// Start position (quote it); default the start position.
        position: Vec<String>,
        /// The side you play.
        #[arg(long, value_enum, default_value_t = SideArg::White)]
        side: SideArg,
        /// Engine time per turn in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Random seed of the engine's draws (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
        /// Directory of the tablebase files (default `tablebases`).
        #[arg(long)]
        tb_dir: Option<PathBuf>,
    },
    /// Engine matches against a uniform-random player or itself.
    Selfplay {
        /// Number of games (colours alternate).
        #[arg(long)]
        games: u32,
        /// Engine time per turn in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Engine search depth per turn instead of a time (faster, reproducible).
        #[arg(long)]
        depth: Option<u32>,
        /// The opponent.
        #[arg(long, value_enum, default_value_t = OpponentArg::Random)]
        opponent: OpponentArg,
        /// Depth cap (turns) of the alpha-beta opponent, which otherwise searches as deep as
        /// the engine's time per turn (or its --depth) allows.
        #[arg(long)]
        opponent_depth: Option<u32>,
        /// The engine predicts the alpha-beta player's moves by running its search and stakes
        /// on the prediction only the value the opponent has already given away (safe
        /// exploitation; the whole game still guarantees the start position's value).
        #[arg(long)]
        exploit: bool,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start position (quote it); default the start position.
        #[arg(long)]
        position: Option<String>,
        /// Start each pair of games (one with each colour) this many uniformly random turns
        /// after the start position, so that deterministic players do not replay one game.
        #[arg(long, default_value_t = 0)]
        random_turns: u32,
        /// Directory of the tablebase files (default `tablebases`).
        #[arg(long)]
        tb_dir: Option<PathBuf>,
    },
    /// Local web server: edit a position, see both mixed strategies drawn on the board, play
    /// the engine (open the printed address in a browser).
    Serve {
        /// TCP port (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on; the default serves this machine only.
        #[arg(long, default_value = "127.0.0.1")]
        host: IpAddr,
        /// Directory of the tablebase files.
        #[arg(long, default_value = DEFAULT_DIR)]
        tb_dir: PathBuf,
        /// The engine's thinking time per move in milliseconds (the page may ask for up to 10000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        movetime: u64,
    },
    /// Refit the evaluation's weights to self-play results and tablebase values, and print them.
    Tune {
        /// Self-play games to label (from random openings).
        #[arg(long, default_value_t = 12_000)]
        games: u64,
        /// Search depth of both players in those games.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Positions sampled per tablebase class.
        #[arg(long, default_value_t = 20_000)]
        per_class: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Directory of the tablebase files (needed: they label positions).
        #[arg(long, default_value = DEFAULT_DIR)]
        tb_dir: PathBuf,
    },
    /// Run both exact solvers on the positions of a file and compare nodes and times.
    Bench {
        /// Lines `POSITION ; TURNS ; both|pruned` (`#` starts a comment).
        #[arg(long, default_value = "benches/apocalypse-positions.txt")]
        file: String,
    },
}

#[derive(Subcommand)]
enum TbAction {
    /// Solve every position with at most K pieces exactly (resumes an interrupted build).
    Build {
        /// Largest number of pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        max_pieces: u32,
        /// Directory of the tablebase files.
        #[arg(long, default_value = DEFAULT_DIR)]
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

/// The side a person plays.
#[derive(Clone, Copy, ValueEnum)]
enum SideArg {
    White,
    Black,
}

/// The engine's opponent in a match.
#[derive(Clone, Copy, ValueEnum)]
enum OpponentArg {
    /// Uniform over legal moves.
    Random,
    /// The engine itself.
    #[value(name = "self")]
    Engine,
    /// Pure strategy: iterative-deepening alpha-beta on the serialized game (it assumes the
    /// engine sees its move), same evaluation, tablebases and time per turn.
    Alphabeta,
}

fn run(command: Command, rules: RuleSet) -> Result<(), String> {
    match command {
        Command::Moves { position } => cli::rules::moves(&position.join(" "), rules),
        Command::Play {
            position,
            joint_move,
        } => cli::rules::play(&position, &joint_move.join(" "), rules),
        Command::Tb { action } => match action {
            TbAction::Build {
                max_pieces,
                dir,
                max_iterations,
            } => cli::tablebase::build(max_pieces, &dir, max_iterations, rules),
            TbAction::Probe {
                position,
                dir,
                json,
            } => cli::tablebase::probe(&position.join(" "), &dir, json, rules),
            TbAction::Verify { dir, class } => {
                cli::tablebase::verify(&dir, class.as_deref(), rules)
            }
        },
        Command::Solve {
            position,
            turns,
            movetime,
            depth,
            tb_dir,
            json,
            plain,
        } => {
            let by = match turns {
                Some(turns) => SolveBy::Turns {
                    turns,
                    method: if plain { Method::Plain } else { Method::Pruned },
                },
                None => SolveBy::Search {
                    limits: Limits::new(depth, movetime),
                    tb_dir,
                },
            };
            cli::solve::solve(&position.join(" "), by, json, rules)
        }
        Command::Exploit {
            position,
            depth,
            movetime,
            tb_class,
            step,
            no_tb_search,
            tb_dir,
        } => {
            let limits = Limits::new(depth, movetime);
            match tb_class {
                Some(class) => cli::exploit::class(
                    &class,
                    step,
                    no_tb_search,
                    limits,
                    tb_dir.as_deref(),
                    rules,
                ),
                None => {
                    cli::exploit::position(&position.join(" "), limits, tb_dir.as_deref(), rules)
                }
            }
        }
        Command::PlayHuman {
            position,
            side,
            movetime,
            seed,
            tb_dir,
        } => {
            let side = match side {
                SideArg::White => Side::White,
                SideArg::Black => Side::Black,
            };
            let position = (!position.is_empty()).then(|| position.join(" "));
            cli::games::play_human(
                position.as_deref(),
                side,
                movetime,
                seed,
                tb_dir.as_deref(),
                rules,
            )
        }
        Command::Selfplay {
            games,
            movetime,
            depth,
            opponent,
            opponent_depth,
            exploit,
            seed,
            position,
            random_turns,
            tb_dir,
        } => {
            let limits = match depth {
                Some(_) => Limits::new(depth, None),
                None => Limits::new(None, Some(movetime)),
            };
            if opponent_depth.is_some() && !matches!(opponent, OpponentArg::Alphabeta) {
                return Err("--opponent-depth needs --opponent alphabeta".to_string());
            }
            let opponent = match opponent {
                OpponentArg::Random => Player::Random,
                OpponentArg::Engine => Player::Engine,
                OpponentArg::Alphabeta => Player::AlphaBeta(opponent_depth),
            };
            let options = cli::games::MatchOptions {
                games,
                engine: if exploit {
                    Player::Exploiter
                } else {
                    Player::Engine
                },
                limits,
                opponent,
                seed,
                position: position.as_deref(),
                random_turns,
            };
            cli::games::selfplay(options, tb_dir.as_deref(), rules)
        }
        Command::Serve {
            port,
            host,
            tb_dir,
            movetime,
        } => cli::serve::serve(&ServeOptions {
            host,
            port,
            tb_dir,
            movetime_ms: movetime,
            rules,
        }),
        Command::Tune {
            games,
            depth,
            per_class,
            seed,
            tb_dir,
        } => cli::tune::tune(
            &tb_dir,
            rules,
            &cli::tune::TuneOptions {
                games,
                depth,
                per_class,
                seed,
            },
        ),
        Command::Bench { file } => cli::bench::bench(&file, rules),
    }
}

fn main() -> ExitCode {
    variant_engines::console::init_logging();
    let cli = Cli::parse();
    match run(cli.command, cli.rules) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("apocalypse: {message}");
            ExitCode::from(2)
        }
    }
}
