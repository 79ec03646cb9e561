//! `apocalypse play-human` and `apocalypse selfplay`: games against a person in the terminal
//! and engine matches, with their reports.

use std::io::ErrorKind;
use std::path::Path;

use super::tablebase::open_for_search;
use crate::apocalypse::play::{
    self, play_game, random_opening, MatchScore, Player, TablebaseAudit,
};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::notation::parse_position;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::search::opponent_model::ExploitStats;
use crate::console::outln;
use crate::rng::Rng;

/// The start position, or `position` when one is given.
fn start_or(position: Option<&str>) -> Result<Position, String> {
    position.map_or(Ok(Position::start()), parse_position)
}

/// A person plays `side` against the engine (`movetime_ms` per turn) on stdin and stdout.
/// Closed stdin abandons the game; closed stdout ends it quietly.
pub fn play_human(
    position: Option<&str>,
    side: Side,
    movetime_ms: u64,
    seed: Option<u64>,
    tb_dir: Option<&Path>,
    rules: RuleSet,
) -> Result<(), String> {
    let pos = start_or(position)?;
    let tables = open_for_search(tb_dir, rules);
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut rng = Rng::new(seed);
    let limits = Limits::new(None, Some(movetime_ms));
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout();
    match play::play_human(
        &pos,
        side,
        limits,
        &tables,
        &mut rng,
        &mut input,
        &mut output,
    ) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("terminal error: {e}")),
    }
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
    let start = start_or(position)?;
    let tables = open_for_search(tb_dir, rules);
    let mut rng = Rng::new(seed);
    // Openings come from their own generator, so they do not depend on the players' draws.
    let mut opening_rng = Rng::new(seed ^ 0x0BE2_1A65_D00D_5EED);
    let mut opening = start;
    let mut score = MatchScore::default();
    let mut audit = TablebaseAudit::default();
    let mut exploit = ExploitStats::default();
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
        let (result, game_audit, game_exploit) =
            single_thread.install(|| play_game(&opening, players, limits, &tables, &mut rng));
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
    if engine == Player::Exploiter {
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
