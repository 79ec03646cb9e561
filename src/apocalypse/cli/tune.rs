//! `apocalypse tune`: refit the evaluation's weights (`search::eval::weights`) to labelled
//! positions and print them. Two sets, used in equal parts: the positions of short self-play
//! games from random openings, labelled with the result (or with the tablebase value where the
//! game reaches the tablebases, which ends it), and positions sampled from every tablebase
//! class with their exact values. A fifth of each set is held out to report the error of the
//! current and the fitted weights.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::tables::default_dir;
use crate::apocalypse::play::{engine_move, random_opening};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::search::eval::{features, weights::WEIGHTS, FEATURES};
use crate::apocalypse::search::fit::{fit_weights, mean_squared_error, Sample};
use crate::apocalypse::tablebase::index::classes_in_build_order;
use crate::apocalypse::tablebase::{ClassIndex, Tablebases};
use crate::console::outln;
use crate::rng::Rng;

/// Arguments of `apocalypse tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// Self-play games to label (from random openings).
    #[arg(long, default_value_t = 12_000)]
    pub games: u64,
    /// Search depth of both players in those games.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Positions sampled per tablebase class.
    #[arg(long, default_value_t = 20_000)]
    pub per_class: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Directory of the tablebase files (needed: they label positions; default:
    /// $APOCALYPSE_TB_DIR, else the per-user data directory).
    #[arg(long, default_value_os_t = default_dir())]
    pub tb_dir: PathBuf,
}

/// Run `apocalypse tune` under `rules`.
pub fn run(args: &TuneArgs, rules: RuleSet) -> Result<(), String> {
    let options = TuneOptions {
        games: args.games,
        depth: args.depth,
        per_class: args.per_class,
        seed: args.seed,
    };
    tune(&args.tb_dir, rules, &options)
}

/// What `apocalypse tune` generates and fits.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Self-play games to label.
    pub games: u64,
    /// Search depth of both players in those games.
    pub depth: u32,
    /// Positions sampled per tablebase class (every position of smaller classes).
    pub per_class: u64,
    /// Seed of openings, draws and samples.
    pub seed: u64,
}

/// Longest self-play game kept (turns); a longer one is labelled a draw.
const MAX_GAME_TURNS: u32 = 150;

/// The positions of one self-play game before it ended or reached the tablebases, each
/// labelled with how the game ended.
fn game_samples(game: u64, options: &TuneOptions, tables: &Tablebases) -> Vec<Sample> {
    let rules = tables.rules();
    let mut rng = Rng::new(options.seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let turns = 2 + rng.below(5) as u32;
    let Some(mut pos) = random_opening(&Position::start(), turns, rules, &mut rng) else {
        return Vec::new();
    };
    let limits = Limits::new(Some(options.depth), None);
    let mut seen = Vec::new();
    let mut label = 0.0;
    for _ in 0..MAX_GAME_TURNS {
        let state = outcome(&pos, rules);
        if state.is_over() {
            label = state.value();
            break;
        }
        if let Some(v) = tables.stored_value(&pos) {
            label = v;
            break;
        }
        seen.push(pos);
        let (white, _) = engine_move(&pos, Side::White, limits, tables, &mut rng);
        let (black, _) = engine_move(&pos, Side::Black, limits, tables, &mut rng);
        pos = resolve(&pos, [white, black]).0;
    }
    seen.iter()
        .map(|p| Sample {
            features: features(p, rules),
            label,
        })
        .collect()
}

/// Unfinished positions sampled from every class of `tables`, with their exact values.
fn tablebase_samples(tables: &Tablebases, per_class: u64, rng: &mut Rng) -> Vec<Sample> {
    let rules = tables.rules();
    let mut out = Vec::new();
    for key in classes_in_build_order(tables.max_pieces()) {
        let index = ClassIndex::new(key);
        let n = index.len();
        for k in 0..n.min(per_class) {
            let idx = if n <= per_class {
                k
            } else {
                rng.below(n as usize) as u64
            };
            let pos = index.position(idx);
            if outcome(&pos, rules).is_over() {
                continue;
            }
            if let Some(label) = tables.stored_value(&pos) {
                out.push(Sample {
                    features: features(&pos, rules),
                    label,
                });
            }
        }
    }
    out
}

/// Shuffle `samples` and split off a fifth for testing: (training, test).
fn split(mut samples: Vec<Sample>, rng: &mut Rng) -> (Vec<Sample>, Vec<Sample>) {
    rng.shuffle(&mut samples);
    let test = samples.split_off(samples.len() * 4 / 5);
    (samples, test)
}

/// Generate both labelled sets under `rules` with the tablebases in `dir`, fit, report.
pub fn tune(dir: &Path, rules: RuleSet, options: &TuneOptions) -> Result<(), String> {
    let tables = Tablebases::open(dir, rules);
    if tables.max_pieces() == 0 {
        return Err(format!(
            "no tablebases in {} (build them with `apocalypse tb build`)",
            dir.display()
        ));
    }
    let games: Vec<Sample> = (0..options.games)
        .into_par_iter()
        .flat_map_iter(|g| game_samples(g, options, &tables))
        .collect();
    let mut rng = Rng::new(options.seed);
    let exact = tablebase_samples(&tables, options.per_class, &mut rng);
    outln!(
        "{} game positions from {} games at depth {}, {} tablebase positions",
        games.len(),
        options.games,
        options.depth,
        exact.len()
    );
    let (games_train, games_test) = split(games, &mut rng);
    let (exact_train, exact_test) = split(exact, &mut rng);
    // Equal parts: as many tablebase positions as game positions (the tablebases are larger).
    let game_count = games_train.len();
    let mut train = games_train;
    if !exact_train.is_empty() {
        train.extend((0..game_count).map(|_| exact_train[rng.below(exact_train.len())]));
    }
    let fitted = fit_weights(&train, WEIGHTS, 80, 1e-4);
    outln!(
        "training squared error: {:.5} -> {:.5}",
        mean_squared_error(&train, &WEIGHTS),
        mean_squared_error(&train, &fitted)
    );
    outln!(
        "held-out squared error: games {:.5} -> {:.5}, tablebases {:.5} -> {:.5}",
        mean_squared_error(&games_test, &WEIGHTS),
        mean_squared_error(&games_test, &fitted),
        mean_squared_error(&exact_test, &WEIGHTS),
        mean_squared_error(&exact_test, &fitted)
    );
    for ((name, old), new) in FEATURES.iter().zip(WEIGHTS).zip(fitted) {
        outln!("{old:>9.4} -> {new:>9.4}  {name}");
    }
    let list: Vec<String> = fitted.iter().map(|w| format!("{w:.3}")).collect();
    outln!("WEIGHTS = [{}]", list.join(", "));
    Ok(())
}
