//! `apocalypse selfplay`: matches of the engine (the default exploiting player, the safe one or
//! the equilibrium engine) against a uniform-random player, the alpha-beta player, a scripted
//! biased player or the equilibrium engine, with each game's result, the score and the audit
//! of tablebase turns.

use std::path::{Path, PathBuf};

use super::tables::open_for_search;
use crate::apocalypse::play::{play_game_with, random_opening, MatchScore, Player, TablebaseAudit};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::notation::parse_position;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::search::opponent_model::{
    ExploitMode, ExploitStats, ModelKind, SafeExploiter,
};
use crate::apocalypse::search::scripted::Bias;
use crate::console::outln;
use crate::rng::Rng;

/// Arguments of `apocalypse selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Number of games (colours alternate).
    #[arg(long)]
    pub games: u32,
    /// Engine time per turn in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Engine search depth per turn instead of a time (faster, reproducible).
    #[arg(long)]
    pub depth: Option<u32>,
    /// The opponent.
    #[arg(long, value_enum, default_value_t = OpponentArg::Random)]
    pub opponent: OpponentArg,
    /// Depth cap (turns) of the alpha-beta or scripted opponent, which otherwise searches as
    /// deep as the engine's time per turn (or its --depth) allows.
    #[arg(long)]
    pub opponent_depth: Option<u32>,
    /// Who plays for the engine.
    #[arg(long, value_enum, default_value_t = EngineArg::Exploiting)]
    pub engine: EngineArg,
    /// With an exploiting engine against the alpha-beta player: predict it by running its
    /// search from the first move (the engine is told whom it plays) instead of learning a
    /// model of its moves.
    #[arg(long)]
    pub alphabeta_model: bool,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start position (quote it); default the start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Start each pair of games (one with each colour) this many uniformly random turns
    /// after the start position, so that deterministic players do not replay one game.
    #[arg(long, default_value_t = 0)]
    pub random_turns: u32,
    /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user data
    /// directory; the 4-piece tables are built there on first use).
    #[arg(long)]
    pub tb_dir: Option<PathBuf>,
}

/// Who plays for the engine in a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineArg {
    /// The default player: it learns a model of the opponent's moves (handing the prediction
    /// to a search like the alpha-beta player's once that search keeps naming them, and
    /// keeping the model from game to game), stakes on the prediction the value the opponent
    /// has given away, and outside the tablebases also stakes more when the model's record of
    /// right predictions says the best reply pays.
    Exploiting,
    /// The same, but it stakes only what the opponent has given away: the whole game
    /// guarantees the start position's value (the engine of the page and of play-human).
    Safe,
    /// The per-turn optimal mixed strategy, with no model of the opponent.
    Equilibrium,
}

/// The engine's opponent in a match.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OpponentArg {
    /// Uniform over legal moves.
    Random,
    /// The equilibrium engine (`--engine equilibrium`).
    Equilibrium,
    /// Pure strategy: iterative-deepening alpha-beta on the serialized game (it assumes the
    /// engine sees its move), same evaluation, tablebases and time per turn.
    Alphabeta,
    /// The alpha-beta player, but it always captures when it can (a footman first).
    Aggressive,
    /// The alpha-beta player, but it never moves a piece that is attacked (it "passes" with
    /// it).
    StandStill,
    /// The alpha-beta player, but it always moves a horseman when it can.
    HorsemenFirst,
}

/// Run `apocalypse selfplay` under `rules`: the match the arguments describe.
pub fn run(args: &SelfplayArgs, rules: RuleSet) -> Result<(), String> {
    let limits = match args.depth {
        Some(_) => Limits::new(args.depth, None),
        None => Limits::new(None, Some(args.movetime)),
    };
    if args.opponent_depth.is_some()
        && matches!(
            args.opponent,
            OpponentArg::Random | OpponentArg::Equilibrium
        )
    {
        return Err(
            "--opponent-depth needs --opponent alphabeta, aggressive, stand-still or horsemen-first"
                .to_string(),
        );
    }
    let depth = args.opponent_depth;
    let opponent = match args.opponent {
        OpponentArg::Random => Player::Random,
        OpponentArg::Equilibrium => Player::Engine,
        OpponentArg::Alphabeta => Player::AlphaBeta(depth),
        OpponentArg::Aggressive => Player::Scripted(Bias::Aggressive, depth),
        OpponentArg::StandStill => Player::Scripted(Bias::StandStill, depth),
        OpponentArg::HorsemenFirst => Player::Scripted(Bias::HorsemenFirst, depth),
    };
    if args.alphabeta_model
        && (args.engine == EngineArg::Equilibrium || !matches!(opponent, Player::AlphaBeta(_)))
    {
        return Err(
            "--alphabeta-model needs --opponent alphabeta and an exploiting or safe engine"
                .to_string(),
        );
    }
    let model = if args.alphabeta_model {
        ModelKind::AlphaBeta
    } else {
        ModelKind::Learned
    };
    let options = MatchOptions {
        games: args.games,
        engine: match args.engine {
            EngineArg::Exploiting => Player::Exploiter(ExploitMode::exploiting(model)),
            EngineArg::Safe => Player::Exploiter(ExploitMode::safe(model)),
            EngineArg::Equilibrium => Player::Engine,
        },
        limits,
        opponent,
        seed: args.seed,
        position: args.position.as_deref(),
        random_turns: args.random_turns,
    };
    selfplay(options, args.tb_dir.as_deref(), rules)
}

/// What a match is: how many games, the engine's limits, its opponent, the seed, the start
/// position and how many random turns each pair of games begins with.
#[derive(Clone, Copy, Debug)]
pub struct MatchOptions<'a> {
    /// Games (the engine's colour alternating, White first).
    pub games: u32,
    /// The engine (`Player::Engine` or `Player::Exploiter`).
    pub engine: Player,
    /// The engine's search limits (and the alpha-beta opponent's).
    pub limits: Limits,
    /// Who plays the other side.
    pub opponent: Player,
    /// Seed of the players' draws and of the openings.
    pub seed: u64,
    /// Start position (the standard one when `None`).
    pub position: Option<&'a str>,
    /// Uniformly random turns played before each pair of games (one with each colour).
    pub random_turns: u32,
}

/// Play a match, both players searching on one thread, and print each result, the score with
/// its error bar and the audit of tablebase turns. With random turns, each pair of games starts
/// from its own position that many random turns into the game.
pub fn selfplay(
    options: MatchOptions,
    tb_dir: Option<&Path>,
    rules: RuleSet,
) -> Result<(), String> {
    let MatchOptions {
        games,
        engine,
        limits,
        opponent,
        seed,
        position,
        random_turns,
    } = options;
    let start = position.map_or(Ok(Position::start()), parse_position)?;
    let tables = open_for_search(tb_dir, rules);
    let mut rng = Rng::new(seed);
    // Openings come from their own generator, so they do not depend on the players' draws.
    let mut opening_rng = Rng::new(seed ^ 0x0BE2_1A65_D00D_5EED);
    let mut opening = start;
    let mut score = MatchScore::default();
    let mut audit = TablebaseAudit::default();
    let mut exploit = ExploitStats::default();
    let mut kept_model: Option<SafeExploiter> = None;
    // Both players search on one thread, so equal time per turn means equal work, and two
    // matches can share a two-core machine.
    let single_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| format!("cannot start the search thread: {e}"))?;
    for game in 0..games {
        if game % 2 == 0 && random_turns > 0 {
            opening = random_opening(&start, random_turns, rules, &mut opening_rng).ok_or(
                format!("every random game from this position ends within {random_turns} turns"),
            )?;
        }
        let engine_side = if game % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let players = match engine_side {
            Side::White => [engine, opponent],
            Side::Black => [opponent, engine],
        };
        // The exploiting engine keeps its model of the opponent for the whole match.
        let mut exploiters = [None, None];
        if let Player::Exploiter(mode) = engine {
            let mut e = kept_model
                .take()
                .unwrap_or_else(|| SafeExploiter::in_mode(engine_side, mode));
            e.new_game(engine_side);
            exploiters[engine_side.index()] = Some(e);
        }
        let (result, game_audit, game_exploit) = single_thread.install(|| {
            play_game_with(
                &opening,
                players,
                &mut exploiters,
                limits,
                &tables,
                &mut rng,
            )
        });
        kept_model = exploiters[engine_side.index()].take();
        audit.add(&game_audit);
        exploit.add(&game_exploit);
        score.record(result, engine_side);
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
            "tablebase positions: {} engine turns; exact value guaranteed in {}, limit-sure progress (deliberate small risk) in {}, gifts staked in {}, value given away in {}",
            audit.turns, audit.kept, audit.progress, audit.staked, audit.lost
        );
    }
    if matches!(engine, Player::Exploiter(_)) {
        outln!(
            "exploitation: {} turns predicted ({} by the search alone), {} right; strayed from the optimal strategy in {}; gifts received {:+.3}",
            exploit.predicted,
            exploit.followed,
            exploit.right,
            exploit.strayed,
            exploit.gifts
        );
    }
    Ok(())
}
