//! `apocalypse selfplay`: engine matches against a uniform-random player, the alpha-beta
//! player, a scripted biased player or itself, with each game's result, the score and the
//! audit of tablebase turns.

use std::path::{Path, PathBuf};

use super::tables::open_for_search;
use crate::apocalypse::play::{play_game_with, random_opening, MatchScore, Player, TablebaseAudit};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::notation::parse_position;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::search::opponent_model::{ExploitStats, ModelKind, SafeExploiter};
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
    /// The engine predicts the opponent's moves and stakes on the prediction only the value
    /// the opponent has already given away (safe exploitation; the whole game still
    /// guarantees the start position's value). Against the alpha-beta player it runs that
    /// player's search (within half of each turn, or to the engine's depth); against any other
    /// it learns a model of the moves it sees, as it does against a person, and keeps it from
    /// game to game of the match (the budget starts from nothing each game).
    #[arg(long)]
    pub exploit: bool,
    /// With --exploit: learn a model of the opponent's moves even against the alpha-beta
    /// player, instead of running its search.
    #[arg(long, requires = "exploit")]
    pub learned_model: bool,
    /// With --exploit: outside the tablebases, also stake more than the opponent has given
    /// away when the model's record of right predictions says the best reply pays (the game's
    /// guarantee is given up there; tablebase positions keep it).
    #[arg(long, requires = "exploit")]
    pub calculated_risk: bool,
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

/// The engine's opponent in a match.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OpponentArg {
    /// Uniform over legal moves.
    Random,
    /// The engine itself.
    #[value(name = "self")]
    Engine,
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
        && matches!(args.opponent, OpponentArg::Random | OpponentArg::Engine)
    {
        return Err(
            "--opponent-depth needs --opponent alphabeta, aggressive, stand-still or horsemen-first"
                .to_string(),
        );
    }
    let depth = args.opponent_depth;
    let opponent = match args.opponent {
        OpponentArg::Random => Player::Random,
        OpponentArg::Engine => Player::Engine,
        OpponentArg::Alphabeta => Player::AlphaBeta(depth),
        OpponentArg::Aggressive => Player::Scripted(Bias::Aggressive, depth),
        OpponentArg::StandStill => Player::Scripted(Bias::StandStill, depth),
        OpponentArg::HorsemenFirst => Player::Scripted(Bias::HorsemenFirst, depth),
    };
    let model = if matches!(opponent, Player::AlphaBeta(_)) && !args.learned_model {
        ModelKind::AlphaBeta
    } else {
        ModelKind::Learned
    };
    let options = MatchOptions {
        games: args.games,
        engine: if args.exploit {
            Player::Exploiter(model)
        } else {
            Player::Engine
        },
        limits,
        opponent,
        seed: args.seed,
        position: args.position.as_deref(),
        random_turns: args.random_turns,
        calculated_risk: args.calculated_risk,
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
    /// Whether an exploiting engine takes calculated risks outside the tablebases.
    pub calculated_risk: bool,
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
        calculated_risk,
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
        if let Player::Exploiter(kind) = engine {
            let mut e = kept_model.take().unwrap_or_else(|| {
                let e = SafeExploiter::modelling(engine_side, kind);
                if calculated_risk {
                    e.with_calculated_risk()
                } else {
                    e
                }
            });
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
            "exploitation: {} turns predicted, {} right; strayed from the optimal strategy in {}; gifts received {:+.3}",
            exploit.predicted,
            exploit.right,
            exploit.strayed,
            exploit.gifts
        );
    }
    Ok(())
}
