//! Command-line front ends of the tablebase, search, exploitability and play tools; the
//! `apocalypse` binary parses into these argument structs and calls the `run_*` functions.

use crate::console::outln;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};

use super::rules::moves::Move;
use super::rules::notation::{format_move, format_position, parse_position};
use super::search::anytime::Limits;
use super::tablebase::build::{build, BuildOptions};
use super::tablebase::limit::LAYER_WEIGHT;
use super::tablebase::{ClassKey, Tablebases, DEFAULT_DIR, VERIFY_TOLERANCE};

/// Default tablebase directory (for the binary's own arguments).
pub const DEFAULT_TB_DIR: &str = DEFAULT_DIR;

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
            let state = super::rules::outcome::outcome(&{
                let mut p = pos;
                p.quiet = 0;
                p
            });
            if state.is_over() {
                if json {
                    outln!(
                        "{{\"value\": {}, \"white\": {{}}, \"black\": {{}}}}",
                        clean(state.value())
                    );
                } else {
                    outln!("value (White): {}", clean(state.value()));
                    outln!("game over: {}", state.describe());
                }
                return Ok(());
            }
            let game = tables.root_game(&pos)?;
            let mut sol = game.solve();
            // A won position's winner plays the strategy that makes progress (see
            // ProgressStrategy): the matrix-optimal one may shuttle forever.
            let win = tables.progress_strategy(&pos).map(|p| {
                let kind = if p.sure { "sure" } else { "limit" };
                p.apply(&mut sol);
                kind
            });
            let white = strategy_entries(&game.white, &sol.row_strategy);
            let black = strategy_entries(&game.black, &sol.col_strategy);
            if json {
                outln!(
                    "{{\"value\": {}, \"white\": {}, \"black\": {}{}}}",
                    clean(sol.value),
                    strategy_json(&white),
                    strategy_json(&black),
                    win.map_or(String::new(), |w| format!(", \"win\": \"{w}\""))
                );
            } else {
                outln!("position: {}", format_position(&pos));
                outln!("value (White): {:.12}", clean(sol.value));
                outln!("White: {}", strategy_text(&white, usize::MAX));
                outln!("Black: {}", strategy_text(&black, usize::MAX));
                match win {
                    Some("sure") => outln!("win: sure (the winner's strategy risks nothing and makes progress)"),
                    Some(_) => outln!(
                        "win: limit-sure (no strategy wins with certainty; this one wins with probability -> 1 as its small weights shrink, here {LAYER_WEIGHT} per layer)"
                    ),
                    None => {}
                }
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
    }
}

fn print_build_summary(summaries: &[super::tablebase::build::ClassSummary], seconds: f64) {
    let mut both = [0u64; 4];
    let (mut stored, mut bytes, mut unconverged) = (0u64, 0u64, 0);
    for s in summaries {
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

/// Print one search iteration (text: one line per iteration).
fn print_iteration(it: &super::search::anytime::Iteration, json: bool) {
    let white = strategy_entries(&it.white_moves, &it.white);
    let black = strategy_entries(&it.black_moves, &it.black);
    if json {
        outln!(
            "{{\"depth\": {}, \"value\": {}, \"exact\": {}, \"nodes\": {}, \"time_ms\": {}, \"white\": {}, \"black\": {}}}",
            it.depth,
            clean(it.value),
            it.exact,
            it.nodes,
            it.elapsed.as_millis(),
            strategy_json(&white),
            strategy_json(&black)
        );
    } else {
        outln!(
            "depth {:>2}  value {:+.6}{}  nodes {:>10}  time {:>6} ms  White: {}  Black: {}",
            it.depth,
            clean(it.value),
            if it.exact { " (exact)" } else { "" },
            it.nodes,
            it.elapsed.as_millis(),
            strategy_text(&white, 4),
            strategy_text(&black, 4)
        );
    }
}

/// `apocalypse solve POS --depth D | --movetime MS`: anytime search with a report per
/// iteration (the exact N-turn `--turns` solve lives in the solver module).
pub fn run_search(
    position: &[String],
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    json: bool,
    tb_dir: &std::path::Path,
) -> Result<(), String> {
    let pos = parse_position(&position.join(" "))?;
    let state = super::rules::outcome::outcome(&pos);
    if state.is_over() {
        return Err(format!("game is already over: {}", state.describe()));
    }
    let tables = Tablebases::open(tb_dir);
    let limits = Limits::new(depth, movetime_ms);
    super::search::anytime::search(&pos, limits, &tables, |it| print_iteration(it, json))
        .ok_or("no iteration completed")?;
    Ok(())
}

/// `apocalypse exploit ...`: best-response gains against the search's root strategies.
#[derive(Args, Debug)]
pub struct ExploitArgs {
    /// Position (quote it); not with --tb-class.
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
    /// Directory of the tablebase files.
    #[arg(long, default_value = DEFAULT_DIR)]
    tb_dir: PathBuf,
}

/// Run `apocalypse exploit ...`.
pub fn run_exploit(args: ExploitArgs) -> Result<(), String> {
    if args.depth.is_none() && args.movetime.is_none() {
        return Err("exploit needs --depth D or --movetime MS".to_string());
    }
    let limits = Limits::new(args.depth, args.movetime);
    let tables = Tablebases::open(&args.tb_dir);
    let Some(class) = args.tb_class else {
        let pos = parse_position(&args.position.join(" "))?;
        let it = super::search::anytime::search(&pos, limits, &tables, |_| {})
            .ok_or("the game is over in this position")?;
        let e = super::search::exploit::of_search(&pos, &it, &tables);
        outln!(
            "search depth {}: value {:+.6}; reference value {:+.6} (exact where tablebased, else depth {} per successor)",
            it.depth,
            clean(it.value),
            clean(e.reference_value),
            it.depth
        );
        outln!(
            "best-response gains: White {:.3e}, Black {:.3e}, total {:.3e}",
            e.gains.row_gain,
            e.gains.col_gain,
            e.gains.total()
        );
        return Ok(());
    };
    if !args.position.is_empty() {
        return Err("give either a position or --tb-class, not both".to_string());
    }
    let key = ClassKey::parse(&class)?;
    let table = tables
        .table(&key)
        .ok_or_else(|| format!("class {class} not available in {}", args.tb_dir.display()))?;
    let none = Tablebases::none();
    let search_tables = if args.no_tb_search { &none } else { &tables };
    let (mut count, mut sum, mut worst) = (0u64, 0.0f64, 0.0f64);
    let started = Instant::now();
    for idx in (0..table.index.len()).step_by(args.step.max(1) as usize) {
        let pos = table.index.position(idx);
        if super::rules::outcome::outcome(&pos).is_over() {
            continue;
        }
        let e = super::search::exploit::against_tablebase(&pos, limits, search_tables, &tables)?;
        count += 1;
        sum += e.gains.total();
        worst = worst.max(e.gains.total());
    }
    outln!(
        "{}: {count} unfinished positions, strategies from a search {} tablebases; best-response gains (White + Black) mean {:.3e}, max {:.3e}; {:.1} s",
        key.name(),
        if args.no_tb_search { "without" } else { "with" },
        sum / count.max(1) as f64,
        worst,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `apocalypse play-human`: play one side against the engine in the terminal.
#[derive(Args, Debug)]
pub struct PlayHumanArgs {
    /// Start position (quote it); default the start position.
    position: Vec<String>,
    /// The side you play.
    #[arg(long, default_value = "white", value_parser = ["white", "black"])]
    side: String,
    /// Engine time per turn in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Random seed of the engine's draws (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Directory of the tablebase files.
    #[arg(long, default_value = DEFAULT_DIR)]
    tb_dir: PathBuf,
}

fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    })
}

/// Run `apocalypse play-human`.
pub fn run_play_human(args: PlayHumanArgs) -> Result<(), String> {
    let pos = if args.position.is_empty() {
        super::Position::start()
    } else {
        parse_position(&args.position.join(" "))?
    };
    let side = if args.side == "white" {
        super::Side::White
    } else {
        super::Side::Black
    };
    let tables = Tablebases::open(&args.tb_dir);
    let mut rng = crate::rng::Rng::new(seed_or_clock(args.seed));
    let limits = Limits::new(None, Some(args.movetime));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    super::play::play_human(
        &pos,
        side,
        limits,
        &tables,
        &mut rng,
        &mut input,
        &mut output,
    )
    .map_err(|e| format!("terminal error: {e}"))?;
    Ok(())
}

/// `apocalypse selfplay`: the engine against a random player or itself.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
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
    #[arg(long, default_value = "random", value_parser = ["random", "self"])]
    opponent: String,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start position (quote it); default the start position.
    #[arg(long)]
    position: Option<String>,
    /// Directory of the tablebase files.
    #[arg(long, default_value = DEFAULT_DIR)]
    tb_dir: PathBuf,
}

/// Run `apocalypse selfplay`.
pub fn run_selfplay(args: SelfplayArgs) -> Result<(), String> {
    use super::play::{play_game, MatchScore, Player, TablebaseAudit};
    let start = match &args.position {
        Some(p) => parse_position(p)?,
        None => super::Position::start(),
    };
    let tables = Tablebases::open(&args.tb_dir);
    let limits = if args.depth.is_some() {
        Limits::new(args.depth, None)
    } else {
        Limits::new(None, Some(args.movetime))
    };
    let opponent = if args.opponent == "random" {
        Player::Random
    } else {
        Player::Engine
    };
    let mut rng = crate::rng::Rng::new(args.seed);
    let mut score = MatchScore::default();
    let mut audit = TablebaseAudit::default();
    for game in 0..args.games {
        let engine_side = if game % 2 == 0 {
            super::Side::White
        } else {
            super::Side::Black
        };
        let players = match engine_side {
            super::Side::White => [Player::Engine, opponent],
            super::Side::Black => [opponent, Player::Engine],
        };
        let (result, game_audit) = play_game(&start, players, limits, &tables, &mut rng);
        audit.add(&game_audit);
        let v = result.value()
            * if engine_side == super::Side::White {
                1.0
            } else {
                -1.0
            };
        match v {
            x if x > 0.0 => score.wins += 1,
            x if x < 0.0 => score.losses += 1,
            _ => score.draws += 1,
        }
        outln!(
            "game {:>4}: engine {} - {}; W {} D {} L {}",
            game + 1,
            engine_side.name(),
            result.describe(),
            score.wins,
            score.draws,
            score.losses
        );
    }
    outln!(
        "{} games: W {} D {} L {}; score {:.3} +/- {:.3} (95%)",
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        score.score(),
        score.error_bar()
    );
    if audit.turns > 0 {
        outln!(
            "tablebase positions: {} engine turns; exact value guaranteed in {}, limit-sure progress (deliberate small risk) in {}, value given away in {}",
            audit.turns, audit.kept, audit.progress, audit.lost
        );
    }
    Ok(())
}
