//! Search: iterative deepening, aspiration windows, PVS alpha-beta with a transposition table,
//! null-move pruning, late-move reductions, and a quiescence search over captures/promotions.
//!
//! Extinctions are mate scores: `MATE - ply` for a win reached `ply` half-moves from the root,
//! so the shortest win is preferred. Repetitions and the fifty-move rule score as draws.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Role;

use super::eval::evaluate;
use super::movepick::{is_quiet, wins_by_extinction, History, ScoredMoves};
use super::rules::position::Position;
use super::rules::threats::{can_capture_last_piece, threatened_last_pieces};
use super::rules::types::{Move, MoveList};
use super::timeman::SearchClock;
use super::tt::{Bound, TranspositionTable, TtHit};

/// Score of a win on the spot (`MATE - ply` is a win `ply` half-moves away).
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_500;
/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in absolute value) are forced wins/losses.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// Whether `score` is a forced win for the side it belongs to.
pub fn is_win(score: i32) -> bool {
    score >= MATE_BOUND
}

/// Whether `score` is a forced loss.
pub fn is_loss(score: i32) -> bool {
    score <= -MATE_BOUND
}

/// Moves (not plies) to the end of the game for a mate score: positive when winning.
pub fn mate_moves(score: i32) -> Option<i32> {
    if is_win(score) {
        Some((MATE - score + 1) / 2)
    } else if is_loss(score) {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if is_win(score) {
        score + ply as i32
    } else if is_loss(score) {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if is_win(s) {
        s - ply as i32
    } else if is_loss(s) {
        s + ply as i32
    } else {
        s
    }
}

/// Kind of bound a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// Exact score.
    Exact,
    /// Score is at least this (fail high).
    Lower,
    /// Score is at most this (fail low).
    Upper,
}

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
    /// Whether `score` is exact or a bound.
    pub bound: ScoreBound,
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

/// What the search hands back when it stops.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Best move, or `None` when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder_move: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Total nodes.
    pub nodes: u64,
    /// Principal variation of the best move.
    pub pv: Vec<Move>,
}

/// Search configuration beyond the clock.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Print/report progress at all (analysis and `post`).
    pub report: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            searchmoves: Vec::new(),
            report: true,
        }
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    previous_score: i32,
    bound: ScoreBound,
    seldepth: u32,
    pv: Vec<Move>,
}

/// Late-move reduction table, indexed by depth and move number (both capped at 63).
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
        }
    }
    t
}

/// The search state of one thread.
pub struct Searcher<'a> {
    pos: Position,
    tt: &'a TranspositionTable,
    clock: &'a SearchClock,
    /// Keys of the game so far and of the current search path, current position last.
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: History,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    lmr: Box<[[u8; 64]; 64]>,
    /// Set by the main thread when it finishes, so Lazy SMP helpers stop with it.
    helpers_stop: Option<&'a AtomicBool>,
    /// Where a helper adds its node count (in steps of 1024) for the main thread's reports.
    node_sink: Option<&'a AtomicU64>,
}

impl<'a> Searcher<'a> {
    /// A searcher for `pos`; `history_keys` are the keys of the earlier game positions (oldest
    /// first, the current position may be included last or not).
    pub fn new(
        pos: &Position,
        history_keys: &[u64],
        tt: &'a TranspositionTable,
        clock: &'a SearchClock,
    ) -> Self {
        let mut keys: Vec<u64> = history_keys.to_vec();
        if keys.last() != Some(&pos.key()) {
            keys.push(pos.key());
        }
        Searcher {
            pos: pos.clone(),
            tt,
            clock,
            keys,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: History::default(),
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            lmr: lmr_table(),
            helpers_stop: None,
            node_sink: None,
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn check_time(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        if let Some(sink) = self.node_sink {
            sink.fetch_add(1024, Ordering::Relaxed);
        }
        if self.clock.should_stop(self.nodes)
            || self.helpers_stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
    }

    fn push_move(&mut self, m: Move) -> super::rules::position::Undo {
        let undo = self.pos.do_move(m);
        self.keys.push(self.pos.key());
        undo
    }

    fn pop_move(&mut self, m: Move, undo: super::rules::position::Undo) {
        self.keys.pop();
        self.pos.undo_move(m, undo);
    }

    /// Draw by fifty-move rule or by repetition (one repetition suffices inside the search).
    fn is_draw(&self) -> bool {
        let clock = self.pos.halfmove_clock() as usize;
        if clock >= 100 {
            return true;
        }
        let n = self.keys.len();
        let key = self.pos.key();
        let window = clock.min(n - 1);
        let mut back = 4;
        while back <= window {
            if self.keys[n - 1 - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Score of a position whose game is over by extinction, from the side to move's view.
    fn extinction_score(&self, ply: usize) -> Option<i32> {
        if !self.pos.is_finished() {
            return None;
        }
        let outcome = self.pos.extinction_outcome()?;
        Some(match outcome.winner {
            Some(c) if c == self.pos.turn() => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        })
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Score of a position where the side to move captures a last-of-type piece, recording
    /// that capture as the principal variation's last move.
    fn win_now(&mut self, ply: usize) -> i32 {
        let mut list = MoveList::new();
        self.pos.generate_captures(&mut list);
        if let Some(&m) = list.iter().find(|&&m| wins_by_extinction(&self.pos, m)) {
            self.pv[ply][ply] = m;
            self.pv_len[ply] = ply + 1;
        }
        MATE - (ply as i32 + 1)
    }

    fn has_pieces_beyond_pawns(&self) -> bool {
        let us = self.pos.by_color(self.pos.turn());
        (us & !self.pos.by_role(Role::Pawn) & !self.pos.by_role(Role::King)).any()
    }

    /// Quiescence search: captures and promotions; full moves at the first level when one of
    /// our last-of-type pieces is attacked (the analogue of check evasion).
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        self.nodes += 1;
        self.check_time();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.extinction_score(ply) {
            return s;
        }
        if can_capture_last_piece(&self.pos) {
            return self.win_now(ply);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos);
        }
        let us = self.pos.turn();
        let evading = qdepth == 0 && threatened_last_pieces(&self.pos, us).any();
        let mut list = MoveList::new();
        let mut best;
        if evading {
            self.pos.generate_moves(&mut list);
            if list.is_empty() {
                return 0;
            }
            best = -INFINITE;
        } else {
            let stand_pat = evaluate(&self.pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            self.pos.generate_captures(&mut list);
        }
        let mut moves = if evading {
            ScoredMoves::for_search(
                &self.pos,
                &list,
                Move::NULL,
                &self.killers[ply],
                &self.history,
            )
        } else {
            ScoredMoves::for_quiescence(&self.pos, &list)
        };
        while let Some((m, _)) = moves.next_best() {
            if !evading && super::see::see(&self.pos, m) < 0 {
                continue;
            }
            let undo = self.push_move(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qdepth + 1);
            self.pop_move(m, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Principal variation search at an interior node.
    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        allow_null: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.check_time();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if let Some(s) = self.extinction_score(ply) {
            return s;
        }
        if self.is_draw() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(&self.pos);
        }
        // Mate distance pruning: no line from here can beat a shorter win already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if can_capture_last_piece(&self.pos) {
            return self.win_now(ply);
        }

        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let hash_move = hit.map_or(Move::NULL, |h| Move::from_u16(h.packed_move));
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            if !pv_node
                && h.depth as i32 >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                }
            {
                return s;
            }
        }
        let static_eval = match hit {
            Some(h) if h.bound != Bound::None || h.eval != 0 => h.eval as i32,
            _ => evaluate(&self.pos),
        };
        let us = self.pos.turn();
        let in_danger = threatened_last_pieces(&self.pos, us).any();

        if !pv_node && !in_danger && !is_win(beta.abs()) {
            // Reverse futility: far above beta at shallow depth.
            if depth <= 6 && static_eval - 90 * depth >= beta {
                return static_eval;
            }
            // Null move: give the opponent a free move; if we still beat beta, cut.
            if allow_null && depth >= 3 && static_eval >= beta && self.has_pieces_beyond_pawns() {
                let r = 3 + depth / 4;
                let undo = self.pos.do_null_move();
                self.keys.push(self.pos.key());
                let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                self.keys.pop();
                self.pos.undo_null_move(undo);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if is_win(score) { beta } else { score };
                }
            }
        }

        let mut list = MoveList::new();
        self.pos.generate_moves(&mut list);
        if list.is_empty() {
            return 0; // stalemate
        }
        let extension = i32::from(in_danger && (ply as i32) < 2 * self.root_depth);
        let mut moves = ScoredMoves::for_search(
            &self.pos,
            &list,
            hash_move,
            &self.killers[ply],
            &self.history,
        );
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut quiet_count = 0usize;

        while let Some((m, order_score)) = moves.next_best() {
            let quiet = is_quiet(&self.pos, m);
            if !pv_node && !in_danger && quiet && searched > 0 && !is_loss(best) {
                if depth <= 3 && searched >= 4 + 2 * (depth * depth) as usize {
                    continue;
                }
                if depth <= 3 && static_eval + 120 * depth <= alpha {
                    continue;
                }
            }
            let undo = self.push_move(m);
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 3 && quiet && !in_danger {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if order_score >= 7_000_000 {
                        r -= 1; // killers
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.negamax(new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.pop_move(m, undo);
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let bonus = (depth * depth * 16).min(4096);
                            self.history.update(us, m, bonus);
                            for &q in &quiets_tried[..quiet_count] {
                                self.history.update(us, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        if searched == 0 {
            // Everything pruned: fall back to the static view.
            return static_eval.min(beta);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            TtHit {
                packed_move: best_move.to_u16(),
                score: score_to_tt(best, ply),
                eval: static_eval.clamp(-MATE, MATE) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// Search every root move from `first` on with window (alpha, beta); returns the best score.
    #[allow(clippy::needless_range_loop)] // root_moves is re-borrowed mutably after each search
    fn search_root(
        &mut self,
        root_moves: &mut [RootMove],
        first: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        for rm in root_moves[first + 1..].iter_mut() {
            rm.score = -INFINITE;
        }
        for i in first..root_moves.len() {
            let m = root_moves[i].mv;
            self.seldepth = 0;
            let undo = self.push_move(m);
            let score = if i == first {
                -self.negamax(depth - 1, -beta, -alpha, 1, true, true)
            } else {
                let mut s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false, true);
                if s > alpha && s < beta {
                    s = -self.negamax(depth - 1, -beta, -alpha, 1, true, true);
                }
                s
            };
            self.pop_move(m, undo);
            if self.stopped {
                break;
            }
            let rm = &mut root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth as u32;
                rm.bound = if score >= beta {
                    ScoreBound::Lower
                } else if score <= alpha {
                    ScoreBound::Upper
                } else {
                    ScoreBound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1].max(1);
                rm.pv.extend_from_slice(&self.pv[1][1..len]);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Run a complete search of `pos` (iterative deepening until the clock says stop), calling
/// `report` after each completed iteration and PV line. `history_keys`: keys of the earlier
/// positions of the game (oldest first).
pub fn search(
    pos: &Position,
    history_keys: &[u64],
    tt: &TranspositionTable,
    clock: &SearchClock,
    options: &SearchOptions,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    tt.new_search();
    let mut searcher = Searcher::new(pos, history_keys, tt, clock);
    iterative_deepening(&mut searcher, pos, options, report, 0, None)
}

/// Stack size of a Lazy SMP helper thread (the recursion keeps move lists on the stack).
const HELPER_STACK_BYTES: usize = 64 * 1024 * 1024;

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

/// [`search`] with `threads` threads sharing the table (Lazy SMP). The calling thread is the
/// main thread: it alone reports, follows the clock and decides; helpers search the same root
/// with staggered depths until the main thread finishes. `threads <= 1` is exactly [`search`].
pub fn search_threads(
    pos: &Position,
    history_keys: &[u64],
    tt: &TranspositionTable,
    clock: &SearchClock,
    options: &SearchOptions,
    threads: usize,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    if threads <= 1 {
        return search(pos, history_keys, tt, clock, options, report);
    }
    tt.new_search();
    let stop = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for thread in 1..threads {
            let (stop, helper_nodes) = (&stop, &helper_nodes);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{thread}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(pos, history_keys, tt, clock);
                    searcher.helpers_stop = Some(stop);
                    searcher.node_sink = Some(helper_nodes);
                    let helper_options = SearchOptions {
                        report: false,
                        ..options.clone()
                    };
                    let result = iterative_deepening(
                        &mut searcher,
                        pos,
                        &helper_options,
                        &mut |_| {},
                        thread,
                        None,
                    );
                    helper_nodes.fetch_add(searcher.nodes & 1023, Ordering::Relaxed);
                    result
                });
            match spawned {
                Ok(h) => helpers.push(h),
                Err(e) => log::warn!("cannot start search helper thread: {e}"),
            }
        }
        let mut searcher = Searcher::new(pos, history_keys, tt, clock);
        let mut main =
            iterative_deepening(&mut searcher, pos, options, report, 0, Some(&helper_nodes));
        stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let Ok(helper) = h.join() else { continue };
            // A helper that completed a deeper iteration with the same or a better score has
            // the more reliable answer (MultiPV keeps the main thread's ordered lines).
            if options.multipv <= 1
                && helper.best_move.is_some()
                && helper.depth > main.depth
                && helper.score >= main.score
            {
                main = SearchResult {
                    nodes: main.nodes,
                    ..helper
                };
            }
        }
        main.nodes = searcher.nodes + helper_nodes.load(Ordering::Relaxed);
        main
    })
}

/// Iterative deepening of one thread; thread 0 is the main thread (follows the soft time
/// limit and reports), others are Lazy SMP helpers. `helper_nodes` (main thread only) adds
/// the helpers' node counts to reported totals.
fn iterative_deepening(
    searcher: &mut Searcher,
    pos: &Position,
    options: &SearchOptions,
    report: &mut dyn FnMut(&SearchInfo),
    thread: usize,
    helper_nodes: Option<&AtomicU64>,
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
    let mut ordered =
        ScoredMoves::for_search(pos, &list, hash_move, &[Move::NULL; 2], &searcher.history);
    let mut root_moves: Vec<RootMove> = Vec::new();
    while let Some((m, _)) = ordered.next_best() {
        if options.searchmoves.is_empty() || options.searchmoves.contains(&m) {
            root_moves.push(RootMove {
                mv: m,
                score: -INFINITE,
                previous_score: -INFINITE,
                bound: ScoreBound::Exact,
                seldepth: 0,
                pv: vec![m],
            });
        }
    }
    if root_moves.is_empty() {
        return SearchResult {
            best_move: None,
            ..SearchResult::default()
        };
    }
    let multipv = options.multipv.clamp(1, root_moves.len());
    let mut completed_depth = 0u32;
    let mut last_best = root_moves[0].mv;
    let mut stability = 0u32;
    let mut depth = 1u32;
    let max_depth = clock
        .limits()
        .depth
        .unwrap_or(MAX_PLY as u32 - 4)
        .clamp(1, MAX_PLY as u32 - 4);

    while depth <= max_depth
        && if thread == 0 {
            clock.may_start_iteration(depth, stability)
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
        searcher.root_depth = depth as i32;
        for rm in root_moves.iter_mut() {
            rm.previous_score = rm.score;
        }
        for pv_index in 0..multipv {
            let previous = root_moves[pv_index].previous_score;
            let mut delta = 30;
            let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
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
                delta += delta / 2 + 10;
                if delta > 1000 {
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
            // A partially searched iteration still counts if its best move was fully searched
            // and beat the previous best (root moves are re-sorted by proven scores above).
            break;
        }
        completed_depth = depth;
        if options.report {
            for (i, rm) in root_moves.iter().take(multipv).enumerate() {
                report(&SearchInfo {
                    depth,
                    seldepth: rm.seldepth.max(depth),
                    multipv: i + 1,
                    score: rm.score,
                    bound: ScoreBound::Exact,
                    nodes: searcher.nodes + helper_nodes.map_or(0, |n| n.load(Ordering::Relaxed)),
                    time_ms: clock.total_elapsed_ms(),
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
    if completed_depth == 0 {
        // Stopped before depth 1 finished: still answer with the best-ordered move.
        root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }
    let best = &root_moves[0];
    SearchResult {
        best_move: Some(best.mv),
        ponder_move: best.pv.get(1).copied(),
        score: best.score,
        depth: completed_depth,
        nodes: searcher.nodes,
        pv: best.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::timeman::{Limits, Signals};

    fn run(fen: &str, depth: u32, threads: usize) -> SearchResult {
        let pos = Position::from_fen(fen).expect("fen");
        let tt = TranspositionTable::new(8);
        let clock = SearchClock::start(Limits::depth(depth), 0, Signals::new());
        let options = SearchOptions {
            report: false,
            ..SearchOptions::default()
        };
        search_threads(&pos, &[], &tt, &clock, &options, threads, &mut |_| {})
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
        let pos = Position::from_fen(start).expect("fen");
        let tt = TranspositionTable::new(8);
        let clock = SearchClock::start(Limits::infinite(), 0, Signals::new());
        let options = SearchOptions {
            report: false,
            ..SearchOptions::default()
        };
        let mut main_nodes = 0;
        let result = std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, || {
                    search_threads(&pos, &[], &tt, &clock, &options, 3, &mut |info| {
                        main_nodes = info.nodes
                    })
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
