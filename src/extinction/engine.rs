//! What both protocol front-ends share: options, the transposition table, the input thread,
//! and a search running on its own thread that can be stopped within milliseconds.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::rules::Game;
use super::search::timeman::{Limits, SearchClock, Signals, DEFAULT_MOVE_OVERHEAD_MS};
use super::search::tt::TranspositionTable;
use super::search::{search_threads, SearchInfo, SearchOptions, SearchResult, SEARCH_STACK_BYTES};

/// Engine name reported to GUIs.
pub const ENGINE_NAME: &str = "Extinction";
/// Engine author reported to GUIs.
pub const ENGINE_AUTHOR: &str = "the variant-engines authors";
/// Default `Hash` in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest accepted `Hash` in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// Largest accepted `Threads`.
pub const MAX_THREADS: usize = 64;
/// Largest accepted `MultiPV`.
pub const MAX_MULTIPV: usize = 64;
/// Largest accepted `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Something that happened, delivered to the protocol loop in order.
#[derive(Debug)]
pub enum Event {
    /// One line of input.
    Line(String),
    /// Input closed.
    Eof,
    /// The search with this id finished (its result is collected with `Engine::finish`).
    SearchDone(u64),
}

/// Start a thread that turns stdin lines into events; the loop keeps reading while searching.
pub fn spawn_input_thread() -> (Sender<Event>, Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let input_tx = tx.clone();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if input_tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = input_tx.send(Event::Eof);
    });
    (tx, rx)
}

/// Engine settings common to both protocols.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP over the shared table).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Whether pondering is allowed.
    pub ponder: bool,
    /// Milliseconds kept back per move for communication latency.
    pub move_overhead_ms: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
        }
    }
}

struct RunningSearch {
    id: u64,
    clock: Arc<SearchClock>,
    handle: JoinHandle<SearchResult>,
}

/// The engine: options, table, and at most one running search.
pub struct Engine {
    /// Current options.
    pub options: EngineOptions,
    tt: Arc<TranspositionTable>,
    running: Option<RunningSearch>,
    next_id: u64,
    events: Sender<Event>,
}

/// Progress callback run on the search thread.
pub type Reporter = Box<dyn FnMut(&SearchInfo) + Send>;

impl Engine {
    /// An engine that reports finished searches on `events`.
    pub fn new(events: Sender<Event>) -> Engine {
        let options = EngineOptions::default();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            options,
            running: None,
            next_id: 1,
            events,
        }
    }

    /// Resize the transposition table (stops and discards any running search first).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.abort();
        self.options.hash_mb = megabytes.clamp(1, MAX_HASH_MB);
        self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
    }

    /// Forget the transposition table contents.
    pub fn clear_hash(&mut self) {
        self.abort();
        self.tt.clear();
    }

    /// Whether a search is running (or finished but not yet collected).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Id of the running search, if any.
    pub fn running_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// Start searching the game's current position on a new thread; returns the search id.
    pub fn start(
        &mut self,
        game: &Game,
        limits: Limits,
        options: SearchOptions,
        mut reporter: Option<Reporter>,
    ) -> u64 {
        self.abort();
        let id = self.next_id;
        self.next_id += 1;
        let clock = Arc::new(SearchClock::start(
            limits,
            self.options.move_overhead_ms,
            Signals::new(),
        ));
        let thread_clock = Arc::clone(&clock);
        let threads = self.options.threads;
        let tt = Arc::clone(&self.tt);
        let game = game.clone();
        let events = self.events.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                // A bug must not leave the GUI waiting forever: answer without a move instead.
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let report = reporter.as_mut().map(|r| r as &mut dyn FnMut(&SearchInfo));
                    search_threads(&game, &tt, &thread_clock, &options, threads, report)
                }))
                .unwrap_or_else(|_| {
                    log::error!("search panicked; answering without a move");
                    SearchResult::default()
                });
                thread_clock.wait_until_released();
                let _ = events.send(Event::SearchDone(id));
                result
            });
        match handle {
            Ok(handle) => {
                self.running = Some(RunningSearch { id, clock, handle });
                id
            }
            Err(e) => {
                log::error!("cannot start search thread: {e}");
                0
            }
        }
    }

    /// Ask the running search to stop (its result arrives as `Event::SearchDone`).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.clock.signals().request_stop();
        }
    }

    /// The opponent played the pondered move: switch the running search to normal timing.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.clock.ponderhit();
        }
    }

    /// Collect the result of search `id` if it is the running one (after `SearchDone`).
    pub fn finish(&mut self, id: u64) -> Option<SearchResult> {
        if self.running_id() != Some(id) {
            return None;
        }
        let running = self.running.take()?;
        running.handle.join().ok()
    }

    /// Stop the running search, wait for it and return its result.
    pub fn stop_and_wait(&mut self) -> Option<SearchResult> {
        let running = self.running.take()?;
        running.clock.signals().request_stop();
        running.handle.join().ok()
    }

    /// Stop the running search, wait for it, and drop its result.
    pub fn abort(&mut self) {
        let _ = self.stop_and_wait();
    }

    /// Shared transposition table (for `hashfull` and tests).
    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }
}

/// Parse a whole-number option value within `min..=max`.
pub fn parse_spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let text = value.ok_or_else(|| format!("option {name}: missing value"))?;
    let v: u64 = text
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: bad number '{text}'"))?;
    if v < min || v > max {
        return Err(format!("option {name}: {v} is outside {min}..{max}"));
    }
    Ok(v)
}

/// Parse a check (boolean) option value.
pub fn parse_check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()) {
        Some(v) if v == "true" || v == "1" => Ok(true),
        Some(v) if v == "false" || v == "0" => Ok(false),
        Some(v) => Err(format!("option {name}: expected true or false, got '{v}'")),
        None => Err(format!("option {name}: missing value")),
    }
}

/// Apply a named option common to both protocols; `Ok(false)` when the name is unknown.
pub fn apply_common_option(
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<bool, String> {
    match name.to_ascii_lowercase().as_str() {
        "hash" => {
            let mb = parse_spin("Hash", value, 1, MAX_HASH_MB as u64)?;
            engine.set_hash(mb as usize);
        }
        "threads" => {
            engine.options.threads = parse_spin("Threads", value, 1, MAX_THREADS as u64)? as usize
        }
        "multipv" => {
            engine.options.multipv = parse_spin("MultiPV", value, 1, MAX_MULTIPV as u64)? as usize
        }
        "ponder" => engine.options.ponder = parse_check("Ponder", value)?,
        "move overhead" => {
            engine.options.move_overhead_ms =
                parse_spin("Move Overhead", value, 0, MAX_MOVE_OVERHEAD_MS)?
        }
        "clear hash" => engine.clear_hash(),
        _ => return Ok(false),
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn stop_answers_quickly() {
        let (tx, rx) = mpsc::channel();
        let mut engine = Engine::new(tx);
        let id = engine.start(
            &Game::default(),
            Limits::infinite(),
            SearchOptions::default(),
            None,
        );
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        engine.stop();
        match rx.recv_timeout(Duration::from_secs(2)) {
            Ok(Event::SearchDone(done)) => assert_eq!(done, id),
            other => panic!("unexpected {other:?}"),
        }
        let result = engine.finish(id).expect("result");
        assert!(t.elapsed() < Duration::from_millis(200));
        assert!(result.best_move.is_some());
    }

    #[test]
    fn options_validate() {
        let (tx, _rx) = mpsc::channel();
        let mut engine = Engine::new(tx);
        assert_eq!(
            apply_common_option(&mut engine, "Hash", Some("2")),
            Ok(true)
        );
        assert_eq!(engine.tt().size_mb(), 2);
        assert!(apply_common_option(&mut engine, "Hash", Some("0")).is_err());
        assert!(apply_common_option(&mut engine, "MultiPV", Some("x")).is_err());
        assert_eq!(
            apply_common_option(&mut engine, "move overhead", Some("100")),
            Ok(true)
        );
        assert_eq!(engine.options.move_overhead_ms, 100);
        assert_eq!(
            apply_common_option(&mut engine, "Nonsense", Some("1")),
            Ok(false)
        );
    }
}
