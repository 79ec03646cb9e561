//! Simultaneous resolution of one turn (rules 2 and 3: void declarations, captures of pieces
//! that stayed, same-square collisions, redeploys and promotion decided by the horsemen on
//! the board before the turn, the quiet-turn counter), under either rule set: speculative
//! steps (vchess) only ever arrive here when the rules allowed them, and then `ruleset` says
//! whether each one comes true.

use super::board::{rank_of, Piece, Position, Side, Square, NO_SQUARE};
use super::moves::{to_action, Move};
use super::ruleset::{is_speculative_step, speculation_holds, RuleSet};

/// What happened in a turn, for reports and tests.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TurnEvents {
    /// Per side: the declaration was void and cost a penalty point.
    pub void: [bool; 2],
    /// Per side: a speculative step (vchess) was declared; `Some(true)` if it came true.
    pub speculation: [Option<bool>; 2],
    /// Per side: the square where this side captured a piece that stayed.
    pub captured: [Option<(Square, Piece)>; 2],
    /// Per side: a capture that found its target gone (became a plain move).
    pub target_moved: [bool; 2],
    /// A same-destination collision: the square and which sides lost their piece.
    pub collision: Option<(Square, [bool; 2])>,
    /// Per side: square where a footman promoted to a horseman.
    pub promoted: [Option<Square>; 2],
    /// Per side: square where a footman was redeployed to (if it survived).
    pub redeployed: [Option<Square>; 2],
    /// Whether the quiet-turn counter was reset.
    pub reset_quiet: bool,
}

/// One resolved turn: what each side declared, the action each declaration stood for (an
/// undeclarable move is void and becomes the forfeit), the position after it and what
/// happened.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Turn {
    /// The declarations, White's first, as given.
    pub declared: [Move; 2],
    /// What they stood for under the rules (`moves::to_action`).
    pub actions: [Move; 2],
    /// The position after the turn.
    pub next: Position,
    /// What happened.
    pub events: TurnEvents,
}

/// Resolve the turn in which White declares `declared[0]` and Black `declared[1]` from `pos`
/// under `rules`.
pub fn resolve_declared(pos: &Position, declared: [Move; 2], rules: RuleSet) -> Turn {
    let actions = Side::BOTH.map(|side| to_action(pos, side, rules, declared[side.index()]));
    let (next, events) = resolve(pos, actions);
    Turn {
        declared,
        actions,
        next,
        events,
    }
}

/// Resolve a turn from `pos` with `actions` (White's, Black's), each a declarable action of
/// its side under the game's rules (`moves::to_action`): a legal move, a speculative step
/// (vchess only) or `Move::FORFEIT`.
pub fn resolve(pos: &Position, actions: [Move; 2]) -> (Position, TurnEvents) {
    let (mut next, events) = resolve_unkeyed(pos, actions);
    next.refresh_key();
    (next, events)
}

/// `resolve` without recomputing the Zobrist key of the result (its `key` is stale): for the
/// tablebase builder, which numbers positions by their pieces and resolves billions of turns.
pub fn resolve_unkeyed(pos: &Position, actions: [Move; 2]) -> (Position, TurnEvents) {
    let mut next = *pos;
    let mut events = TurnEvents::default();
    let mut moving: [Option<(Move, Piece)>; 2] = [None, None];
    let speculative = |s: usize| {
        let m = actions[s];
        !m.is_forfeit() && is_speculative_step(pos, Side::BOTH[s], m.from, m.to)
    };
    // A speculation comes true only against a plain move arriving on its square; the piece
    // arriving there is beaten (it dies below instead of standing on the square).
    let mut beaten = [false; 2];
    for side in Side::BOTH {
        let s = side.index();
        if !speculative(s) {
            continue;
        }
        let o = side.opponent().index();
        let other = (!actions[o].is_forfeit()).then(|| (actions[o].destination(), speculative(o)));
        let holds = speculation_holds(actions[s].to, other);
        events.speculation[s] = Some(holds);
        beaten[o] = holds;
    }
    for side in Side::BOTH {
        let s = side.index();
        let m = actions[s];
        if m.is_forfeit() || events.speculation[s] == Some(false) {
            next.penalties[s] = next.penalties[s].saturating_add(1);
            events.void[s] = true;
        } else {
            let piece = if pos.footmen[s] & (1 << m.from) != 0 {
                Piece::Footman
            } else {
                Piece::Horseman
            };
            moving[s] = Some((m, piece));
        }
    }
    let mut removed_any = false;
    let mut footman_moved = false;
    // Captures are judged on B: the target is removed only if it did not move this turn.
    for side in Side::BOTH {
        let s = side.index();
        let Some((m, _)) = moving[s] else { continue };
        let enemy = side.opponent();
        if let Some((owner, piece)) = pos.piece_at(m.to) {
            if owner == enemy {
                let target_moved = moving[enemy.index()].is_some_and(|(em, _)| em.from == m.to);
                if target_moved {
                    events.target_moved[s] = true;
                } else {
                    next.clear(enemy, m.to);
                    events.captured[s] = Some((m.to, piece));
                    removed_any = true;
                }
            }
        }
    }
    for side in Side::BOTH {
        if let Some((m, piece)) = moving[side.index()] {
            next.clear(side, m.from);
            footman_moved |= piece == Piece::Footman;
        }
    }
    // A piece that arrived on a speculated square is beaten there (vchess).
    let mut dies = beaten;
    for side in Side::BOTH {
        let s = side.index();
        if let (true, Some((m, piece))) = (beaten[s], moving[s]) {
            events.captured[side.opponent().index()] = Some((m.destination(), piece));
            removed_any = true;
        }
    }
    // Same destination: horseman beats footman, equal types both die (declared types).
    if let (Some((mw, pw)), Some((mb, pb)), [false, false]) = (moving[0], moving[1], beaten) {
        let square = mw.destination();
        if square == mb.destination() {
            dies = match (pw, pb) {
                (Piece::Horseman, Piece::Footman) => [false, true],
                (Piece::Footman, Piece::Horseman) => [true, false],
                _ => [true, true],
            };
            events.collision = Some((square, dies));
            removed_any = true;
        }
    }
    for side in Side::BOTH {
        let s = side.index();
        let Some((m, piece)) = moving[s] else {
            continue;
        };
        if dies[s] {
            continue;
        }
        let dest = m.destination();
        let placed = if piece == Piece::Footman
            && m.redeploy == NO_SQUARE
            && rank_of(dest) == side.last_rank()
        {
            events.promoted[s] = Some(dest);
            Piece::Horseman
        } else {
            if m.redeploy != NO_SQUARE {
                events.redeployed[s] = Some(dest);
            }
            piece
        };
        next.put(side, placed, dest);
    }
    events.reset_quiet = removed_any || footman_moved || events.void[0] || events.void[1];
    next.quiet = if events.reset_quiet {
        0
    } else {
        next.quiet.saturating_add(1)
    };
    next.turn = next.turn.saturating_add(1);
    (next, events)
}
