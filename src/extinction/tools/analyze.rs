//! `extinction analyze`: analyse a position (or every move of a PGN game) from the command line.
//!
//! Text output: a board diagram, then one line per depth (and per PV with `--multipv`) with the
//! score and the principal variation in SAN. With `--json`, one JSON object per line instead:
//! `{"type":"info",...}` per depth/PV, then `{"type":"result",...}` for a position; for a PGN,
//! one `{"type":"move",...}` per played move and a final `{"type":"summary",...}`.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::console::outln;
use crate::extinction::engine::{Engine, EngineOptions, Reporter};
use crate::extinction::rules::{board_diagram, parse_pgn, parse_san, parse_uci, san};
use crate::extinction::rules::{Game, Move, Position};
use crate::extinction::search::timeman::Limits;
use crate::extinction::search::{is_loss, is_win, mate_moves, SearchInfo, SearchOptions};

/// Command-line arguments of `extinction analyze`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AnalyzeArgs {
    /// Position to analyse (default: the start position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// PGN file: analyse every move of its first game and flag blunders.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Moves (UCI) to play from the position before analysing.
    #[arg(long, num_args = 1..)]
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
    /// Number of principal variations.
    #[arg(long, default_value_t = 1)]
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

fn analyse_pgn(args: &AnalyzeArgs, path: &PathBuf, engine: &mut Engine) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let pgn = parse_pgn(&text).map_err(|e| format!("bad PGN: {e}"))?;
    let start = pgn
        .start_position()
        .map_err(|e| format!("bad PGN start position: {e}"))?;
    let mut game = Game::new(start);
    let mut blunders = 0;
    let mut analysed = 0;
    for (ply, text) in pgn.moves.iter().enumerate() {
        let pos = game.position().clone();
        let played = match parse_san(&pos, text) {
            Ok(m) => m,
            Err(e) => return Err(format!("move {} '{text}': {e}", ply + 1)),
        };
        let limits = limits(args, 7);
        let best = engine.search(&game, limits.clone(), SearchOptions::default(), None);
        let only_played = SearchOptions {
            multipv: 1,
            searchmoves: vec![played],
        };
        let played_result = engine.search(&game, limits, only_played, None);
        let blunder = is_blunder(best.score, played_result.score, args.blunder_threshold);
        analysed += 1;
        if blunder {
            blunders += 1;
        }
        let number = pos.fullmoves();
        let dots = if pos.turn() == shakmaty::Color::White {
            "."
        } else {
            "..."
        };
        let best_san = best.best_move.map(|m| san(&pos, m)).unwrap_or_default();
        if args.json {
            outln!(
                "{{\"type\":\"move\",\"ply\":{},\"move\":{},\"fen_before\":{},\"played_score\":{},\"best_move\":{},\"best_score\":{},\"blunder\":{}}}",
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
                "{number}{dots} {:<8} {:>7}   best {:<8} {:>7}{}",
                san(&pos, played),
                text_score(played_result.score),
                best_san,
                text_score(best.score),
                if blunder { "   ?? blunder" } else { "" }
            );
        }
        if !game.play(played) {
            return Err(format!("move {} '{text}' is not legal", ply + 1));
        }
        if game.position().is_finished() {
            break;
        }
    }
    if args.json {
        outln!("{{\"type\":\"summary\",\"moves\":{analysed},\"blunders\":{blunders}}}");
    } else {
        outln!("{analysed} moves analysed, {blunders} blunders");
        if let Some(outcome) = game.outcome() {
            outln!("Result: {outcome}");
        }
    }
    Ok(())
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
