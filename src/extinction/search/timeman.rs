//! Time management: the one place that owns the search clock, the limits and the stop flag.
//!
//! Protocol front-ends translate their time controls into [`Limits`]; the search asks
//! [`SearchClock`] whether to stop (hard limit, polled every ~1k nodes) and whether to begin
//! another iteration (soft limit). `stop`, `ponderhit` and `?` only flip atomics here, so they
//! take effect within a few milliseconds whatever the search is doing.
//!
//! Never a blind move: until the search has completed its first iteration (depth 1, a fraction
//! of a millisecond) nothing stops it, neither the clock, nor a node limit, nor `stop`; so
//! however small the budget, every answer comes from a search.
//!
//! Time spent pondering counts as thinking time: after `ponderhit` the budgets still run from
//! the `go`, so a search that pondered long enough answers at once with what it found.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::progress::{Progress, ProgressReport};

/// Default safety margin in milliseconds kept back for GUI/pipe latency.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// Milliseconds a fixed move time (`go movetime`, XBoard `st`) keeps back for the answer to
/// arrive in time: the clock is polled every ~1k nodes, then the search unwinds and the move
/// is written. `Move Overhead` protects a running clock and does not apply here.
pub const MOVETIME_REPLY_SLACK_MS: u64 = 5;

/// What the user or GUI asked the search to respect; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining time of the side to move, in milliseconds.
    pub time_left_ms: Option<u64>,
    /// Increment per move of the side to move, in milliseconds.
    pub increment_ms: u64,
    /// Moves until the next time control (None: sudden death).
    pub moves_to_go: Option<u32>,
    /// Exact time to spend on this move, in milliseconds.
    pub move_time_ms: Option<u64>,
    /// Maximum nominal depth.
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Stop once a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search in ponder mode: no time limit until `ponderhit`.
    pub ponder: bool,
}

impl Limits {
    /// Limits for a search that runs until `stop`.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// Limits for a fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Whether the clock may stop the search (false for infinite/ponder/depth/nodes-only searches).
    pub fn uses_clock(&self) -> bool {
        self.time_left_ms.is_some() || self.move_time_ms.is_some()
    }
}

/// Flags shared between the protocol thread and the search thread.
#[derive(Debug, Default)]
pub struct Signals {
    /// Set to abort the search as soon as possible.
    pub stop: AtomicBool,
    /// True while the search is pondering (no clock until `ponderhit`).
    pub pondering: AtomicBool,
}

impl Signals {
    /// Fresh signals wrapped for sharing.
    pub fn new() -> Arc<Signals> {
        Arc::new(Signals::default())
    }

    /// Ask the search to stop now.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The search clock: start time, soft and hard budgets, node limit, the shared signals and the
/// search's live progress.
#[derive(Debug)]
pub struct SearchClock {
    origin: Instant,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
    limits: Limits,
    signals: Arc<Signals>,
    /// Set once the first iteration has completed: from then on the search may be stopped.
    answer_ready: AtomicBool,
    /// Set while pondering when a search on the clock would not have begun another iteration:
    /// on `ponderhit` the answer is ready.
    stop_on_ponderhit: AtomicBool,
    progress: Progress,
}

impl SearchClock {
    /// Start the clock for a search under `limits`, keeping `overhead_ms` in reserve on a
    /// running clock (not on a fixed move time).
    pub fn start(limits: Limits, overhead_ms: u64, signals: Arc<Signals>) -> SearchClock {
        let (soft_ms, hard_ms) = budget(&limits, overhead_ms);
        signals.pondering.store(limits.ponder, Ordering::SeqCst);
        SearchClock {
            origin: Instant::now(),
            soft_ms,
            hard_ms,
            limits,
            signals,
            answer_ready: AtomicBool::new(false),
            stop_on_ponderhit: AtomicBool::new(false),
            progress: Progress::default(),
        }
    }

    /// The search's live progress (nodes, iteration, root moves).
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// How far the search has come, as of now.
    pub fn progress_report(&self) -> ProgressReport {
        self.progress.report(self.elapsed_ms())
    }

    /// The search has completed an iteration: it has an answer, so it may now be stopped.
    pub fn iteration_completed(&self) {
        self.answer_ready.store(true, Ordering::SeqCst);
    }

    /// The limits this clock was started with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The shared signals.
    pub fn signals(&self) -> &Arc<Signals> {
        &self.signals
    }

    /// Milliseconds since the search started (the `go`, pondering included).
    pub fn elapsed_ms(&self) -> u64 {
        self.origin.elapsed().as_millis().min(u64::MAX as u128) as u64
    }

    /// The opponent played the expected move: the clock runs from now on, and the time spent
    /// pondering counts as time already used.
    pub fn ponderhit(&self) {
        self.signals.pondering.store(false, Ordering::SeqCst);
        let past_share = self
            .soft_ms
            .is_some_and(|soft| !self.limits.infinite && self.elapsed_ms() >= soft);
        if past_share || self.stop_on_ponderhit.load(Ordering::SeqCst) {
            // It pondered for as long as a search on the clock would have thought: what it
            // has is the answer.
            self.signals.request_stop();
        }
    }

    fn clock_running(&self) -> bool {
        !self.limits.infinite && !self.signals.pondering.load(Ordering::Relaxed)
    }

    /// Hard stop check, polled by the search every ~1k nodes. Nothing stops a search before
    /// its first iteration is complete.
    pub fn should_stop(&self, nodes: u64) -> bool {
        if !self.answer_ready.load(Ordering::Relaxed) {
            return false;
        }
        if self.signals.stop_requested() {
            return true;
        }
        if let Some(max_nodes) = self.limits.nodes {
            if nodes >= max_nodes {
                return true;
            }
        }
        if let Some(hard) = self.hard_ms {
            if self.clock_running() && self.elapsed_ms() >= hard {
                return true;
            }
        }
        false
    }

    /// Whether iterative deepening should begin another iteration. `stability` in 0..=4 grows
    /// while the best move stays the same, letting the search stop earlier; `score_drop` (in
    /// centipawns, by how much the last iteration's best score fell below the one before)
    /// lets it go on for longer, up to twice as long for a fall of a pawn or more. The first
    /// iteration always begins, whatever the limits.
    pub fn may_start_iteration(&self, depth: u32, stability: u32, score_drop: i32) -> bool {
        if depth <= 1 {
            return true;
        }
        if self.signals.stop_requested() {
            return false;
        }
        if let Some(max_depth) = self.limits.depth {
            if depth > max_depth {
                return false;
            }
        }
        if let Some(soft) = self.soft_ms {
            if !self.limits.infinite && self.limits.move_time_ms.is_none() {
                // A stable best move needs less confirmation time.
                // The next iteration usually costs more than all previous ones together, so
                // only start it while well inside the soft budget.
                let scaled = fraction(soft, 6 - stability.min(3) as u64, 10);
                let scaled = fraction(scaled, 100 + score_drop.clamp(0, 100) as u64, 100);
                if self.elapsed_ms() >= scaled {
                    if !self.signals.pondering.load(Ordering::SeqCst) {
                        return false;
                    }
                    // Pondering goes on deepening, but a ponderhit from now on answers at once.
                    self.stop_on_ponderhit.store(true, Ordering::SeqCst);
                }
            }
        }
        true
    }

    /// Whether the search result must be held back until `stop`/`ponderhit` (UCI rule for
    /// `go infinite` and `go ponder`).
    pub fn must_wait_for_stop(&self) -> bool {
        self.limits.infinite || self.signals.pondering.load(Ordering::Relaxed)
    }

    /// Block until `stop` or `ponderhit` when the protocol forbids answering early.
    pub fn wait_until_released(&self) {
        while self.must_wait_for_stop() && !self.signals.stop_requested() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// Soft (iteration) and hard (abort) budgets in milliseconds for `limits`: a fixed move time
/// keeps back only [`MOVETIME_REPLY_SLACK_MS`]; a running clock keeps back `overhead_ms`.
pub fn budget(limits: &Limits, overhead_ms: u64) -> (Option<u64>, Option<u64>) {
    if let Some(move_time) = limits.move_time_ms {
        let t = move_time.saturating_sub(MOVETIME_REPLY_SLACK_MS).max(1);
        return (Some(t), Some(t));
    }
    let Some(time_left) = limits.time_left_ms else {
        return (None, None);
    };
    let available = time_left.saturating_sub(overhead_ms).max(1);
    let moves = match limits.moves_to_go {
        Some(n) => n.clamp(1, 50) as u64,
        None => 15,
    };
    // An even share of what is left plus most of the increment; the hard limit never exceeds
    // a small fraction of the remaining time, so no sequence of long moves can lose on time.
    let share = (available / moves).saturating_add(fraction(limits.increment_ms, 3, 4));
    let hard_cap = if limits.moves_to_go == Some(1) {
        fraction(available, 3, 4)
    } else {
        available / 6
    };
    let soft = share.min(hard_cap).max(1);
    let hard = soft.saturating_mul(3).min(hard_cap).max(1);
    (Some(soft), Some(hard))
}

/// `value * numerator / denominator` without overflow, for clocks as large as a GUI may send.
fn fraction(value: u64, numerator: u64, denominator: u64) -> u64 {
    (value as u128 * numerator as u128 / denominator as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_keeps_back_only_the_reply_slack() {
        let limits = Limits {
            move_time_ms: Some(1000),
            ..Limits::default()
        };
        let exact = Some(1000 - MOVETIME_REPLY_SLACK_MS);
        // Move Overhead protects a running clock, not a fixed move time.
        assert_eq!(budget(&limits, 50), (exact, exact));
        assert_eq!(budget(&limits, 0), (exact, exact));
        let clock = Limits {
            time_left_ms: Some(10_000),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        assert!(budget(&clock, 500).1 < budget(&clock, 0).1);
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let limits = Limits {
            time_left_ms: Some(u64::MAX),
            increment_ms: u64::MAX,
            moves_to_go: Some(1),
            ..Limits::default()
        };
        let (soft, hard) = budget(&limits, 0);
        assert!(soft.unwrap() > 1_000_000 && hard.unwrap() >= soft.unwrap());
        let clock = SearchClock::start(limits, 0, Signals::new());
        assert!(clock.may_start_iteration(2, 0, 0));
    }

    #[test]
    fn nothing_stops_the_first_iteration() {
        let limits = Limits {
            time_left_ms: Some(0),
            nodes: Some(1),
            depth: Some(0),
            ..Limits::default()
        };
        let clock = SearchClock::start(limits, 50, Signals::new());
        clock.signals().request_stop();
        std::thread::sleep(Duration::from_millis(3));
        assert!(clock.may_start_iteration(1, 0, 0));
        assert!(!clock.should_stop(1_000_000));
        clock.iteration_completed();
        assert!(clock.should_stop(0));
        assert!(!clock.may_start_iteration(2, 0, 0));
    }

    #[test]
    fn a_falling_score_buys_more_iterations() {
        // 15 s left, no increment: a soft budget of 1 s, so a fresh iteration may begin up to
        // 0.6 s in; a score that fell by a pawn doubles that.
        let limits = Limits {
            time_left_ms: Some(15_000),
            ..Limits::default()
        };
        let clock = SearchClock::start(limits, 0, Signals::new());
        clock.iteration_completed();
        std::thread::sleep(Duration::from_millis(650));
        assert!(!clock.may_start_iteration(5, 0, 0));
        assert!(
            !clock.may_start_iteration(5, 0, -300),
            "a rising score buys nothing"
        );
        assert!(clock.may_start_iteration(5, 0, 100));
        assert!(
            clock.may_start_iteration(5, 0, 5_000),
            "the bonus is capped, not wrapped"
        );
    }

    #[test]
    fn sudden_death_never_plans_beyond_a_sixth() {
        let limits = Limits {
            time_left_ms: Some(3000),
            ..Limits::default()
        };
        let (soft, hard) = budget(&limits, 0);
        assert!(soft.unwrap() <= 500 && hard.unwrap() <= 500);
        assert!(soft.unwrap() >= 50);
    }

    #[test]
    fn increment_adds_time() {
        let base = Limits {
            time_left_ms: Some(60_000),
            ..Limits::default()
        };
        let with_inc = Limits {
            increment_ms: 1000,
            ..base.clone()
        };
        assert!(budget(&with_inc, 0).0 > budget(&base, 0).0);
    }

    #[test]
    fn tiny_clock_still_positive() {
        let limits = Limits {
            time_left_ms: Some(5),
            ..Limits::default()
        };
        let (soft, hard) = budget(&limits, 30);
        assert!(soft.unwrap() >= 1 && hard.unwrap() >= 1);
    }

    #[test]
    fn infinite_has_no_budget() {
        assert_eq!(budget(&Limits::infinite(), 10), (None, None));
    }

    #[test]
    fn ponder_ignores_clock_until_ponderhit() {
        let limits = Limits {
            move_time_ms: Some(1),
            ponder: true,
            ..Limits::default()
        };
        let clock = SearchClock::start(limits, 0, Signals::new());
        clock.iteration_completed();
        std::thread::sleep(Duration::from_millis(5));
        assert!(!clock.should_stop(0));
        // The time spent pondering counts: past the budget, ponderhit stops the search at once.
        clock.ponderhit();
        assert!(clock.should_stop(0));
    }

    #[test]
    fn ponderhit_answers_at_once_when_the_clock_would_not_have_deepened() {
        // A soft budget of 1 s: a fresh iteration may begin up to 0.6 s in.
        let limits = Limits {
            time_left_ms: Some(15_000),
            ponder: true,
            ..Limits::default()
        };
        let clock = SearchClock::start(limits.clone(), 0, Signals::new());
        clock.iteration_completed();
        std::thread::sleep(Duration::from_millis(650));
        assert!(clock.may_start_iteration(5, 0, 0), "pondering goes on");
        clock.ponderhit();
        assert!(clock.should_stop(0));
        // Inside the share, ponderhit lets the search go on.
        let clock = SearchClock::start(limits, 0, Signals::new());
        clock.iteration_completed();
        assert!(clock.may_start_iteration(5, 0, 0));
        clock.ponderhit();
        assert!(!clock.should_stop(0));
    }

    #[test]
    fn node_limit_and_stop_flag() {
        let limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let clock = SearchClock::start(limits, 0, Signals::new());
        clock.iteration_completed();
        assert!(!clock.should_stop(99));
        assert!(clock.should_stop(100));
        let clock = SearchClock::start(Limits::infinite(), 0, Signals::new());
        clock.iteration_completed();
        assert!(!clock.should_stop(0));
        clock.signals().request_stop();
        assert!(clock.should_stop(0));
    }
}
