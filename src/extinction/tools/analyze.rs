//! `extinction analyze`: analyse a position (or every move of every game of a PGN file) from the
//! command line.
//!
//! Text output: a board diagram, then one line per depth (and per PV with `--multipv`) with the
//! score and the principal variation in SAN. With `--json`, one JSON object per line instead:
//! `{"type":"info",...}` per depth/PV, then `{"type":"result",...}` for a position; for a PGN,
//! per game `{"type":"game",...}`, one `{"type":"move",...}` per played move, a
//! `{"type":"warning",...}` for moves written after the game's end and `{"type":"game_summary",
//! ...}`, then a final `{"type":"summary",...}`.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::console::outln;
use crate::extinction::engine::{Engine, EngineOptions, Reporter};
use crate::extinction::rules::{board_diagram, parse_pgn_games, parse_san, parse_uci, san};
use crate::extinction::rules::{Game, Move, MoveList, PgnGame, Position};
use crate::extinction::search::timeman::Limits;
use crate::extinction::search::{is_loss, is_win, mate_moves, SearchInfo, SearchOptions};

/// Command-line arguments of `extinction analyze`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AnalyzeArgs {
    /// Position to analyse (default: the start position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// PGN file (one game or many, e.g. cutechess-cli -pgnout): analyse every move of every
    /// game and flag blunders.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Moves (UCI) to play from the position before analysing (not with --pgn: its games bring
    /// their own moves).
    #[arg(long, num_args = 1.., conflicts_with = "pgn")]
    pub moves: Vec<String>,
    /// Search depth (default 10 for a position, 7 per move for a PGN).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time per position in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Number of principal variations (for a position; a PGN's moves are scored on one).
    #[arg(long, default_value_t = 1, conflicts_with = "pgn")]
    pub multipv: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Score loss (centipawns) from which a played move is a blunder.
    #[arg(long, default_value_t = 200)]
    pub blunder_threshold: i32,
    /// Emit JSON objects, one per line.
    #[arg(long)]
    pub json: bool,
}

/// Human-readable score: `+1.25`, `#3` (win in 3 moves), `#-4` (loss in 4).
pub fn text_score(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("#{n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// SAN of a line of moves from `pos`, with move numbers.
pub fn san_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in moves {
        if !p.is_pseudo_legal(m) {
            break;
        }
        out.push(san(&p, m));
        p.do_move(m);
    }
    out
}

fn numbered(pos: &Position, sans: &[String]) -> String {
    let mut out = String::new();
    let mut number = pos.fullmoves();
    let mut white = pos.turn() == shakmaty::Color::White;
    for (i, s) in sans.iter().enumerate() {
        if white {
            let _ = write!(out, "{number}. ");
        } else if i == 0 {
            let _ = write!(out, "{number}... ");
        }
        out.push_str(s);
        out.push(' ');
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.trim_end().to_string()
}

/// Quote `s` as a JSON string.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", quoted.join(","))
}

/// JSON score object: `{"cp":N}` or `{"mate":N}`.
pub fn json_score(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("{{\"mate\":{n}}}"),
        None => format!("{{\"cp\":{score}}}"),
    }
}

fn limits(args: &AnalyzeArgs, default_depth: u32) -> Limits {
    let mut l = Limits {
        depth: args.depth,
        move_time_ms: args.movetime,
        nodes: args.nodes,
        ..Limits::default()
    };
    if l.depth.is_none() && l.move_time_ms.is_none() && l.nodes.is_none() {
        l.depth = Some(default_depth);
    }
    l
}

fn analyse_position(args: &AnalyzeArgs, game: &Game, engine: &mut Engine) {
    let pos = game.position().clone();
    if !args.json {
        outln!("{}", board_diagram(&pos));
    }
    if let Some(outcome) = game.outcome() {
        if args.json {
            outln!(
                "{{\"type\":\"result\",\"fen\":{},\"game_over\":{},\"bestmove\":null}}",
                json_string(&pos.fen()),
                json_string(&outcome.to_string())
            );
        } else {
            outln!("Game over: {outcome}");
        }
        return;
    }
    let options = SearchOptions {
        multipv: args.multipv.max(1),
        searchmoves: Vec::new(),
    };
    let json = args.json;
    let several = options.multipv > 1;
    let report_pos = pos.clone();
    let report: Reporter = Box::new(move |info: &SearchInfo| {
        let sans = san_line(&report_pos, &info.pv);
        if json {
            let ucis: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
            outln!(
                "{{\"type\":\"info\",\"depth\":{},\"seldepth\":{},\"multipv\":{},\"score\":{},\"nodes\":{},\"time_ms\":{},\"pv_uci\":{},\"pv_san\":{}}}",
                info.depth,
                info.seldepth,
                info.multipv,
                json_score(info.score),
                info.nodes,
                info.time_ms,
                json_list(&ucis),
                json_list(&sans)
            );
        } else {
            let pv_label = if several {
                format!(" [{}]", info.multipv)
            } else {
                String::new()
            };
            outln!(
                "depth {:>2}{} score {:>7} nodes {:>10} time {:>6} ms  {}",
                info.depth,
                pv_label,
                text_score(info.score),
                info.nodes,
                info.time_ms,
                numbered(&report_pos, &sans)
            );
        }
    });
    let result = engine.search(game, limits(args, 10), options, Some(report));
    let best = result.best_move.map(|m| m.to_string());
    if args.json {
        outln!(
            "{{\"type\":\"result\",\"fen\":{},\"bestmove\":{},\"score\":{},\"depth\":{},\"nodes\":{},\"pv_san\":{}}}",
            json_string(&pos.fen()),
            best.as_deref().map_or("null".to_string(), json_string),
            json_score(result.score),
            result.depth,
            result.nodes,
            json_list(&san_line(&pos, &result.pv))
        );
    } else {
        outln!(
            "best move {} score {} ({})",
            result
                .best_move
                .map_or("(none)".to_string(), |m| san(&pos, m)),
            text_score(result.score),
            numbered(&pos, &san_line(&pos, &result.pv))
        );
    }
}

/// Whether playing a move scored `played` instead of the best `best` (both from the mover's
/// view) is a blunder: loses at least `threshold` centipawns, throws away a forced win, or
/// walks into a forced loss that was avoidable.
pub fn is_blunder(best: i32, played: i32, threshold: i32) -> bool {
    if is_win(best) && !is_win(played) {
        return true;
    }
    if is_loss(played) && !is_loss(best) {
        return true;
    }
    if is_win(best) || is_loss(best) {
        return false;
    }
    best - played >= threshold
}

/// A PGN game checked before any search: where it starts, its moves up to the end of the game,
/// and the moves written after that end (reported, never analysed).
struct CheckedGame {
    pgn: PgnGame,
    start: Game,
    moves: Vec<Move>,
    after_end: Vec<String>,
}

/// Whether the game is over for good: no legal move is left (extinction or stalemate). A
/// repetition or the fifty-move rule has to be claimed, so moves after it are still played.
fn no_move_left(game: &Game) -> bool {
    let mut list = MoveList::new();
    game.position().generate_moves(&mut list);
    list.is_empty()
}

/// Parse and replay every game of a PGN file (`number` counts games from 1), so that a bad game
/// is reported before hours of analysis rather than after.
fn check_games(text: &str) -> Result<Vec<CheckedGame>, String> {
    let mut checked = Vec::new();
    for (i, parsed) in parse_pgn_games(text).into_iter().enumerate() {
        let number = i + 1;
        let pgn = parsed.map_err(|e| format!("game {number}: {e}"))?;
        let start = pgn
            .start_position()
            .map_err(|e| format!("game {number}: {e}"))?;
        let mut game = Game::new(start);
        let start = game.clone();
        let mut moves = Vec::new();
        let mut after_end = Vec::new();
        for (ply, text) in pgn.moves.iter().enumerate() {
            if !after_end.is_empty() || no_move_left(&game) {
                after_end.push(text.clone());
                continue;
            }
            let m = parse_san(game.position(), text)
                .map_err(|e| format!("game {number}, move {} '{text}': {e}", ply + 1))?;
            if !game.play(m) {
                return Err(format!(
                    "game {number}, move {} '{text}' is not legal",
                    ply + 1
                ));
            }
            moves.push(m);
        }
        checked.push(CheckedGame {
            pgn,
            start,
            moves,
            after_end,
        });
    }
    Ok(checked)
}

/// Blunder counts over the analysed moves.
#[derive(Default)]
struct Tally {
    moves: usize,
    blunders: usize,
}

fn analyse_pgn(args: &AnalyzeArgs, path: &PathBuf, engine: &mut Engine) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = check_games(&text).map_err(|e| format!("bad PGN {}: {e}", path.display()))?;
    if games.is_empty() {
        return Err(format!("{} holds no PGN game", path.display()));
    }
    if games.iter().all(|g| g.moves.is_empty()) {
        return Err(format!("{} holds no moves to analyse", path.display()));
    }
    let mut total = Tally::default();
    for (i, game) in games.iter().enumerate() {
        let tally = analyse_game(args, i + 1, game, engine);
        total.moves += tally.moves;
        total.blunders += tally.blunders;
    }
    let (games, moves, blunders) = (games.len(), total.moves, total.blunders);
    if args.json {
        outln!(
            "{{\"type\":\"summary\",\"games\":{games},\"moves\":{moves},\"blunders\":{blunders}}}"
        );
    } else {
        outln!("{games} games, {moves} moves analysed, {blunders} blunders");
    }
    Ok(())
}

/// Analyse every move of one checked game: a heading, one line per move, its result, and a
/// warning for moves written after the end of the game.
fn analyse_game(
    args: &AnalyzeArgs,
    number: usize,
    checked: &CheckedGame,
    engine: &mut Engine,
) -> Tally {
    let tag = |name: &str| checked.pgn.header(name).unwrap_or("?").to_string();
    let result = checked.pgn.result.clone().unwrap_or_else(|| tag("Result"));
    if args.json {
        outln!(
            "{{\"type\":\"game\",\"game\":{number},\"white\":{},\"black\":{},\"result\":{}}}",
            json_string(&tag("White")),
            json_string(&tag("Black")),
            json_string(&result)
        );
    } else {
        outln!(
            "Game {number}: {} - {} {result}",
            tag("White"),
            tag("Black")
        );
    }
    let mut game = checked.start.clone();
    let mut tally = Tally::default();
    for (ply, &played) in checked.moves.iter().enumerate() {
        let pos = game.position().clone();
        let limits = limits(args, 7);
        let best = engine.search(&game, limits.clone(), SearchOptions::default(), None);
        let only_played = SearchOptions {
            multipv: 1,
            searchmoves: vec![played],
        };
        let played_result = engine.search(&game, limits, only_played, None);
        let blunder = is_blunder(best.score, played_result.score, args.blunder_threshold);
        tally.moves += 1;
        if blunder {
            tally.blunders += 1;
        }
        let move_number = pos.fullmoves();
        let dots = if pos.turn() == shakmaty::Color::White {
            "."
        } else {
            "..."
        };
        let best_san = best.best_move.map(|m| san(&pos, m)).unwrap_or_default();
        if args.json {
            outln!(
                "{{\"type\":\"move\",\"game\":{number},\"ply\":{},\"move\":{},\"fen_before\":{},\"played_score\":{},\"best_move\":{},\"best_score\":{},\"blunder\":{}}}",
                ply + 1,
                json_string(&san(&pos, played)),
                json_string(&pos.fen()),
                json_score(played_result.score),
                json_string(&best_san),
                json_score(best.score),
                blunder
            );
        } else {
            outln!(
                "{move_number}{dots} {:<8} {:>7}   best {:<8} {:>7}{}",
                san(&pos, played),
                text_score(played_result.score),
                best_san,
                text_score(best.score),
                if blunder { "   ?? blunder" } else { "" }
            );
        }
        game.play(played);
    }
    if !checked.after_end.is_empty() {
        let warning = format!(
            "game {number}: {} moves after the end of the game (ply {} on) not analysed: {}",
            checked.after_end.len(),
            checked.moves.len() + 1,
            checked.after_end.join(" ")
        );
        if args.json {
            outln!(
                "{{\"type\":\"warning\",\"game\":{number},\"message\":{}}}",
                json_string(&warning)
            );
        } else {
            outln!("warning: {warning}");
        }
    }
    if args.json {
        outln!(
            "{{\"type\":\"game_summary\",\"game\":{number},\"moves\":{},\"blunders\":{}}}",
            tally.moves,
            tally.blunders
        );
    } else {
        outln!(
            "Game {number}: {} moves analysed, {} blunders",
            tally.moves,
            tally.blunders
        );
        if let Some(outcome) = game.outcome() {
            outln!("Result: {outcome}");
        }
    }
    tally
}

/// Run `extinction analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash,
        // Analysis owns the machine: nothing to keep back for a GUI.
        move_overhead_ms: 0,
        ..EngineOptions::default()
    });
    if let Some(path) = &args.pgn {
        return analyse_pgn(args, path, &mut engine);
    }
    let start = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    let mut game = Game::new(start);
    for text in &args.moves {
        let m = parse_uci(game.position(), text).map_err(|e| format!("move '{text}': {e}"))?;
        if !game.play(m) {
            return Err(format!("move '{text}' is not legal"));
        }
    }
    analyse_position(args, &game, &mut engine);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::search::MATE;

    #[test]
    fn blunder_rules() {
        assert!(is_blunder(50, -200, 200));
        assert!(!is_blunder(50, -100, 200));
        assert!(is_blunder(MATE - 5, 300, 200));
        assert!(is_blunder(0, -(MATE - 4), 200));
        assert!(!is_blunder(-(MATE - 4), -(MATE - 2), 200));
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(json_score(-(MATE - 8)), "{\"mate\":-4}");
    }
}
