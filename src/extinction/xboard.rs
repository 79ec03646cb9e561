//! The XBoard / CECP v2 front-end: parses commands (see `xboard_command`), keeps the game and
//! clocks, plays or analyses, and claims results (extinction, stalemate, 50 moves, threefold).

use std::sync::mpsc::Receiver;

use shakmaty::{Color, Square};

use super::engine::Reporter;
use super::engine::{
    apply_common_option, spawn_input_thread, Engine, Event, ENGINE_NAME, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV,
};
use super::rules::game::Game;
use super::rules::notation::parse_uci;
use super::rules::position::Position;
use super::rules::types::MoveList;
use super::search::timeman::{Limits, DEFAULT_MOVE_OVERHEAD_MS};
use super::search::{mate_moves, SearchInfo, SearchOptions, SearchResult};
use super::xboard_command::{Level, XboardCommand};

/// Start position FEN announced with the `setup` command.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// CECP score: centipawns, or ±(100000 + moves) for forced wins/losses.
pub fn xboard_score(score: i32) -> i32 {
    match mate_moves(score) {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => score,
    }
}

/// A thinking-output line: `depth score centiseconds nodes pv`.
pub fn thinking_line(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// The `feature` lines sent in reply to `protover 2`.
pub fn feature_lines() -> Vec<String> {
    vec![
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
             analyze=1 colors=0 ics=0 name=0 pause=0 nps=0 debug=1 memory=1 smp=1 highlight=1 exclude=0 \
             setscore=0 myname=\"{ENGINE_NAME} {}\" variants=\"extinction\"",
            env!("CARGO_PKG_VERSION")
        ),
        format!("feature option=\"Move Overhead -spin {DEFAULT_MOVE_OVERHEAD_MS} 0 {MAX_MOVE_OVERHEAD_MS}\""),
        format!("feature option=\"MultiPV -spin 1 1 {MAX_MULTIPV}\""),
        "feature option=\"Clear Hash -button\"".to_string(),
        "feature done=1".to_string(),
    ]
}

/// The `setup` and `piece` lines defining Extinction for XBoard's fairy variant: orthodox
/// pieces, kings castle (O2) and pawns may promote to a king.
pub fn variant_setup_lines() -> Vec<String> {
    vec![
        format!("setup (PNBRQKpnbrqk) 8x8+0_fairy {START_FEN}"),
        "piece P& fmWfcFifmnD".to_string(),
        "piece K& KO2".to_string(),
    ]
}

/// The `highlight` board (a FEN-like string of colour letters) for the legal moves of the
/// piece on `from`: yellow for moves, red for captures.
pub fn highlight_board(pos: &Position, from: Square) -> String {
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    let mut marks = [None; 64];
    for &m in list.iter() {
        if m.from() == from {
            let target = if m.is_castle() {
                m.castle_king_to()
            } else {
                m.to()
            };
            marks[target as usize] = Some(if pos.is_capture(m) { 'R' } else { 'Y' });
        }
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match marks[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Thinking about the engine's own move.
    Move,
    /// Analyse mode: search until the position changes.
    Analysis,
}

fn say(line: &str) {
    crate::console::line(line);
}

/// Thinking output for a search: always in analyse mode, with `post` when playing.
fn thinking_output(enabled: bool) -> Option<Reporter> {
    enabled.then(|| Box::new(|info: &SearchInfo| say(&thinking_line(info))) as Reporter)
}

/// XBoard session state.
pub struct XboardSession {
    engine: Engine,
    game: Game,
    events: Receiver<Event>,
    force: bool,
    engine_color: Color,
    post: bool,
    analyzing: bool,
    purpose: Option<Purpose>,
    level: Option<Level>,
    seconds_per_move: Option<f64>,
    depth_limit: Option<u32>,
    engine_time_cs: Option<i64>,
    game_over: bool,
}

impl XboardSession {
    fn new() -> XboardSession {
        let (tx, rx) = spawn_input_thread();
        XboardSession {
            engine: Engine::new(tx),
            game: Game::new(Position::startpos()),
            events: rx,
            force: false,
            engine_color: Color::Black,
            post: false,
            analyzing: false,
            purpose: None,
            level: None,
            seconds_per_move: None,
            depth_limit: None,
            engine_time_cs: None,
            game_over: false,
        }
    }

    /// Stop any search and forget its result.
    fn halt(&mut self) {
        self.engine.abort();
        self.purpose = None;
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth_limit,
            ..Limits::default()
        };
        if let Some(st) = self.seconds_per_move {
            limits.move_time_ms = Some((st * 1000.0) as u64);
        } else if let Some(cs) = self.engine_time_cs {
            limits.time_left_ms = Some((cs.max(0) as u64) * 10);
            if let Some(level) = self.level {
                limits.increment_ms = level.increment_ms;
                if level.moves_per_session > 0 {
                    let played = self.game.position().fullmoves().saturating_sub(1);
                    limits.moves_to_go =
                        Some(level.moves_per_session - played % level.moves_per_session);
                }
            }
        } else if self.depth_limit.is_none() {
            limits.move_time_ms = Some(5000);
        }
        limits
    }

    fn start_thinking(&mut self) {
        if self.game_over || self.game.outcome().is_some() {
            return;
        }
        let options = SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
        };
        let limits = self.limits();
        let reporter = thinking_output(self.post);
        self.engine.start(&self.game, limits, options, reporter);
        self.purpose = Some(Purpose::Move);
    }

    fn start_analysis(&mut self) {
        self.halt();
        if self.game.outcome().is_some() {
            return;
        }
        let options = SearchOptions {
            multipv: self.engine.options.multipv,
            searchmoves: Vec::new(),
        };
        self.engine.start(
            &self.game,
            Limits::infinite(),
            options,
            thinking_output(true),
        );
        self.purpose = Some(Purpose::Analysis);
    }

    fn maybe_think(&mut self) {
        if self.analyzing {
            self.start_analysis();
        } else if !self.force && !self.game_over && self.game.position().turn() == self.engine_color
        {
            self.start_thinking();
        }
    }

    /// Claim the result if the game just ended; returns whether it did.
    fn claim_result(&mut self) -> bool {
        if let Some(outcome) = self.game.outcome() {
            say(&format!("{} {{{}}}", outcome.result_str(), outcome.reason));
            self.game_over = true;
            true
        } else {
            false
        }
    }

    fn new_game(&mut self) {
        self.halt();
        self.game = Game::new(Position::startpos());
        self.force = false;
        self.engine_color = Color::Black;
        self.depth_limit = None;
        self.seconds_per_move = None;
        self.game_over = false;
        self.engine.clear_hash();
    }

    fn user_move(&mut self, text: &str) {
        if self.purpose == Some(Purpose::Move) {
            self.halt();
        }
        let m = match parse_uci(self.game.position(), text) {
            Ok(m) => m,
            Err(e) => {
                say(&format!("Illegal move ({e}): {text}"));
                return;
            }
        };
        if self.game_over || !self.game.play(m) {
            let reason = if self.game_over {
                "game is over"
            } else {
                "not legal here"
            };
            say(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        if self.claim_result() {
            if self.analyzing {
                self.halt();
            }
            return;
        }
        self.maybe_think();
    }

    fn engine_moved(&mut self, result: SearchResult) {
        self.purpose = None;
        let Some(m) = result.best_move else {
            self.claim_result();
            return;
        };
        if !self.game.play(m) {
            log::error!("search returned an illegal move {m}");
            return;
        }
        say(&format!("move {m}"));
        self.claim_result();
    }

    fn set_board(&mut self, fen: &str) {
        self.halt();
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.game = Game::new(pos);
                self.game_over = false;
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn take_back(&mut self, plies: usize) {
        self.halt();
        for _ in 0..plies {
            self.game.undo();
        }
        self.game_over = self.game.outcome().is_some();
        if self.analyzing {
            self.start_analysis();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match apply_common_option(&mut self.engine, name, value) {
            Ok(true) => {}
            Ok(false) => say(&format!("Error (unknown option): {name}")),
            Err(e) => say(&format!("Error (bad option value): {e}")),
        }
    }

    /// Handle one command; returns false when the session should end.
    fn handle(&mut self, line: &str) -> bool {
        match XboardCommand::parse(line) {
            XboardCommand::Xboard | XboardCommand::Empty | XboardCommand::Ignored => {}
            XboardCommand::Accepted(_) | XboardCommand::Rejected(_) => {}
            XboardCommand::Protover(_) => feature_lines().iter().for_each(|l| say(l)),
            XboardCommand::New => self.new_game(),
            XboardCommand::Variant(name) => {
                if name.eq_ignore_ascii_case("extinction") {
                    variant_setup_lines().iter().for_each(|l| say(l));
                } else {
                    say(&format!("Error (unsupported variant): {name}"));
                }
            }
            XboardCommand::Quit => return false,
            XboardCommand::Force => {
                self.halt();
                self.force = true;
            }
            XboardCommand::Go => {
                self.force = false;
                self.engine_color = self.game.position().turn();
                if !self.engine.is_searching() {
                    self.start_thinking();
                }
            }
            XboardCommand::PlayOther => {
                self.halt();
                self.force = false;
                self.engine_color = self.game.position().turn().other();
            }
            XboardCommand::SetSide(color) => {
                self.halt();
                self.engine_color = color.other();
            }
            XboardCommand::Level(level) => {
                self.level = Some(level);
                self.seconds_per_move = None;
            }
            XboardCommand::SecondsPerMove(s) => self.seconds_per_move = Some(s),
            XboardCommand::Depth(d) => self.depth_limit = Some(d.max(1)),
            XboardCommand::Time(cs) => self.engine_time_cs = Some(cs),
            XboardCommand::OpponentTime(_) => {}
            XboardCommand::UserMove(text) => self.user_move(&text),
            XboardCommand::MoveNow => {
                if self.purpose == Some(Purpose::Move) {
                    self.engine.stop();
                }
            }
            XboardCommand::Ping(n) => say(&format!("pong {n}")),
            XboardCommand::Draw | XboardCommand::Hint => {}
            XboardCommand::Result(_) => {
                self.halt();
                self.game_over = true;
            }
            XboardCommand::SetBoard(fen) => self.set_board(&fen),
            XboardCommand::Undo => self.take_back(1),
            XboardCommand::Remove => self.take_back(2),
            XboardCommand::Hard => self.engine.options.ponder = true,
            XboardCommand::Easy => self.engine.options.ponder = false,
            XboardCommand::Post => self.post = true,
            XboardCommand::NoPost => self.post = false,
            XboardCommand::Analyze => {
                self.analyzing = true;
                self.start_analysis();
            }
            XboardCommand::Exit => {
                self.analyzing = false;
                self.halt();
            }
            XboardCommand::Status => {}
            XboardCommand::Memory(mb) => self.set_option("Hash", Some(&mb.to_string())),
            XboardCommand::Cores(n) => self.set_option("Threads", Some(&n.max(1).to_string())),
            XboardCommand::Option { name, value } => self.set_option(&name, value.as_deref()),
            XboardCommand::Lift(text) => match text.parse::<Square>() {
                Ok(sq) => say(&format!(
                    "highlight {}",
                    highlight_board(self.game.position(), sq)
                )),
                Err(_) => say(&format!("Error (bad square): {text}")),
            },
            XboardCommand::Put(_) | XboardCommand::Hover(_) => {}
            XboardCommand::Unknown(word) => say(&format!("Error (unknown command): {word}")),
            XboardCommand::Malformed(msg) => say(&format!("Error ({msg}): {line}")),
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
                        if self.purpose == Some(Purpose::Move) {
                            self.engine_moved(result);
                        }
                    }
                }
            }
        }
        self.engine.abort();
    }
}

/// Run an XBoard session on stdin/stdout; `first_line` is a line already read.
pub fn run(first_line: Option<&str>) {
    let mut session = XboardSession::new();
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
    fn mate_scores_follow_cecp() {
        assert_eq!(xboard_score(-(MATE - 8)), -100_004);
        assert_eq!(xboard_score(MATE - 1), 100_001);
        assert_eq!(xboard_score(-12), -12);
    }

    #[test]
    fn highlight_knight_on_b1() {
        let pos = Position::startpos();
        assert_eq!(highlight_board(&pos, Square::B1), "8/8/8/8/8/Y1Y5/8/8");
    }

    #[test]
    fn features_end_with_done() {
        let lines = feature_lines();
        assert_eq!(lines.first().unwrap(), "feature done=0");
        assert_eq!(lines.last().unwrap(), "feature done=1");
        assert!(lines
            .iter()
            .any(|l| l.contains("variants=\"extinction\"") && l.contains("setboard=1")));
    }
}
