//! The UCI front-end: parses commands (see `uci_command`), keeps the game, drives the engine.

use std::sync::mpsc::Receiver;

use shakmaty::Color;

use super::engine::{
    apply_common_option, spawn_input_thread, Engine, Event, DEFAULT_HASH_MB, ENGINE_AUTHOR,
    ENGINE_NAME, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS,
};
use super::eval::evaluate;
use super::rules::game::Game;
use super::rules::notation::parse_uci;
use super::rules::perft::divide;
use super::rules::position::Position;
use super::search::timeman::{Limits, DEFAULT_MOVE_OVERHEAD_MS};
use super::search::{mate_moves, ScoreBound, SearchInfo, SearchOptions};
use super::uci_command::{GoCommand, StartPosition, UciCommand};

/// `score cp N` / `score mate N` text for a search score.
pub fn uci_score(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

/// A UCI `info` line for one search report.
pub fn info_line(info: &SearchInfo) -> String {
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        uci_score(info.score),
        bound,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time_ms,
        pv.join(" ")
    )
}

/// Time limits for the side to move from a `go` command.
pub fn limits_from_go(go: &GoCommand, turn: Color) -> Limits {
    let (time, inc) = match turn {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    Limits {
        time_left_ms: time,
        increment_ms: inc.unwrap_or(0),
        moves_to_go: go.movestogo,
        move_time_ms: go.movetime,
        depth: go.depth,
        nodes: go.nodes,
        mate: go.mate,
        infinite: go.infinite,
        ponder: go.ponder,
    }
}

fn say(line: &str) {
    crate::console::line(line);
}

fn error(msg: &str) {
    say(&format!("info string error: {msg}"));
}

/// UCI session state.
pub struct UciSession {
    engine: Engine,
    game: Game,
    events: Receiver<Event>,
}

impl UciSession {
    fn new() -> UciSession {
        let (tx, rx) = spawn_input_thread();
        UciSession {
            engine: Engine::new(tx),
            game: Game::new(Position::startpos()),
            events: rx,
        }
    }

    fn print_identity(&self) {
        say(&format!(
            "id name {ENGINE_NAME} {}",
            env!("CARGO_PKG_VERSION")
        ));
        say(&format!("id author {ENGINE_AUTHOR}"));
        say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        say("option name Ponder type check default false");
        say(&format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        say("option name Clear Hash type button");
        say("option name UCI_Variant type combo default extinction var extinction");
        say("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case("UCI_Variant") {
            match value {
                Some(v) if v.trim().eq_ignore_ascii_case("extinction") => {}
                Some(v) => error(&format!("unsupported variant '{v}' (only extinction)")),
                None => error("option UCI_Variant: missing value"),
            }
            return;
        }
        match apply_common_option(&mut self.engine, name, value) {
            Ok(true) => {}
            Ok(false) => error(&format!("unknown option '{name}'")),
            Err(e) => error(&e),
        }
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) {
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
        self.game = game;
    }

    fn go(&mut self, go: &GoCommand) {
        if self.engine.is_searching() {
            error("already searching; send stop first");
            return;
        }
        let pos = self.game.position().clone();
        if let Some(depth) = go.perft {
            let mut p = pos.clone();
            let rows = divide(&mut p, depth.min(8));
            for (m, n) in &rows {
                say(&format!("{m}: {n}"));
            }
            say(&format!(
                "Nodes searched: {}",
                rows.iter().map(|r| r.1).sum::<u64>()
            ));
            return;
        }
        if let Some(outcome) = self.game.outcome() {
            say(&format!("info string game over: {outcome}"));
        }
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match parse_uci(&pos, text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => error(&format!("searchmoves '{text}': {e}")),
            }
        }
        let limits = limits_from_go(go, pos.turn());
        let options = SearchOptions {
            multipv: self.engine.options.multipv,
            searchmoves,
        };
        self.engine.start(
            &self.game,
            limits,
            options,
            Some(Box::new(|info| say(&info_line(info)))),
        );
        if !self.engine.is_searching() {
            error("could not start the search");
            say("bestmove 0000");
        }
    }

    fn print_best(&mut self, result: Option<super::search::SearchResult>) {
        match result.and_then(|r| r.best_move.map(|m| (m, r.ponder_move))) {
            Some((m, Some(p))) => say(&format!("bestmove {m} ponder {p}")),
            Some((m, None)) => say(&format!("bestmove {m}")),
            None => say("bestmove 0000"),
        }
    }

    /// Stop a running search and print its `bestmove` (every `go` gets exactly one).
    fn finish_running_search(&mut self) {
        if self.engine.is_searching() {
            let result = self.engine.stop_and_wait();
            self.print_best(result);
        }
    }

    /// Handle one command; returns false when the session should end.
    fn handle(&mut self, line: &str) -> bool {
        match UciCommand::parse(line) {
            UciCommand::Uci => self.print_identity(),
            UciCommand::IsReady => say("readyok"),
            UciCommand::UciNewGame => {
                // A GUI should stop first; if it did not, the running search still owes a move.
                self.finish_running_search();
                self.engine.clear_hash();
                self.game = Game::new(Position::startpos());
            }
            UciCommand::Debug(_) | UciCommand::Register | UciCommand::Empty => {}
            UciCommand::SetOption { name, value } => {
                if self.engine.is_searching() {
                    error("setoption ignored while searching");
                } else {
                    self.set_option(&name, value.as_deref());
                }
            }
            UciCommand::Position { start, moves } => {
                self.finish_running_search();
                self.set_position(&start, &moves);
            }
            UciCommand::Go(go) => self.go(&go),
            UciCommand::Stop => self.finish_running_search(),
            UciCommand::PonderHit => self.engine.ponderhit(),
            UciCommand::Quit => {
                self.finish_running_search();
                return false;
            }
            UciCommand::Display => {
                let pos = self.game.position();
                say(&format!("info string fen {}", pos.fen()));
                for row in super::rules::notation::board_diagram(pos).lines() {
                    say(&format!("info string {row}"));
                }
            }
            UciCommand::Eval => say(&format!(
                "info string eval {} (side to move)",
                evaluate(self.game.position())
            )),
            UciCommand::Unknown(word) => error(&format!("unknown command '{word}'")),
            UciCommand::Malformed(msg) => error(&msg),
        }
        true
    }

    fn run(mut self) {
        while let Ok(event) = self.events.recv() {
            match event {
                Event::Line(line) => {
                    if !self.handle(&line) {
                        break;
                    }
                }
                Event::Eof => break,
                Event::SearchDone(id) => {
                    if let Some(result) = self.engine.finish(id) {
                        self.print_best(Some(result));
                    }
                }
            }
        }
        self.engine.abort();
    }
}

/// Run a UCI session on stdin/stdout; `first_line` is a line already read (e.g. `uci`).
pub fn run(first_line: Option<&str>) {
    let mut session = UciSession::new();
    if let Some(line) = first_line {
        if !session.handle(line) {
            return;
        }
    }
    session.run();
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

    #[test]
    fn limits_pick_side_to_move() {
        let go = GoCommand {
            wtime: Some(1000),
            btime: Some(2000),
            winc: Some(5),
            binc: Some(7),
            ..GoCommand::default()
        };
        let l = limits_from_go(&go, Color::Black);
        assert_eq!(l.time_left_ms, Some(2000));
        assert_eq!(l.increment_ms, 7);
    }
}
