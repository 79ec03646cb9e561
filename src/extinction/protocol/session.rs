//! The one session loop both protocols run. A session owns the engine and the game; the loop
//! waits on one ordered stream of events (input lines from the input thread, finished searches
//! from the engine) and hands each to the protocol's [`Frontend`]. It ends on `quit`, at the
//! end of input, or when stdout closes, and never leaves a search running behind it.

use super::input::{spawn_input_thread, Event};
use crate::extinction::engine::{Engine, EngineOptions};
use crate::extinction::rules::Game;
use crate::extinction::search::SearchResult;

/// What every session owns, whatever its protocol.
pub struct Session {
    /// The engine: settings, table and the running search.
    pub engine: Engine,
    /// The game being played or analysed.
    pub game: Game,
}

/// What makes a session UCI or XBoard: how it answers input and finished searches.
pub trait Frontend {
    /// Handle one input line; returns false when the session should end.
    fn handle_line(&mut self, session: &mut Session, line: &str) -> bool;

    /// A search this front-end started has finished with `result`.
    fn search_finished(&mut self, session: &mut Session, result: SearchResult);
}

/// Run a session with `frontend` on stdin/stdout; `first_line` is a line already read (the one
/// the protocol was detected from).
pub fn run(frontend: &mut impl Frontend, first_line: Option<&str>) {
    let (events_tx, events) = spawn_input_thread();
    let engine = Engine::new(EngineOptions::default()).on_search_done(move |id| {
        let _ = events_tx.send(Event::SearchDone(id));
    });
    let mut session = Session {
        engine,
        game: Game::default(),
    };
    let mut going = first_line.is_none_or(|line| frontend.handle_line(&mut session, line));
    while going {
        going = match events.recv() {
            Ok(Event::Line(line)) => frontend.handle_line(&mut session, &line),
            Ok(Event::SearchDone(id)) => {
                if let Some(result) = session.engine.finish(id) {
                    frontend.search_finished(&mut session, result);
                }
                true
            }
            Ok(Event::Eof) | Err(_) => false,
        };
    }
    session.engine.abort();
}
