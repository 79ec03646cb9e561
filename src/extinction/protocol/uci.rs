//! The UCI front-end: answers each command (parsed by `uci_parser`) on the shared session, and
//! prints `bestmove` for every `go`, exactly once.

use super::detect::Protocol;
use super::options::{set_option, OptionError, OPTIONS};
use super::output::say;
use super::session::{Frontend, Session};
use super::uci_parser::{Go, StartPosition, UciCommand, FALLBACK_MOVE_TIME_MS};
use crate::extinction::engine::{ENGINE_AUTHOR, ENGINE_NAME};
use crate::extinction::eval::evaluate_corrected;
use crate::extinction::rules::{board_diagram, parse_uci, Game, Position};
use crate::extinction::search::{mate_moves, SearchInfo, SearchOptions, SearchResult};

/// `score cp N` / `score mate N` text for a search score.
pub fn uci_score(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// A UCI `info` line for one search report.
pub fn info_line(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        uci_score(info.score),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time_ms,
        pv.join(" ")
    )
}

fn error(msg: &str) {
    say(&format!("info string error: {msg}"));
}

/// The UCI protocol; all its state is the shared session's.
#[derive(Debug, Default)]
pub struct Uci;

fn print_identity() {
    say(&format!(
        "id name {ENGINE_NAME} {}",
        env!("CARGO_PKG_VERSION")
    ));
    say(&format!("id author {ENGINE_AUTHOR}"));
    for option in OPTIONS.iter().filter(|o| o.offered_in(Protocol::Uci)) {
        say(&option.uci_line());
    }
    say("uciok");
}

fn print_best(result: Option<SearchResult>) {
    match result.and_then(|r| r.best_move.map(|m| (m, r.ponder_move))) {
        Some((m, Some(p))) => say(&format!("bestmove {m} ponder {p}")),
        Some((m, None)) => say(&format!("bestmove {m}")),
        None => say("bestmove 0000"),
    }
}

/// Stop a running search and print its `bestmove` (every `go` gets exactly one).
fn finish_running_search(session: &mut Session) {
    if session.engine.is_searching() {
        print_best(session.engine.stop_and_wait());
    }
}

fn set_position(session: &mut Session, start: &StartPosition, moves: &[String]) {
    let pos = match start {
        StartPosition::Startpos => Position::startpos(),
        StartPosition::Fen(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                error(&format!("bad FEN '{fen}': {e}; position unchanged"));
                return;
            }
        },
    };
    let mut game = Game::new(pos);
    for text in moves {
        match parse_uci(game.position(), text) {
            Ok(m) if game.play(m) => {}
            Ok(_) => {
                error(&format!(
                    "illegal move '{text}'; position kept up to the previous move"
                ));
                break;
            }
            Err(e) => {
                error(&format!(
                    "illegal move '{text}': {e}; position kept up to the previous move"
                ));
                break;
            }
        }
    }
    session.game = game;
}

fn go(session: &mut Session, go: Go) {
    if session.engine.is_searching() {
        // Every `go` gets its own bestmove: the running search answers first.
        error("go while searching; the running search is stopped first");
        finish_running_search(session);
    }
    for problem in &go.errors {
        error(&problem.to_string());
    }
    if let Some(depth) = go.perft {
        start_perft(session, depth);
        return;
    }
    if let Some(outcome) = session.game.outcome() {
        say(&format!("info string game over: {outcome}"));
    }
    let limits = go.limits_to_search();
    if limits != go.limits {
        error(&format!(
            "no usable limit left in this go; searching {} ms",
            FALLBACK_MOVE_TIME_MS
        ));
    }
    let options = SearchOptions {
        multipv: session.engine.options.multipv,
        searchmoves: go.searchmoves,
    };
    session.engine.start(
        &session.game,
        limits,
        options,
        Some(Box::new(|info| say(&info_line(info)))),
    );
    if !session.engine.is_searching() {
        error("could not start the search");
        say("bestmove 0000");
    }
}

/// Deepest `go perft` counted (deeper ones would run for days).
const MAX_PERFT_DEPTH: u32 = 8;

/// `go perft N`: count on the engine's perft thread; the rows and total arrive when done,
/// while `isready`, `stop` and `quit` are still answered.
fn start_perft(session: &mut Session, depth: u32) {
    if depth > MAX_PERFT_DEPTH {
        error(&format!(
            "go perft: depth {depth} is too deep; counting depth {MAX_PERFT_DEPTH}"
        ));
    }
    session.engine.start_perft(
        &session.game,
        depth.min(MAX_PERFT_DEPTH),
        Box::new(|rows| match rows {
            Some(rows) => {
                for (m, n) in &rows {
                    say(&format!("{m}: {n}"));
                }
                say(&format!(
                    "Nodes searched: {}",
                    rows.iter().map(|r| r.1).sum::<u64>()
                ));
            }
            None => say("info string perft stopped"),
        }),
    );
}

impl Frontend for Uci {
    fn handle_line(&mut self, session: &mut Session, line: &str) -> bool {
        match UciCommand::parse(line, session.game.position()) {
            UciCommand::Uci => print_identity(),
            UciCommand::IsReady => say("readyok"),
            UciCommand::UciNewGame => {
                // A GUI should stop first; if it did not, the running search still owes a move.
                finish_running_search(session);
                session.engine.clear_hash();
                session.game = Game::default();
            }
            UciCommand::Debug(_) | UciCommand::Register | UciCommand::Empty => {}
            UciCommand::SetOption { name, value } => {
                if session.engine.is_searching() {
                    error("setoption ignored while searching");
                } else {
                    match set_option(&mut session.engine, Protocol::Uci, &name, value.as_deref()) {
                        Ok(()) => {}
                        Err(OptionError::Unknown(name)) => {
                            error(&format!("unknown option '{name}'"))
                        }
                        Err(OptionError::BadValue(why)) => error(&why),
                    }
                }
            }
            UciCommand::Position { start, moves } => {
                finish_running_search(session);
                set_position(session, &start, &moves);
            }
            UciCommand::Go(command) => go(session, command),
            UciCommand::Stop => {
                session.engine.stop_perft();
                finish_running_search(session);
            }
            UciCommand::PonderHit => session.engine.ponderhit(),
            UciCommand::Quit => {
                session.engine.stop_perft();
                finish_running_search(session);
                return false;
            }
            UciCommand::Display => {
                let pos = session.game.position();
                say(&format!("info string fen {}", pos.fen()));
                for row in board_diagram(pos).lines() {
                    say(&format!("info string {row}"));
                }
            }
            UciCommand::Eval => say(&format!(
                "info string eval {} (side to move)",
                evaluate_corrected(session.game.position())
            )),
            UciCommand::Unknown(word) => error(&format!("unknown command '{word}'")),
            UciCommand::Malformed(msg) => error(&msg),
        }
        true
    }

    fn search_finished(&mut self, _session: &mut Session, result: SearchResult) {
        print_best(Some(result));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::search::MATE;

    #[test]
    fn scores_format() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 8)), "mate -4");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
    }
}
