//! The engine facade: the settings a user can change (hash size, threads, MultiPV, ponder, move
//! overhead), the transposition table, and at most one search running on its own thread that
//! can be stopped within milliseconds. The protocols start searches here and hear back through
//! a callback; the tools run one blocking search at a time through the same path.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, TryLockError};
use std::thread::JoinHandle;

use super::rules::{divide_until, Game, Move};
use super::search::memory::{self, SearchMemory};
use super::search::progress::ProgressReport;
use super::search::timeman::{Limits, SearchClock, Signals};
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
/// Default safety margin in milliseconds kept back per move for GUI and pipe latency.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;
/// Largest accepted `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The engine's settings.
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

/// Progress callback run on the search thread.
pub type Reporter = Box<dyn FnMut(&SearchInfo) + Send>;

/// Called on the search thread with a search's id once its result can be collected.
type DoneCallback = Arc<dyn Fn(u64) + Send + Sync>;

/// Called on the perft thread with the per-move counts, or `None` when stopped first.
pub type PerftDone = Box<dyn FnOnce(Option<Vec<(Move, u64)>>) + Send>;

/// A `go perft` counting on its own thread, so the protocol keeps reading input meanwhile.
struct RunningPerft {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

struct RunningSearch {
    id: u64,
    clock: Arc<SearchClock>,
    handle: JoinHandle<SearchResult>,
}

/// The engine: settings, table, and at most one running search.
pub struct Engine {
    /// Current settings (`Hash` changes go through [`Engine::set_hash`]).
    pub options: EngineOptions,
    tt: Arc<TranspositionTable>,
    /// Each search thread's histories and evaluation correction, kept from move to move.
    memory: Arc<Mutex<Vec<SearchMemory>>>,
    running: Option<RunningSearch>,
    perft: Option<RunningPerft>,
    next_id: u64,
    on_done: Option<DoneCallback>,
}

impl Engine {
    /// An engine with `options` and a fresh table of `options.hash_mb`.
    pub fn new(mut options: EngineOptions) -> Engine {
        options.hash_mb = options.hash_mb.clamp(1, MAX_HASH_MB);
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            memory: Arc::new(Mutex::new(Vec::new())),
            options,
            running: None,
            perft: None,
            next_id: 1,
            on_done: None,
        }
    }

    /// Have `on_done(id)` called when search `id` (started with [`Engine::start`]) finishes;
    /// its result is then collected with [`Engine::finish`].
    pub fn on_search_done(mut self, on_done: impl Fn(u64) + Send + Sync + 'static) -> Engine {
        self.on_done = Some(Arc::new(on_done));
        self
    }

    /// Resize the transposition table (stops and discards any running search first).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.abort();
        self.options.hash_mb = megabytes.clamp(1, MAX_HASH_MB);
        self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
    }

    /// Forget the transposition table contents and what the search threads learned.
    pub fn clear_hash(&mut self) {
        self.abort();
        self.tt.clear();
        self.memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
    }

    /// Whether a search is running (or finished but not yet collected).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Whether a search is still thinking (started and not yet ended by itself or a stop).
    pub fn is_thinking(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Id of the running search, if any.
    pub fn running_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// How far the running search has come (time, nodes, iteration), if one runs.
    pub fn progress(&self) -> Option<ProgressReport> {
        self.running.as_ref().map(|r| r.clock.progress_report())
    }

    /// Start searching the game's current position on a new thread; returns the search id
    /// (0 when no thread could be started). `reporter`, if given, hears every completed
    /// iteration; without one the search is silent.
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
        let shared_memory = Arc::clone(&self.memory);
        let game = game.clone();
        let on_done = self.on_done.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                // A bug must not leave the GUI waiting forever: answer without a move instead.
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let report = reporter.as_mut().map(|r| r as &mut dyn FnMut(&SearchInfo));
                    // The previous search has ended before this one starts, so the lock is
                    // free; should it not be, this search starts cold rather than wait.
                    let mut cold = Vec::new();
                    let mut guard = match shared_memory.try_lock() {
                        Ok(guard) => Some(guard),
                        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
                        Err(TryLockError::WouldBlock) => None,
                    };
                    let memory = guard.as_deref_mut().unwrap_or(&mut cold);
                    if memory.len() != threads {
                        *memory = memory::fresh(threads);
                    }
                    search_threads(&game, &tt, &thread_clock, &options, memory, report)
                }))
                .unwrap_or_else(|_| {
                    log::error!("search panicked; answering without a move");
                    SearchResult::default()
                });
                thread_clock.wait_until_released();
                if let Some(on_done) = on_done {
                    on_done(id);
                }
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

    /// Search the game's current position and wait for the result: the one search the tools
    /// (analyze, bench, datagen) run, on the same thread and table as [`Engine::start`].
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        options: SearchOptions,
        reporter: Option<Reporter>,
    ) -> SearchResult {
        self.start(game, limits, options, reporter);
        self.running
            .take()
            .and_then(|running| running.handle.join().ok())
            .unwrap_or_default()
    }

    /// Ask the running search to stop (its result arrives through the done callback).
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.clock.signals().request_stop();
        }
    }

    /// The opponent played the pondered move: switch the running search to normal timing (the
    /// time it spent pondering counts as used).
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.clock.ponderhit();
        }
    }

    /// Collect the result of search `id` if it is the running one (after its done callback).
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

    /// Stop the running search or perft, wait for it, and drop its result.
    pub fn abort(&mut self) {
        let _ = self.stop_and_wait();
        self.stop_perft();
    }

    /// Count the leaf nodes `depth` plies below the game's position, per root move, on a
    /// thread of its own (stopping any search first); `done` hears the counts.
    pub fn start_perft(&mut self, game: &Game, depth: u32, done: PerftDone) {
        self.abort();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let mut pos = game.position().clone();
        let spawned = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || done(divide_until(&mut pos, depth, &thread_stop)));
        match spawned {
            Ok(handle) => self.perft = Some(RunningPerft { stop, handle }),
            Err(e) => log::error!("cannot start perft thread: {e}"),
        }
    }

    /// Whether a perft is still counting.
    pub fn is_counting(&self) -> bool {
        self.perft.as_ref().is_some_and(|p| !p.handle.is_finished())
    }

    /// Stop a running perft (its `done` hears `None`) and wait for its thread.
    pub fn stop_perft(&mut self) {
        if let Some(perft) = self.perft.take() {
            perft.stop.store(true, Ordering::SeqCst);
            let _ = perft.handle.join();
        }
    }

    /// Shared transposition table (for `hashfull` and tests).
    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::Position;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    #[test]
    fn stop_answers_quickly() {
        let (tx, rx) = mpsc::channel();
        let mut engine = Engine::new(EngineOptions::default()).on_search_done(move |id| {
            let _ = tx.send(id);
        });
        let id = engine.start(
            &Game::default(),
            Limits::infinite(),
            SearchOptions::default(),
            None,
        );
        std::thread::sleep(Duration::from_millis(50));
        let t = Instant::now();
        engine.stop();
        assert_eq!(rx.recv_timeout(Duration::from_secs(2)), Ok(id));
        let result = engine.finish(id).expect("result");
        assert!(t.elapsed() < Duration::from_millis(200));
        assert!(result.best_move.is_some());
    }

    #[test]
    fn blocking_search_reports_and_answers() {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 2,
            ..EngineOptions::default()
        });
        assert_eq!(engine.tt().size_mb(), 2);
        let (tx, rx) = mpsc::channel();
        let reporter: Reporter = Box::new(move |info: &SearchInfo| {
            let _ = tx.send(info.depth);
        });
        let game = Game::new(Position::startpos());
        let result = engine.search(
            &game,
            Limits::depth(3),
            SearchOptions::default(),
            Some(reporter),
        );
        assert_eq!(result.depth, 3);
        assert!(result.best_move.is_some());
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!(!engine.is_searching());
    }
}
