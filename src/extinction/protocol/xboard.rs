//! The XBoard / CECP v2 front-end: answers each command (parsed by `xboard_parser`) on the
//! shared session, keeps the side the engine plays and XBoard's clock settings, plays or
//! analyses, and claims results (extinction, stalemate, fifty moves, threefold repetition).

use shakmaty::{Color, Square};

use super::detect::Protocol;
use super::options::{set_option, EngineOption, OptionError, OPTIONS};
use super::output::say;
use super::session::{Frontend, Session};
use super::xboard_parser::{Level, XboardCommand};
use crate::extinction::engine::{Reporter, ENGINE_NAME};
use crate::extinction::rules::{parse_uci, Game, Move, MoveList, Position};
use crate::extinction::search::progress::ProgressReport;
use crate::extinction::search::timeman::Limits;
use crate::extinction::search::{mate_moves, SearchInfo, SearchOptions, SearchResult};

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

/// The `stat01` answer to `.` in analyse mode: `stat01: time nodes ply mvleft mvtot`.
pub fn stat01_line(progress: &ProgressReport) -> String {
    format!(
        "stat01: {} {} {} {} {}",
        progress.elapsed_ms / 10,
        progress.nodes,
        progress.depth,
        progress
            .root_moves
            .saturating_sub(progress.root_moves_searched),
        progress.root_moves
    )
}

/// The `feature` lines sent in reply to `protover 2`.
pub fn feature_lines() -> Vec<String> {
    [
        "feature done=0".to_string(),
        format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
             analyze=1 colors=0 ics=0 name=0 pause=0 nps=0 debug=1 memory=1 smp=1 highlight=1 exclude=0 \
             setscore=0 myname=\"{ENGINE_NAME} {}\" variants=\"extinction\"",
            env!("CARGO_PKG_VERSION")
        ),
    ]
    .into_iter()
    .chain(OPTIONS.iter().filter_map(EngineOption::xboard_feature))
    .chain(["feature done=1".to_string()])
    .collect()
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

/// Time per move when XBoard has set neither a clock, nor a fixed time, nor a depth.
const DEFAULT_MOVE_TIME_MS: u64 = 5000;

/// XBoard's clock settings (`level`, `st`, `sd`, `time`), kept as the clock's own limits; only
/// the moves left in a `level` session depend on the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct XboardClock {
    limits: Limits,
    /// Moves per `level` session (0: the whole game).
    moves_per_session: u32,
}

impl XboardClock {
    /// `level MPS BASE INC`: a new time control, which replaces a fixed time per move. The
    /// clock starts full: until a `time` command says otherwise, the engine has BASE left.
    fn set_level(&mut self, level: Level) {
        self.moves_per_session = level.moves_per_session;
        self.limits.increment_ms = level.increment_ms;
        self.limits.move_time_ms = None;
        self.limits.time_left_ms = Some(level.base_ms);
    }

    /// The limits for the engine's next move in `game`.
    fn limits_for(&self, game: &Game) -> Limits {
        let mut limits = self.limits.clone();
        if limits.move_time_ms.is_some() {
            // `st` fixes the time per move: the clock plays no part.
            limits.time_left_ms = None;
            limits.increment_ms = 0;
        } else if limits.time_left_ms.is_some() {
            if self.moves_per_session > 0 {
                let played = game.position().fullmoves().saturating_sub(1);
                limits.moves_to_go = Some(self.moves_per_session - played % self.moves_per_session);
            }
        } else {
            limits.increment_ms = 0;
            if limits.depth.is_none() {
                limits.move_time_ms = Some(DEFAULT_MOVE_TIME_MS);
            }
        }
        limits
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Thinking about the engine's own move.
    Move,
    /// Pondering: thinking on the opponent's time about the position after the expected reply.
    Ponder(Move),
    /// Analyse mode: search until the position changes.
    Analysis,
}

/// Thinking output for a search: always in analyse mode, with `post` when playing.
fn thinking_output(enabled: bool) -> Option<Reporter> {
    enabled.then(|| Box::new(|info: &SearchInfo| say(&thinking_line(info))) as Reporter)
}

/// The XBoard protocol's own state; the engine and the game are the shared session's.
#[derive(Debug)]
pub struct Xboard {
    force: bool,
    engine_color: Color,
    post: bool,
    analyzing: bool,
    purpose: Option<Purpose>,
    clock: XboardClock,
    game_over: bool,
    /// `ping`s received while the engine thinks on its own move: answered after the move.
    pending_pongs: Vec<String>,
}

impl Default for Xboard {
    fn default() -> Self {
        Xboard {
            force: false,
            engine_color: Color::Black,
            post: false,
            analyzing: false,
            purpose: None,
            clock: XboardClock::default(),
            game_over: false,
            pending_pongs: Vec::new(),
        }
    }
}

impl Xboard {
    /// Stop any search and forget its result.
    fn halt(&mut self, session: &mut Session) {
        session.engine.abort();
        self.purpose = None;
        self.answer_pings();
    }

    /// Answer the `ping`s held back while the engine was thinking on its move.
    fn answer_pings(&mut self) {
        for n in self.pending_pongs.drain(..) {
            say(&format!("pong {n}"));
        }
    }

    /// `ping N`: answered at once, pondering included, except while the engine thinks on its
    /// own move, when the `pong` must follow the move (CECP).
    fn ping(&mut self, session: &Session, n: String) {
        if self.purpose == Some(Purpose::Move) && session.engine.is_searching() {
            self.pending_pongs.push(n);
        } else {
            say(&format!("pong {n}"));
        }
    }

    /// After the engine's move: think on the opponent's time about the expected reply, when
    /// pondering is on (`hard`) and the search expects one.
    fn start_pondering(&mut self, session: &mut Session, expected: Option<Move>) {
        let Some(expected) = expected else { return };
        if !session.engine.options.ponder || self.force || self.analyzing {
            return;
        }
        let mut after = session.game.clone();
        if !after.play(expected) || after.outcome().is_some() {
            return;
        }
        let mut limits = self.clock.limits_for(&after);
        limits.ponder = true;
        let options = SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
        };
        session
            .engine
            .start(&after, limits, options, thinking_output(self.post));
        self.purpose = Some(Purpose::Ponder(expected));
    }

    fn start_thinking(&mut self, session: &mut Session) {
        if session.game.outcome().is_some() {
            // Nothing to search: say why instead of staying silent.
            self.claim_result(session);
            return;
        }
        if self.game_over {
            return;
        }
        let options = SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
        };
        let limits = self.clock.limits_for(&session.game);
        session
            .engine
            .start(&session.game, limits, options, thinking_output(self.post));
        self.purpose = Some(Purpose::Move);
    }

    fn start_analysis(&mut self, session: &mut Session) {
        self.halt(session);
        if session.game.outcome().is_some() {
            return;
        }
        let options = SearchOptions {
            multipv: session.engine.options.multipv,
            searchmoves: Vec::new(),
        };
        session.engine.start(
            &session.game,
            Limits::infinite(),
            options,
            thinking_output(true),
        );
        self.purpose = Some(Purpose::Analysis);
    }

    fn maybe_think(&mut self, session: &mut Session) {
        if self.analyzing {
            self.start_analysis(session);
        } else if !self.force
            && !self.game_over
            && session.game.position().turn() == self.engine_color
        {
            self.start_thinking(session);
        }
    }

    /// Claim the result if the game just ended; returns whether it did.
    fn claim_result(&mut self, session: &Session) -> bool {
        if let Some(outcome) = session.game.outcome() {
            say(&format!("{} {{{}}}", outcome.result_str(), outcome.reason));
            self.game_over = true;
            true
        } else {
            false
        }
    }

    fn new_game(&mut self, session: &mut Session) {
        self.halt(session);
        session.game = Game::default();
        self.force = false;
        self.engine_color = Color::Black;
        self.clock.limits.depth = None;
        self.clock.limits.move_time_ms = None;
        self.game_over = false;
        session.engine.clear_hash();
    }

    fn user_move(&mut self, session: &mut Session, text: &str) {
        if self.purpose == Some(Purpose::Move) {
            // The engine is thinking on its own move: a move now would be played for it.
            say(&format!(
                "Error (it is the engine's move; send ? or force first): usermove {text}"
            ));
            return;
        }
        let m = match parse_uci(session.game.position(), text) {
            Ok(m) => m,
            Err(e) => {
                say(&format!("Illegal move ({e}): {text}"));
                return;
            }
        };
        if self.game_over || !session.game.position().is_pseudo_legal(m) {
            let reason = if self.game_over {
                "game is over"
            } else {
                "not legal here"
            };
            say(&format!("Illegal move ({reason}): {text}"));
            return;
        }
        if let Some(Purpose::Ponder(expected)) = self.purpose {
            if expected == m && session.engine.is_thinking() {
                // Ponder hit: the search already runs on this position; it goes on, on the
                // clock now.
                session.game.play(m);
                self.purpose = Some(Purpose::Move);
                session.engine.ponderhit();
                return;
            }
            self.halt(session);
        }
        session.game.play(m);
        if self.claim_result(session) {
            if self.analyzing {
                self.halt(session);
            }
            return;
        }
        self.maybe_think(session);
    }

    fn set_board(&mut self, session: &mut Session, fen: &str) {
        self.halt(session);
        match Position::from_fen(fen) {
            Ok(pos) => {
                session.game = Game::new(pos);
                self.game_over = false;
                if self.analyzing {
                    self.start_analysis(session);
                }
            }
            Err(e) => say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn take_back(&mut self, session: &mut Session, plies: usize) {
        self.halt(session);
        for _ in 0..plies {
            session.game.undo();
        }
        self.game_over = session.game.outcome().is_some();
        if self.analyzing {
            self.start_analysis(session);
        }
    }

    fn set_option(&mut self, session: &mut Session, name: &str, value: Option<&str>) {
        match set_option(&mut session.engine, Protocol::Xboard, name, value) {
            Ok(()) => {}
            Err(OptionError::Unknown(name)) => say(&format!("Error (unknown option): {name}")),
            Err(OptionError::BadValue(why)) => say(&format!("Error (bad option value): {why}")),
        }
    }
}

impl Frontend for Xboard {
    fn handle_line(&mut self, session: &mut Session, line: &str) -> bool {
        match XboardCommand::parse(line) {
            XboardCommand::Xboard | XboardCommand::Empty | XboardCommand::Ignored => {}
            XboardCommand::Accepted(_) | XboardCommand::Rejected(_) => {}
            XboardCommand::Protover(_) => feature_lines().iter().for_each(|l| say(l)),
            XboardCommand::New => self.new_game(session),
            XboardCommand::Variant(name) => {
                if name.eq_ignore_ascii_case("extinction") {
                    variant_setup_lines().iter().for_each(|l| say(l));
                } else {
                    say(&format!("Error (unsupported variant): {name}"));
                }
            }
            XboardCommand::Quit => return false,
            XboardCommand::Force => {
                self.halt(session);
                self.force = true;
            }
            XboardCommand::Go => {
                self.force = false;
                self.engine_color = session.game.position().turn();
                if self.purpose != Some(Purpose::Move) {
                    // Pondering or analysing stops: the engine now thinks on its own move.
                    self.halt(session);
                    self.start_thinking(session);
                }
            }
            XboardCommand::PlayOther => {
                self.halt(session);
                self.force = false;
                self.engine_color = session.game.position().turn().other();
            }
            XboardCommand::SetSide(color) => {
                self.halt(session);
                self.engine_color = color.other();
            }
            XboardCommand::Level(level) => self.clock.set_level(level),
            XboardCommand::SecondsPerMove(s) => {
                self.clock.limits.move_time_ms = Some((s * 1000.0) as u64)
            }
            XboardCommand::Depth(d) => self.clock.limits.depth = Some(d.max(1)),
            XboardCommand::Time(cs) => {
                self.clock.limits.time_left_ms = Some((cs.max(0) as u64) * 10)
            }
            XboardCommand::OpponentTime(_) => {}
            XboardCommand::UserMove(text) => self.user_move(session, &text),
            XboardCommand::MoveNow => {
                if self.purpose == Some(Purpose::Move) {
                    session.engine.stop();
                }
            }
            XboardCommand::Ping(n) => self.ping(session, n),
            XboardCommand::Draw | XboardCommand::Hint => {}
            XboardCommand::Result(_) => {
                self.halt(session);
                self.game_over = true;
            }
            XboardCommand::SetBoard(fen) => self.set_board(session, &fen),
            XboardCommand::Undo => self.take_back(session, 1),
            XboardCommand::Remove => self.take_back(session, 2),
            XboardCommand::Hard => session.engine.options.ponder = true,
            XboardCommand::Easy => {
                session.engine.options.ponder = false;
                if matches!(self.purpose, Some(Purpose::Ponder(_))) {
                    self.halt(session);
                }
            }
            XboardCommand::Post => self.post = true,
            XboardCommand::NoPost => self.post = false,
            XboardCommand::Analyze => {
                self.analyzing = true;
                self.start_analysis(session);
            }
            XboardCommand::Exit => {
                self.analyzing = false;
                self.halt(session);
            }
            XboardCommand::Status => {
                if self.purpose == Some(Purpose::Analysis) {
                    if let Some(progress) = session.engine.progress() {
                        say(&stat01_line(&progress));
                    }
                }
            }
            XboardCommand::Memory(mb) => self.set_option(session, "Hash", Some(&mb.to_string())),
            XboardCommand::Cores(n) => {
                self.set_option(session, "Threads", Some(&n.max(1).to_string()))
            }
            XboardCommand::Option { name, value } => {
                self.set_option(session, &name, value.as_deref())
            }
            XboardCommand::Lift(text) => match text.parse::<Square>() {
                Ok(sq) => say(&format!(
                    "highlight {}",
                    highlight_board(session.game.position(), sq)
                )),
                Err(_) => say(&format!("Error (bad square): {text}")),
            },
            XboardCommand::Put(_) | XboardCommand::Hover(_) => {}
            XboardCommand::Unknown(word) => say(&format!("Error (unknown command): {word}")),
            XboardCommand::Malformed(msg) => say(&format!("Error ({msg}): {line}")),
        }
        true
    }

    fn search_finished(&mut self, session: &mut Session, result: SearchResult) {
        if self.purpose != Some(Purpose::Move) {
            return;
        }
        self.purpose = None;
        let Some(m) = result.best_move else {
            self.claim_result(session);
            self.answer_pings();
            return;
        };
        if !session.game.play(m) {
            log::error!("search returned an illegal move {m}");
            self.answer_pings();
            return;
        }
        say(&format!("move {m}"));
        self.answer_pings();
        if !self.claim_result(session) {
            self.start_pondering(session, result.ponder_move);
        }
    }
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
    fn clock_settings_become_limits() {
        let mut game = Game::default();
        let mut clock = XboardClock::default();
        assert_eq!(
            clock.limits_for(&game).move_time_ms,
            Some(DEFAULT_MOVE_TIME_MS)
        );
        clock.limits.depth = Some(3);
        assert_eq!(clock.limits_for(&game), Limits::depth(3));
        clock.set_level(Level {
            moves_per_session: 40,
            base_ms: 300_000,
            increment_ms: 0,
        });
        clock.limits.time_left_ms = Some(30_000);
        for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            game.play_uci(m).unwrap();
        }
        let limits = clock.limits_for(&game);
        assert_eq!(limits.time_left_ms, Some(30_000));
        assert_eq!(limits.moves_to_go, Some(38));
        // `st` wins over the clock until the next `level`.
        clock.limits.move_time_ms = Some(200);
        let limits = clock.limits_for(&game);
        assert_eq!(
            (limits.move_time_ms, limits.time_left_ms),
            (Some(200), None)
        );
        clock.set_level(Level {
            moves_per_session: 0,
            base_ms: 60_000,
            increment_ms: 500,
        });
        let limits = clock.limits_for(&game);
        assert_eq!(limits.move_time_ms, None);
        assert_eq!((limits.increment_ms, limits.moves_to_go), (500, None));
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
