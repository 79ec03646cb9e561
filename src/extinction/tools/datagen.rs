//! Training data for the tuner: `extinction datagen` plays fast fixed-node self-play games from
//! random openings, and `extinction import-pgn` reads finished games (e.g. cutechess-cli
//! `-pgnout` files against Fairy-Stockfish). Both write `FEN | result` lines, the result being
//! White's score (1, 0.5 or 0), for quiet positions only: the side to move has no capture of a
//! last piece, no last piece of its own attacked, and (self-play) the chosen move is quiet.
//! Self-play lines also carry the search's own score, White's view in centipawns, between the
//! two (`FEN | cp | result`): the network trainer learns from it, the tuner reads the result.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use shakmaty::Color;

use crate::extinction::engine::{Engine, EngineOptions};
use crate::extinction::rules::threats::{can_capture_last_piece, threatened_last_pieces};
use crate::extinction::rules::{is_quiet, parse_pgn_games, Game, MoveList, Position};
use crate::extinction::search::timeman::Limits;
use crate::extinction::search::{is_loss, is_win, SearchOptions};
use crate::rng::Rng;

/// Arguments of `extinction datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Number of games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Output file (appended to).
    #[arg(long)]
    pub out: PathBuf,
    /// EPD/FEN file of openings (one is picked at random per game); without it every game
    /// starts from the initial position, varied by the random plies.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Random plies played after the opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = super::thread_count)]
    pub threads: usize,
}

/// Arguments of `extinction import-pgn`.
#[derive(clap::Args, Debug, Clone)]
pub struct ImportArgs {
    /// PGN file(s) with finished games.
    #[arg(long, required = true, num_args = 1..)]
    pub pgn: Vec<PathBuf>,
    /// Output file (appended to).
    #[arg(long)]
    pub out: PathBuf,
    /// Plies skipped at the start of every game (book moves).
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Label each position where this player (a `White`/`Black` tag value) moved with the
    /// score its engine reported for that move in the move comment (cutechess-cli's
    /// `{+0.35/12 0.1s}`), as White's expected score `1 / (1 + 10^(-cp/400))`, instead of
    /// the game result; the quiet position the move leads to gets the same label. Positions
    /// with mate scores are left out.
    #[arg(long, value_name = "PLAYER")]
    pub score_of: Option<String>,
}

/// Scores beyond this many centipawns say little the evaluation could learn.
const MAX_LABEL_CP: f64 = 2000.0;

/// The score in centipawns at the start of a cutechess-cli move comment (`+0.35/12 0.1s`,
/// from the mover's view), or `None` for a mate score, a score beyond [`MAX_LABEL_CP`] or a
/// comment holding none.
pub fn comment_score_cp(comment: &str) -> Option<f64> {
    let (score, _) = comment.split_once('/')?;
    let pawns: f64 = score.trim().parse().ok()?;
    let cp = pawns * 100.0;
    (cp.is_finite() && cp.abs() <= MAX_LABEL_CP).then_some(cp)
}

/// A score in centipawns for the side to move as White's expected score.
fn expected_white_score(cp: f64, turn: Color) -> f64 {
    let white_cp = if turn == Color::White { cp } else { -cp };
    1.0 / (1.0 + 10f64.powf(-white_cp / 400.0))
}

/// Games longer than this are scored as draws.
const MAX_GAME_PLIES: usize = 400;
/// Hash size of each game's engine, in MiB.
const GAME_HASH_MB: usize = 8;

/// Whether a position is quiet enough for the static evaluation to be judged on it.
pub fn is_quiet_position(pos: &Position) -> bool {
    !pos.is_finished()
        && !can_capture_last_piece(pos)
        && !threatened_last_pieces(pos, pos.turn()).any()
}

/// White's score in a finished game, or a draw for an unfinished one.
fn white_score(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::White) => "1",
        Some(Color::Black) => "0",
        None => "0.5",
    }
}

fn random_start(openings: &[String], rng: &mut Rng, random_plies: u32) -> Option<Game> {
    let fen = &openings[rng.below(openings.len())];
    let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    let pos = Position::from_fen(&format!("{} 0 1", fields.join(" "))).ok()?;
    let mut game = Game::new(pos);
    for _ in 0..random_plies {
        let mut list = MoveList::new();
        game.position().generate_moves(&mut list);
        // Random but not suicidal: skip moves that end the game or hang a last piece.
        let safe: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| {
                let after = game.position().after(m);
                !after.is_finished() && !can_capture_last_piece(&after)
            })
            .collect();
        if safe.is_empty() {
            return None;
        }
        game.play(safe[rng.below(safe.len())]);
    }
    game.outcome().is_none().then_some(game)
}

/// Play one self-play game; returns the quiet positions' FENs with the search's score for
/// each (White's view, centipawns) and White's game score.
fn play_game(start: Game, nodes: u64) -> (Vec<(String, i32)>, &'static str) {
    let mut game = start;
    let mut engine = Engine::new(EngineOptions {
        hash_mb: GAME_HASH_MB,
        ..EngineOptions::default()
    });
    let mut fens = Vec::new();
    for _ in 0..MAX_GAME_PLIES {
        if let Some(outcome) = game.outcome() {
            return (fens, white_score(outcome.winner));
        }
        let pos = game.position().clone();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let result = engine.search(&game, limits, SearchOptions::default(), None);
        let Some(m) = result.best_move else {
            return (fens, white_score(None));
        };
        if is_quiet(&pos, m)
            && is_quiet_position(&pos)
            && !is_win(result.score)
            && !is_loss(result.score)
        {
            let white_cp = if pos.turn() == Color::White {
                result.score
            } else {
                -result.score
            };
            fens.push((pos.fen(), white_cp));
        }
        game.play(m);
    }
    (fens, white_score(None))
}

/// Run `extinction datagen`.
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => vec![Position::default().fen()],
    };
    let done_path = finished_games_path(&args.out);
    let done = read_finished_games(&done_path)?;
    let done_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&done_path)
        .map_err(|e| format!("cannot open {}: {e}", done_path.display()))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open {}: {e}", args.out.display()))?;
    // The data and the list of finished games are written under one lock, game by game, so
    // that a run stopped at any moment resumes (same command) without repeating a game.
    let out = Mutex::new((
        std::io::BufWriter::new(file),
        std::io::BufWriter::new(done_file),
    ));
    let todo: Vec<usize> = (0..args.games).filter(|i| !done.contains(i)).collect();
    if todo.len() < args.games {
        eprintln!(
            "datagen: resuming, {} of {} games already in {}",
            args.games - todo.len(),
            args.games,
            args.out.display()
        );
    }
    let bar = ProgressBar::with_draw_target(Some(todo.len() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg}, {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next_game = AtomicUsize::new(0);
    let positions = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, || {
                while let Some(&index) = todo.get(next_game.fetch_add(1, Ordering::Relaxed)) {
                    let mut rng = Rng::new(args.seed.wrapping_mul(1_000_003) + index as u64);
                    let (fens, score) = match random_start(&openings, &mut rng, args.random_plies) {
                        Some(start) => play_game(start, args.nodes),
                        None => (Vec::new(), "0.5"),
                    };
                    let Ok(mut w) = out.lock() else { break };
                    for (fen, cp) in &fens {
                        let _ = writeln!(w.0, "{fen} | {cp} | {score}");
                    }
                    let _ = w.0.flush();
                    let _ = writeln!(w.1, "{index}");
                    let _ = w.1.flush();
                    drop(w);
                    let total = positions.fetch_add(fens.len(), Ordering::Relaxed) + fens.len();
                    log::debug!("game {index}: {score}, {} positions", fens.len());
                    bar.set_message(format!("{total} positions"));
                    bar.inc(1);
                }
            });
            if let Err(e) = spawned {
                eprintln!("datagen: cannot start a worker: {e}");
            }
        }
    });
    bar.finish();
    eprintln!(
        "datagen: {} positions written to {}",
        positions.load(Ordering::Relaxed),
        args.out.display()
    );
    Ok(())
}

/// The openings of an EPD/FEN file, one a line.
fn read_openings(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let openings: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if openings.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(openings)
}

/// Where `datagen` lists the games already written to `out` (their indices, one a line).
fn finished_games_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".games");
    PathBuf::from(name)
}

/// The finished games' indices; none when the list does not exist yet.
fn read_finished_games(path: &Path) -> Result<HashSet<usize>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text.lines().filter_map(|l| l.trim().parse().ok()).collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(HashSet::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Run `extinction import-pgn`.
pub fn run_import(args: &ImportArgs) -> Result<(), String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open {}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let (mut games, mut positions, mut skipped) = (0usize, 0usize, 0usize);
    for path in &args.pgn {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for pgn in parse_pgn_games(&text) {
            let Ok(pgn) = pgn else {
                skipped += 1;
                continue;
            };
            let score = match pgn.result.as_deref().or(pgn.header("Result")) {
                Some("1-0") => "1",
                Some("0-1") => "0",
                Some("1/2-1/2") => "0.5",
                _ => {
                    skipped += 1;
                    continue;
                }
            };
            let Ok(start) = pgn.start_position() else {
                skipped += 1;
                continue;
            };
            let labelled_side = match &args.score_of {
                None => None,
                Some(name) if pgn.header("White") == Some(name) => Some(Color::White),
                Some(name) if pgn.header("Black") == Some(name) => Some(Color::Black),
                Some(_) => {
                    skipped += 1;
                    continue;
                }
            };
            let mut game = Game::new(start);
            for (ply, san) in pgn.moves.iter().enumerate() {
                let pos = game.position().clone();
                let Ok(m) = game.play_san(san) else { break };
                if ply < args.skip_plies || !is_quiet(&pos, m) || !is_quiet_position(&pos) {
                    continue;
                }
                match labelled_side {
                    None => {
                        let _ = writeln!(out, "{} | {score}", pos.fen());
                    }
                    Some(side) => {
                        if pos.turn() != side {
                            continue;
                        }
                        let comment = pgn.comments.get(ply).and_then(|c| c.as_deref());
                        let Some(cp) = comment.and_then(comment_score_cp) else {
                            continue;
                        };
                        let white = expected_white_score(cp, pos.turn());
                        let _ = writeln!(out, "{} | {white:.4}", pos.fen());
                        // The same score labels the position the move leads to, so that the
                        // labelled side is to move in only half the positions: otherwise the
                        // fit reads "the side to move is the stronger engine" into the tempo.
                        let after = game.position();
                        if is_quiet_position(after) {
                            let _ = writeln!(out, "{} | {white:.4}", after.fen());
                            positions += 1;
                        }
                    }
                }
                positions += 1;
            }
            games += 1;
        }
    }
    out.flush().map_err(|e| format!("write error: {e}"))?;
    eprintln!(
        "import-pgn: {games} games, {positions} positions written to {} ({skipped} games skipped)",
        args.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_give_scores() {
        assert_eq!(comment_score_cp("+0.35/12 0.101s"), Some(35.0));
        assert_eq!(comment_score_cp("-2.68/10 0.034s"), Some(-268.0));
        assert_eq!(comment_score_cp("0.00/1 0s"), Some(0.0));
        assert_eq!(comment_score_cp("+M7/29 0.008s"), None);
        assert_eq!(comment_score_cp("-M2/3 0s"), None);
        assert_eq!(comment_score_cp("+25.84/12 0.009s"), None);
        assert_eq!(comment_score_cp("[%clk 0:00:58]"), None);
        assert_eq!(comment_score_cp("book"), None);
        // White's expected score: even at 0, a pawn and a half up ~70 %, mirrored for Black.
        assert_eq!(expected_white_score(0.0, Color::White), 0.5);
        let up = expected_white_score(150.0, Color::White);
        assert!((up - 0.7034).abs() < 1e-3, "{up}");
        assert!((expected_white_score(150.0, Color::Black) - (1.0 - up)).abs() < 1e-12);
    }

    #[test]
    fn random_starts_are_playable_and_reproducible() {
        let openings = vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -".to_string()];
        let a = random_start(&openings, &mut Rng::new(7), 6).expect("start");
        let b = random_start(&openings, &mut Rng::new(7), 6).expect("start");
        assert_eq!(a.moves().len(), 6);
        assert_eq!(a.position().fen(), b.position().fen());
        assert!(a.outcome().is_none());
    }
}
