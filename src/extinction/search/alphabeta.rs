//! The tree search of one thread: principal variation search with a transposition table,
//! null-move pruning, reverse futility, late-move reductions and pruning, mate distance
//! pruning, and a quiescence search over captures and promotions that searches every move
//! when one of our last-of-type pieces is attacked (the analogue of a check evasion). A move
//! that leaves the opponent a capture of one of our last pieces is scored as the loss without
//! a node of its own, as a chess engine skips illegal moves.
//!
//! Each pruning, reduction and extension step is labelled where it happens; their margins and
//! depths are in `params.rs`. Repetitions and the fifty-move rule score as draws; see
//! `score.rs` for mate scores.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Role;

use super::memory::SearchMemory;
use super::movepick::{continuation_key, MoveContext, ScoredMoves, MIN_KILLER_SCORE};
use super::params::*;
use super::score::{
    is_loss, is_win, score_from_tt, score_to_tt, INFINITE, MATE, MATE_BOUND, MAX_PLY,
};
use super::see::see;
use super::timeman::SearchClock;
use super::tt::{Bound, TranspositionTable, TtHit};
use crate::extinction::eval::evaluate;
use crate::extinction::eval::nnue::{Accumulator, Network, PieceBoards, NETWORK};
use crate::extinction::rules::move_kind::{is_quiet, wins_by_extinction};
use crate::extinction::rules::threats::{
    attacks_from_destination, can_capture_last_piece, last_of_type, threatened_last_pieces,
};
use crate::extinction::rules::{Game, Move, MoveList, Position, Undo};

/// Score of a move at `ply` after which the opponent captures one of our last-of-type pieces:
/// what the child node would return (a win on its first move), seen from our side.
fn loss_after_reply(ply: usize) -> i32 {
    -(MATE - ply as i32 - 2)
}

#[derive(Clone)]
/// A root move with its scores from this and the previous iteration and its PV.
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) previous_score: i32,
    pub(super) seldepth: u32,
    pub(super) pv: Vec<Move>,
}

/// Late-move reduction table, indexed by depth and move number (both capped at 63).
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (LMR_BASE + (d as f64).ln() * (n as f64).ln() / LMR_DIVISOR) as u8;
        }
    }
    t
}

/// The search state of one thread.
pub struct Searcher<'a> {
    pub(super) pos: Position,
    pub(super) tt: &'a TranspositionTable,
    pub(super) clock: &'a SearchClock,
    /// Keys of the game so far and of the current search path, current position last.
    pub(super) keys: Vec<u64>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) root_depth: i32,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// The thread's histories and evaluation correction, kept from move to move.
    pub(super) memory: &'a mut SearchMemory,
    /// Continuation key of the move played at each ply of the current path (`None`: null move).
    played: [Option<usize>; MAX_PLY + 2],
    /// Static evaluation at each ply of the current path (`None` where a last piece was attacked).
    evals: [Option<i32>; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply (`Move::NULL`: none).
    excluded: [Move; MAX_PLY + 2],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    lmr: Box<[[u8; 64]; 64]>,
    /// The evaluation network and its hidden layer at each ply of the current path (the
    /// current position's at `accumulator_top`).
    net: &'static Network,
    accumulators: Vec<Accumulator>,
    accumulator_top: usize,
    /// Set by the main thread when it finishes, so Lazy SMP helpers stop with it.
    pub(super) helpers_stop: Option<&'a AtomicBool>,
    /// Where a helper adds its node count (in steps of 1024) for the main thread's reports.
    pub(super) node_sink: Option<&'a AtomicU64>,
}

impl<'a> Searcher<'a> {
    /// A searcher for the current position of `game`, which also supplies the keys of the
    /// earlier positions for repetition checks, learning into `memory`.
    pub fn new(
        game: &Game,
        tt: &'a TranspositionTable,
        clock: &'a SearchClock,
        memory: &'a mut SearchMemory,
    ) -> Self {
        let net: &'static Network = &NETWORK;
        let root = net.refresh(game.position());
        Searcher {
            net,
            accumulators: vec![root; MAX_PLY + 3],
            accumulator_top: 0,
            keys: game.keys().to_vec(),
            pos: game.position().clone(),
            tt,
            clock,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            memory,
            played: [None; MAX_PLY + 2],
            evals: [None; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
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

    pub(super) fn push_move(&mut self, m: Move, ply: usize) -> Undo {
        self.played[ply] = Some(continuation_key(&self.pos, m));
        let before = PieceBoards::of(&self.pos);
        let undo = self.pos.do_move(m);
        self.keys.push(self.pos.key());
        let top = self.accumulator_top;
        let (done, next) = self.accumulators.split_at_mut(top + 1);
        self.net.update_into(
            &done[top],
            &mut next[0],
            &before,
            &PieceBoards::of(&self.pos),
        );
        self.accumulator_top = top + 1;
        undo
    }

    fn pop_move(&mut self, m: Move, undo: Undo) {
        self.accumulator_top -= 1;
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

    /// Count the node, poll the clock and open its PV; `Some(score)` when the node needs no
    /// search: the search was stopped (the score is then unused) or the game is already over.
    fn enter_node(&mut self, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_time();
        if self.stopped {
            return Some(0);
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        self.extinction_score(ply)
    }

    /// The moves before `ply` as the continuation history sees them.
    fn context(&self, ply: usize) -> MoveContext {
        MoveContext {
            previous: if ply >= 1 { self.played[ply - 1] } else { None },
            before: if ply >= 2 { self.played[ply - 2] } else { None },
        }
    }

    /// The moves of `list` in the main search's order at `ply`.
    fn ordered_moves(&self, list: &MoveList, hash_move: Move, ply: usize) -> ScoredMoves {
        ScoredMoves::for_search(
            &self.pos,
            list,
            hash_move,
            &self.killers[ply],
            &self.memory.history,
            self.context(ply),
        )
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

    /// Whether the move just made leaves the opponent a capture of one of our last-of-type
    /// pieces (a game that is already over is left to the child node to score).
    fn hangs_last_piece(&self) -> bool {
        !self.pos.is_finished() && can_capture_last_piece(&self.pos)
    }

    /// Make `m`, unless it hands the opponent one of our last pieces: then it is taken back at
    /// once, `best` rises to that loss and `handover` keeps the first such move (for the PV).
    fn make_unless_handover(
        &mut self,
        m: Move,
        ply: usize,
        best: &mut i32,
        handover: &mut Move,
    ) -> Option<Undo> {
        let undo = self.push_move(m, ply);
        if !self.hangs_last_piece() {
            return Some(undo);
        }
        self.pop_move(m, undo);
        if *handover == Move::NULL {
            *handover = m;
        }
        *best = (*best).max(loss_after_reply(ply));
        None
    }

    fn has_pieces_beyond_pawns(&self) -> bool {
        let us = self.pos.by_color(self.pos.turn());
        (us & !self.pos.by_role(Role::Pawn) & !self.pos.by_role(Role::King)).any()
    }

    /// Quiescence search: captures and promotions; full moves at the first level when one of
    /// our last-of-type pieces is attacked (the analogue of check evasion).
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        if let Some(s) = self.enter_node(ply) {
            return s;
        }
        if can_capture_last_piece(&self.pos) {
            return self.win_now(ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let mut hash_move = Move::NULL;
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            if match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            } {
                return s;
            }
            hash_move = Move::from_u16(h.packed_move);
        }
        let original_alpha = alpha;
        let us = self.pos.turn();
        let evading = qdepth == 0 && threatened_last_pieces(&self.pos, us).any();
        let mut list = MoveList::new();
        let mut best;
        let mut raw_eval = 0;
        if evading {
            self.pos.generate_moves(&mut list);
            if list.is_empty() {
                return 0;
            }
            best = -INFINITE;
        } else {
            raw_eval = self.raw_eval(hit);
            let static_eval = self.memory.correction.corrected(&self.pos, raw_eval);
            if static_eval >= beta {
                if hit.is_none() {
                    self.store(key, Move::NULL, static_eval, raw_eval, 0, Bound::Lower, ply);
                }
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            best = static_eval;
            self.pos.generate_captures(&mut list);
        }
        let mut moves = if evading {
            self.ordered_moves(&list, hash_move, ply)
        } else {
            ScoredMoves::for_quiescence(&self.pos, &list, hash_move)
        };
        let mut best_move = Move::NULL;
        let mut hang_move = Move::NULL;
        while let Some((m, _)) = moves.next_best() {
            // Quiescence SEE pruning: a capture that loses material is not worth a look
            // (when evading, every move is searched).
            if !evading && see(&self.pos, m) < QUIESCENCE_SEE_THRESHOLD {
                continue;
            }
            // The hang rule: a move that hands the opponent a last piece scores as the loss.
            let Some(undo) = self.make_unless_handover(m, ply, &mut best, &mut hang_move) else {
                continue;
            };
            let score = -self.quiescence(-beta, -alpha, ply + 1, qdepth + 1);
            self.pop_move(m, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best_move == Move::NULL && hang_move != Move::NULL && best == loss_after_reply(ply) {
            self.record_handover(hang_move, ply);
        }
        let bound = Bound::of_result(best, original_alpha, beta);
        self.store(key, best_move, best, raw_eval, 0, bound, ply);
        best
    }

    /// Make the principal variation at `ply` the move `m`, which hands the opponent one of our
    /// last pieces, and the capture that ends the game: the line a mate score stands for.
    fn record_handover(&mut self, m: Move, ply: usize) {
        let undo = self.push_move(m, ply);
        self.win_now(ply + 1);
        self.pop_move(m, undo);
        self.update_pv(ply, m);
    }

    /// The current position's score for the side to move: the hand-written evaluation plus
    /// the network's correction of it.
    fn evaluate(&self) -> i32 {
        evaluate(&self.pos)
            + self
                .net
                .output(&self.accumulators[self.accumulator_top], self.pos.turn())
    }

    /// The evaluation before correction: the table's when it holds one, else computed.
    fn raw_eval(&self, hit: Option<TtHit>) -> i32 {
        match hit {
            Some(h) if h.bound != Bound::None || h.eval != 0 => h.eval as i32,
            _ => self.evaluate(),
        }
    }

    /// Write a node's result to the transposition table (mate scores made ply-independent) with
    /// the evaluation before correction, which the correction may since have revised.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        best_move: Move,
        score: i32,
        raw_eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        self.tt.store(
            key,
            TtHit {
                packed_move: best_move.to_u16(),
                score: score_to_tt(score, ply),
                eval: raw_eval.clamp(-MATE, MATE) as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
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
        if let Some(s) = self.enter_node(ply) {
            return s;
        }
        if self.is_draw() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
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

        let excluded = self.excluded[ply];
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        let hash_move = hit.map_or(Move::NULL, |h| Move::from_u16(h.packed_move));
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            if !pv_node
                && excluded == Move::NULL
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
        let raw_eval = self.raw_eval(hit);
        let static_eval = self.memory.correction.corrected(&self.pos, raw_eval);
        let us = self.pos.turn();
        let in_danger = threatened_last_pieces(&self.pos, us).any();
        self.evals[ply] = (!in_danger).then_some(static_eval);
        // Whether our evaluation rose since our previous move: pruning can then be bolder.
        let improving = match (
            self.evals[ply],
            ply.checked_sub(2).and_then(|p| self.evals[p]),
        ) {
            (Some(now), Some(before)) => now > before,
            (Some(_), None) => ply < 2,
            _ => false,
        };

        if !pv_node && !in_danger && excluded == Move::NULL && !is_win(beta.abs()) {
            // Reverse futility pruning: far above beta at shallow depth.
            if depth <= REVERSE_FUTILITY_MAX_DEPTH
                && static_eval - REVERSE_FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return static_eval;
            }
            // Null-move pruning: give the opponent a free move; if we still beat beta, cut.
            // Not with only king and pawns, where passing may be the one thing we cannot do.
            if allow_null
                && depth >= NULL_MOVE_MIN_DEPTH
                && static_eval >= beta
                && self.has_pieces_beyond_pawns()
            {
                let r = NULL_MOVE_BASE_REDUCTION
                    + depth / NULL_MOVE_DEPTH_DIVISOR
                    + ((static_eval - beta) / NULL_MOVE_EVAL_DIVISOR)
                        .min(NULL_MOVE_MAX_EVAL_REDUCTION);
                self.played[ply] = None;
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

        // Internal iterative reduction: a node the table knows nothing about is likely not
        // worth its full depth (and the shallower search fills the table for a revisit).
        let depth = if hash_move == Move::NULL && depth >= IIR_MIN_DEPTH && !in_danger {
            depth - 1
        } else {
            depth
        };
        let mut list = MoveList::new();
        self.pos.generate_moves(&mut list);
        if list.is_empty() {
            return 0; // stalemate
        }
        // The last-piece danger extension: when one of our last-of-type pieces is attacked
        // (the analogue of being in check), every move is searched a ply deeper.
        let extension =
            i32::from(in_danger && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth);
        let mut moves = self.ordered_moves(&list, hash_move, ply);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut hang_move = Move::NULL;
        let enemy_last_pieces = last_of_type(&self.pos, us.other());
        let mut quiets_tried: [Move; MAX_QUIETS_TRIED] = [Move::NULL; MAX_QUIETS_TRIED];
        let mut quiet_count = 0usize;
        let mut captures_tried: [Move; MAX_CAPTURES_TRIED] = [Move::NULL; MAX_CAPTURES_TRIED];
        let mut capture_count = 0usize;

        while let Some((m, order_score)) = moves.next_best() {
            if m == excluded {
                continue;
            }
            let quiet = is_quiet(&self.pos, m);
            let threat = quiet && attacks_from_destination(&self.pos, m, enemy_last_pieces);
            // Quiet moves that threaten no last piece may be skipped once a move is searched.
            if !pv_node && !in_danger && quiet && !threat && searched > 0 && !is_loss(best) {
                // Late-move pruning: after enough quiet moves, the rest rarely matter.
                if depth <= LATE_MOVE_PRUNING_MAX_DEPTH
                    && searched
                        >= (LATE_MOVE_PRUNING_BASE + LATE_MOVE_PRUNING_SCALE * depth * depth)
                            as usize
                            / (2 - usize::from(improving))
                {
                    continue;
                }
                // Futility pruning: a quiet move cannot lift a position this far below alpha.
                if depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_MARGIN * depth <= alpha {
                    continue;
                }
            }
            let mut extension = extension;
            if let Some(h) = hit.filter(|_| m == hash_move && extension == 0) {
                // Singular extension: when every other move falls well short of the hash
                // move's score, the hash move is forced and deserves a deeper look.
                let tt_score = score_from_tt(h.score, ply);
                if depth >= SINGULAR_MIN_DEPTH
                    && excluded == Move::NULL
                    && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth
                    && h.depth as i32 >= depth - SINGULAR_TT_DEPTH_MARGIN
                    && matches!(h.bound, Bound::Lower | Bound::Exact)
                    && tt_score.abs() < MATE_BOUND
                {
                    let singular_beta = tt_score - SINGULAR_MARGIN_PER_PLY * depth;
                    self.excluded[ply] = m;
                    let value = self.negamax(
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                        false,
                    );
                    self.excluded[ply] = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if value < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        // Multi-cut: several moves beat beta, so this node will too.
                        return singular_beta;
                    }
                }
            }
            // The hang rule, the Extinction analogue of skipping an illegal move: a move after
            // which the reply takes one of our last pieces scores as that loss, unsearched.
            let Some(undo) = self.make_unless_handover(m, ply, &mut best, &mut hang_move) else {
                continue;
            };
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.negamax(new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                // Late-move reductions: a late quiet move is first searched shallower, with a
                // null window, and searched again at full depth only if it beats alpha.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVES && quiet && !in_danger {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if threat {
                        r -= 1;
                    }
                    if order_score >= MIN_KILLER_SCORE {
                        r -= 1; // killers
                    } else {
                        // History: well-tried moves are reduced less.
                        r -= order_score / LMR_HISTORY_DIVISOR;
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
                        let bonus = (HISTORY_BONUS_SCALE * depth - HISTORY_BONUS_OFFSET)
                            .clamp(0, HISTORY_BONUS_MAX);
                        let ctx = self.context(ply);
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            self.memory.history.update_quiet(&self.pos, m, ctx, bonus);
                            for &q in &quiets_tried[..quiet_count] {
                                self.memory.history.update_quiet(&self.pos, q, ctx, -bonus);
                            }
                        } else {
                            self.memory.history.update_capture(&self.pos, m, bonus);
                        }
                        for &c in &captures_tried[..capture_count] {
                            self.memory.history.update_capture(&self.pos, c, -bonus);
                        }
                        break;
                    }
                }
            }
            if quiet {
                if quiet_count < quiets_tried.len() {
                    quiets_tried[quiet_count] = m;
                    quiet_count += 1;
                }
            } else if capture_count < captures_tried.len() {
                captures_tried[capture_count] = m;
                capture_count += 1;
            }
        }
        if searched == 0 {
            if excluded != Move::NULL {
                return alpha;
            }
            if best == -INFINITE {
                // Everything pruned: fall back to the static view.
                return static_eval.min(beta);
            }
            // Every move hands the opponent one of our last pieces.
        }
        if pv_node
            && best_move == Move::NULL
            && hang_move != Move::NULL
            && best == loss_after_reply(ply)
        {
            self.record_handover(hang_move, ply);
        }
        let bound = Bound::of_result(best, original_alpha, beta);
        if excluded == Move::NULL {
            // Teach the correction what this search found, where the result says something
            // about the evaluation: a quiet best move, not a mate, a bound on the right side.
            if !in_danger
                && (best_move == Move::NULL || is_quiet(&self.pos, best_move))
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.memory
                    .correction
                    .update(&self.pos, raw_eval, best, depth);
            }
            self.store(key, best_move, best, raw_eval, depth, bound, ply);
        }
        best
    }

    /// Search every root move from `first` on with window (alpha, beta); returns the best score.
    #[allow(clippy::needless_range_loop)] // root_moves is re-borrowed mutably after each search
    pub(super) fn search_root(
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
            if self.helpers_stop.is_none() {
                // Only the main thread says how far the root has come (for XBoard's `.`).
                self.clock.progress().searching_root_move(i);
            }
            self.seldepth = 0;
            let undo = self.push_move(m, 0);
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
