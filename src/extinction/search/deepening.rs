//! Iterative deepening: aspiration windows, MultiPV, `searchmoves`, the clock's soft limit and
//! the decision when a proven result needs no more depth; and Lazy SMP, helper threads that
//! search the same root at staggered depths over the shared table. What goes into a search
//! ([`SearchOptions`]) and what comes out ([`SearchInfo`] reports, the [`SearchResult`]).

use std::sync::atomic::{AtomicBool, Ordering};

use super::alphabeta::{RootMove, Searcher};
use super::memory::SearchMemory;
use super::movepick::{MoveContext, ScoredMoves};
use super::params::{
    ASPIRATION_GROWTH, ASPIRATION_MAX_WINDOW, ASPIRATION_MIN_DEPTH, ASPIRATION_WINDOW,
};
use super::score::{is_loss, is_win, mate_moves, INFINITE, MATE, MATE_BOUND, MAX_PLY};
use super::timeman::SearchClock;
use super::tt::TranspositionTable;
use crate::extinction::rules::{Game, Move, MoveList, Position};

/// One line of search progress (a UCI `info` line / XBoard thinking line).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based PV index (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What the search hands back when it stops: the best line of the last iteration it completed,
/// the same line its last report showed.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move, or `None` when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// Expected reply, for pondering (the second move of `pv`).
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Deepest ply the best line's iteration reached.
    pub seldepth: u32,
    /// Total nodes.
    pub nodes: u64,
    /// Principal variation of the best move.
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// The result of a completed iteration whose best line is `pv`.
    fn from_line(depth: u32, seldepth: u32, score: i32, pv: Vec<Move>, nodes: u64) -> Self {
        SearchResult {
            best_move: pv.first().copied(),
            ponder_move: pv.get(1).copied(),
            score,
            depth,
            seldepth: seldepth.max(depth),
            nodes,
            pv,
        }
    }

    /// The report of this result's line (the first PV) at `time_ms`.
    fn info(&self, time_ms: u64, hashfull: u32) -> SearchInfo {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth,
            multipv: 1,
            score: self.score,
            nodes: self.nodes,
            time_ms,
            hashfull,
            pv: self.pv.clone(),
        }
    }
}

/// Search configuration beyond the clock.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
        }
    }
}

/// Run a complete search of the game's current position (iterative deepening until the clock
/// says stop), learning into `memory` and calling `report`, if given, after each completed
/// iteration and PV line.
pub fn search(
    game: &Game,
    tt: &TranspositionTable,
    clock: &SearchClock,
    options: &SearchOptions,
    memory: &mut SearchMemory,
    report: Option<&mut dyn FnMut(&SearchInfo)>,
) -> SearchResult {
    tt.new_search();
    let mut searcher = Searcher::new(game, tt, clock, memory);
    searcher.node_sink = Some(clock.progress().node_counter());
    iterative_deepening(&mut searcher, game.position(), options, report, 0)
}

/// Stack size of every thread that runs a search (the recursion keeps move lists on the stack):
/// Lazy SMP helpers here, the engine's search thread and its blocking search for the tools.
pub const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Lazy SMP depth skipping (as in Stockfish 10): helper `i` skips the iterations where
/// `((depth + SKIP_PHASE[i]) / SKIP_SIZE[i])` is odd, so helpers spread over several depths
/// and fill the shared table with results the main thread can use.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

fn helper_skips(thread: usize, depth: u32) -> bool {
    if thread == 0 {
        return false;
    }
    let i = (thread - 1) % SKIP_SIZE.len();
    (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
}

/// [`search`] with one thread per memory, sharing the table (Lazy SMP). The calling thread is
/// the main thread (the first memory): it alone reports, follows the clock and decides; helpers
/// search the same root with staggered depths until the main thread finishes. One memory is
/// exactly [`search`].
pub fn search_threads(
    game: &Game,
    tt: &TranspositionTable,
    clock: &SearchClock,
    options: &SearchOptions,
    memory: &mut [SearchMemory],
    mut report: Option<&mut dyn FnMut(&SearchInfo)>,
) -> SearchResult {
    let Some((main_memory, helper_memory)) = memory.split_first_mut() else {
        return search(
            game,
            tt,
            clock,
            options,
            &mut SearchMemory::default(),
            report,
        );
    };
    if helper_memory.is_empty() {
        return search(game, tt, clock, options, main_memory, report);
    }
    let pos = game.position();
    tt.new_search();
    let stop = AtomicBool::new(false);
    let node_counter = clock.progress().node_counter();
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for (i, thread_memory) in helper_memory.iter_mut().enumerate() {
            let thread = i + 1;
            let stop = &stop;
            let spawned = std::thread::Builder::new()
                .name(format!("search-{thread}"))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(game, tt, clock, thread_memory);
                    searcher.helpers_stop = Some(stop);
                    searcher.node_sink = Some(node_counter);
                    let result = iterative_deepening(&mut searcher, pos, options, None, thread);
                    node_counter.fetch_add(searcher.nodes & 1023, Ordering::Relaxed);
                    result
                });
            match spawned {
                Ok(h) => helpers.push(h),
                Err(e) => log::warn!("cannot start search helper thread: {e}"),
            }
        }
        let mut searcher = Searcher::new(game, tt, clock, main_memory);
        searcher.node_sink = Some(node_counter);
        let main_report = report
            .as_mut()
            .map(|r| &mut **r as &mut dyn FnMut(&SearchInfo));
        let mut main = iterative_deepening(&mut searcher, pos, options, main_report, 0);
        stop.store(true, Ordering::Relaxed);
        let mut adopted_helper = false;
        for h in helpers {
            let Ok(helper) = h.join() else { continue };
            // A helper that completed a deeper iteration with the same or a better score has
            // the more reliable answer (MultiPV keeps the main thread's ordered lines).
            if options.multipv <= 1
                && helper.best_move.is_some()
                && helper.depth > main.depth
                && helper.score >= main.score
            {
                main = helper;
                adopted_helper = true;
            }
        }
        node_counter.fetch_add(searcher.nodes & 1023, Ordering::Relaxed);
        main.nodes = node_counter.load(Ordering::Relaxed);
        if adopted_helper {
            // The answer must be the line last reported: report the helper's line.
            if let Some(report) = report.as_mut() {
                report(&main.info(clock.elapsed_ms(), tt.hashfull()));
            }
        }
        main
    })
}

/// Nodes searched so far by every thread, with the main thread's own count exact: the others
/// have added theirs to the shared counter 1024 at a time, as the main thread has.
fn total_nodes(searcher: &Searcher) -> u64 {
    searcher.node_sink.map_or(searcher.nodes, |counter| {
        counter.load(Ordering::Relaxed) + (searcher.nodes & 1023)
    })
}

/// Iterative deepening of one thread; thread 0 is the main thread (follows the soft time
/// limit, reports, and tells the clock when an iteration completes), others are Lazy SMP
/// helpers. The result is always the best line of the last completed iteration.
fn iterative_deepening(
    searcher: &mut Searcher,
    pos: &Position,
    options: &SearchOptions,
    mut report: Option<&mut dyn FnMut(&SearchInfo)>,
    thread: usize,
) -> SearchResult {
    let clock = searcher.clock;
    let tt = searcher.tt;
    let mut list = MoveList::new();
    if !pos.is_finished() {
        pos.generate_moves(&mut list);
    }
    let hash_move = tt
        .probe(pos.key())
        .map_or(Move::NULL, |h| Move::from_u16(h.packed_move));
    let mut ordered = ScoredMoves::for_search(
        pos,
        &list,
        hash_move,
        &[Move::NULL; 2],
        &searcher.memory.history,
        MoveContext::default(),
    );
    let mut root_moves: Vec<RootMove> = Vec::new();
    while let Some((m, _)) = ordered.next_best() {
        if options.searchmoves.is_empty() || options.searchmoves.contains(&m) {
            root_moves.push(RootMove {
                mv: m,
                score: -INFINITE,
                previous_score: -INFINITE,
                seldepth: 0,
                pv: vec![m],
            });
        }
    }
    if root_moves.is_empty() {
        if thread == 0 {
            clock.iteration_completed();
        }
        return SearchResult::default();
    }
    let multipv = options.multipv.clamp(1, root_moves.len());
    // The best line of the last completed iteration: the answer, and what was last reported.
    let mut completed: Option<SearchResult> = None;
    let mut last_best = root_moves[0].mv;
    let mut stability = 0u32;
    // How far the best score fell in the last iteration (positive: it fell).
    let mut score_drop = 0i32;
    let mut last_best_score: Option<i32> = None;
    let mut depth = 1u32;
    let max_depth = clock
        .limits()
        .depth
        .unwrap_or(MAX_PLY as u32 - 4)
        .clamp(1, MAX_PLY as u32 - 4);

    while depth <= max_depth
        && if thread == 0 {
            clock.may_start_iteration(depth, stability, score_drop)
        } else {
            !searcher.stopped
                && !searcher
                    .helpers_stop
                    .is_some_and(|s| s.load(Ordering::Relaxed))
        }
    {
        if helper_skips(thread, depth) && depth > 1 {
            depth += 1;
            continue;
        }
        if thread == 0 {
            clock.progress().begin_iteration(depth, root_moves.len());
        }
        searcher.root_depth = depth as i32;
        for rm in root_moves.iter_mut() {
            rm.previous_score = rm.score;
        }
        for pv_index in 0..multipv {
            let previous = root_moves[pv_index].previous_score;
            // Aspiration window: search around the previous score, widening on failure.
            let mut delta = ASPIRATION_WINDOW;
            let (mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH && previous.abs() < MATE_BOUND {
                    (
                        (previous - delta).max(-INFINITE),
                        (previous + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
            loop {
                let score =
                    searcher.search_root(&mut root_moves, pv_index, depth as i32, alpha, beta);
                root_moves[pv_index..].sort_by(|a, b| {
                    b.score
                        .cmp(&a.score)
                        .then(b.previous_score.cmp(&a.previous_score))
                });
                if searcher.stopped {
                    break;
                }
                if score <= alpha && alpha > -INFINITE {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITE);
                } else if score >= beta && beta < INFINITE {
                    beta = (score + delta).min(INFINITE);
                } else {
                    break;
                }
                delta += delta / 2 + ASPIRATION_GROWTH;
                if delta > ASPIRATION_MAX_WINDOW {
                    alpha = -INFINITE;
                    beta = INFINITE;
                }
            }
            root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if searcher.stopped {
                break;
            }
        }
        if searcher.stopped {
            // An unfinished iteration is dropped whole: its scores and lines are half-proved,
            // and the answer must be the line last reported.
            break;
        }
        let best = &root_moves[0];
        completed = Some(SearchResult::from_line(
            depth,
            best.seldepth,
            best.score,
            best.pv.clone(),
            searcher.nodes,
        ));
        if thread == 0 {
            clock.iteration_completed();
        }
        if let Some(report) = report.as_mut() {
            let nodes = total_nodes(searcher);
            for (i, rm) in root_moves.iter().take(multipv).enumerate() {
                report(&SearchInfo {
                    depth,
                    seldepth: rm.seldepth.max(depth),
                    multipv: i + 1,
                    score: rm.score,
                    nodes,
                    time_ms: clock.elapsed_ms(),
                    hashfull: tt.hashfull(),
                    pv: rm.pv.clone(),
                });
            }
        }
        if root_moves[0].mv == last_best {
            stability = (stability + 1).min(4);
        } else {
            stability = 0;
            last_best = root_moves[0].mv;
        }
        let best_score = root_moves[0].score;
        score_drop = match last_best_score {
            Some(before) if before.abs() < MATE_BOUND && best_score.abs() < MATE_BOUND => {
                before - best_score
            }
            _ => 0,
        };
        last_best_score = Some(best_score);
        if let Some(mate) = clock.limits().mate {
            if is_win(best_score) && mate_moves(best_score).unwrap_or(i32::MAX) <= mate as i32 {
                break;
            }
        }
        // A proven result cannot change with more depth once the win/loss is well inside it.
        if (is_win(best_score) || is_loss(best_score))
            && MATE - best_score.abs() < depth as i32
            && multipv == 1
        {
            break;
        }
        depth += 1;
    }
    let mut result = completed.unwrap_or_else(|| {
        // Only a helper stopped inside its first iteration gets here (the main thread's first
        // iteration cannot be stopped); its answer is never preferred to the main thread's.
        SearchResult::from_line(0, 0, -INFINITE, vec![root_moves[0].mv], 0)
    });
    result.nodes = searcher.nodes;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::search::memory;
    use crate::extinction::search::timeman::{Limits, Signals};

    fn run(fen: &str, depth: u32, threads: usize) -> SearchResult {
        let game = Game::new(Position::from_fen(fen).expect("fen"));
        let tt = TranspositionTable::new(8);
        let clock = SearchClock::start(Limits::depth(depth), 0, Signals::new());
        search_threads(
            &game,
            &tt,
            &clock,
            &SearchOptions::default(),
            &mut memory::fresh(threads),
            None,
        )
    }

    /// White's only queen stands on d4, attacked by e5xd4, and losing it loses the game.
    const QUEEN_EN_PRISE: &str = "rnbqkbnr/ppp2ppp/3p4/4p3/3Q4/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";

    /// Search `fen` under `limits`; also returns every report.
    fn search_with(fen: &str, limits: Limits, stop_first: bool) -> (SearchResult, Vec<SearchInfo>) {
        let game = Game::new(Position::from_fen(fen).expect("fen"));
        let tt = TranspositionTable::new(8);
        let clock = SearchClock::start(limits, 50, Signals::new());
        if stop_first {
            clock.signals().request_stop();
        }
        let mut reports = Vec::new();
        let mut report = |info: &SearchInfo| reports.push(info.clone());
        let result = search(
            &game,
            &tt,
            &clock,
            &SearchOptions::default(),
            &mut SearchMemory::default(),
            Some(&mut report),
        );
        (result, reports)
    }

    /// Whether the side to move loses on the spot after `m`, whatever it answers next.
    fn loses_at_once(fen: &str, m: Move) -> bool {
        let mut after = Position::from_fen(fen).expect("fen");
        after.do_move(m);
        let mut replies = MoveList::new();
        after.generate_moves(&mut replies);
        replies
            .iter()
            .any(|&reply| after.winner_after(reply) == Some(after.turn()))
    }

    #[test]
    fn a_fork_of_two_last_pieces_is_a_win_in_two() {
        // Nc7 attacks Black's only king (e8) and only rook (a8), and nothing of Black's covers
        // c7: every Black reply hands over one of them, each such reply scored without a node.
        let fen = "rnb1kbn1/pp1ppppp/8/1N5q/8/8/PPPPPPPP/R1BQKBNR w KQq - 0 1";
        let result = run(fen, 5, 1);
        assert_eq!(mate_moves(result.score), Some(2), "score {}", result.score);
        let best = result.best_move.expect("a move");
        assert_eq!(crate::extinction::rules::notation::uci(best), "b5c7");
    }

    #[test]
    fn the_smallest_budgets_still_search_depth_one() {
        let budgets = [
            Limits {
                time_left_ms: Some(100),
                ..Limits::default()
            },
            Limits {
                time_left_ms: Some(0),
                ..Limits::default()
            },
            Limits {
                move_time_ms: Some(0),
                ..Limits::default()
            },
            Limits::depth(0),
            Limits {
                nodes: Some(1),
                ..Limits::default()
            },
        ];
        for (limits, stop_first) in budgets
            .iter()
            .map(|l| (l.clone(), false))
            .chain([(Limits::infinite(), true)])
        {
            let (result, reports) = search_with(QUEEN_EN_PRISE, limits.clone(), stop_first);
            let best = result.best_move.expect("a move");
            assert!(result.depth >= 1, "{limits:?}: depth {}", result.depth);
            assert!(result.nodes > 0 && !reports.is_empty(), "{limits:?}");
            assert!(
                !loses_at_once(QUEEN_EN_PRISE, best),
                "{limits:?}: {best} leaves the queen to exd4"
            );
            assert!(
                result.score.abs() < MATE_BOUND,
                "{limits:?}: {}",
                result.score
            );
        }
    }

    #[test]
    fn the_answer_is_the_line_last_reported() {
        // Node limits stop the search at every point of an iteration in turn; whatever the
        // point, the answer (move, reply, score, depth) is the last report's line.
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            QUEEN_EN_PRISE,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        for fen in fens {
            for nodes in (1..=40).map(|i| i * 1024 + 1) {
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let (result, reports) = search_with(fen, limits, false);
                let last = reports.last().expect("a report");
                let context = format!("{fen} nodes {nodes}");
                assert_eq!(result.pv, last.pv, "{context}");
                assert_eq!(result.best_move, last.pv.first().copied(), "{context}");
                assert_eq!(result.ponder_move, last.pv.get(1).copied(), "{context}");
                assert_eq!(result.score, last.score, "{context}");
                assert_eq!(result.depth, last.depth, "{context}");
            }
        }
    }

    #[test]
    fn lazy_smp_finds_the_same_forced_win() {
        // Nxc7 forks Black's only king and only rook (no castling): a type dies next move.
        let fen = "r3kbn1/pppbpppp/2n5/1N6/7q/8/PPPPPPPP/R1BQKB1R w KQ - 0 1";
        let single = run(fen, 4, 1);
        let double = run(fen, 4, 2);
        assert!(is_win(single.score), "single-thread score {}", single.score);
        assert!(is_win(double.score), "two-thread score {}", double.score);
        assert_eq!(single.best_move, double.best_move);
        assert!(double.depth >= 4);
    }

    #[test]
    fn lazy_smp_counts_every_thread_and_stops() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let game = Game::new(Position::from_fen(start).expect("fen"));
        let tt = TranspositionTable::new(8);
        let clock = SearchClock::start(Limits::infinite(), 0, Signals::new());
        let options = SearchOptions::default();
        let mut main_nodes = 0;
        let result = std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, || {
                    let mut report = |info: &SearchInfo| main_nodes = info.nodes;
                    search_threads(
                        &game,
                        &tt,
                        &clock,
                        &options,
                        &mut memory::fresh(3),
                        Some(&mut report),
                    )
                })
                .expect("spawn");
            std::thread::sleep(std::time::Duration::from_millis(300));
            clock.signals().request_stop();
            handle.join().expect("join")
        });
        assert!(result.best_move.is_some());
        assert!(result.nodes >= main_nodes);
        assert!(result.depth >= 1);
    }
}
