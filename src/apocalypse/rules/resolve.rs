//! Simultaneous resolution of one turn (rules 2 and 3, clarifications 1-4).

use super::board::{rank_of, Piece, Position, Side, Square, NO_SQUARE};
use super::moves::Move;

/// What happened in a turn, for reports and tests.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TurnEvents {
    /// Per side: the declaration was void and cost a penalty point.
    pub void: [bool; 2],
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

/// Resolve a turn from `pos` with `actions` (White's, Black's), each a legal move of its side or
/// `Move::FORFEIT`. Illegal declarations must be mapped to the forfeit first (`to_action`).
pub fn resolve(pos: &Position, actions: [Move; 2]) -> (Position, TurnEvents) {
    let mut next = *pos;
    let mut events = TurnEvents::default();
    let mut moving: [Option<(Move, Piece)>; 2] = [None, None];
    for side in Side::BOTH {
        let s = side.index();
        let m = actions[s];
        if m.is_forfeit() {
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
    // Same destination: horseman beats footman, equal types both die (declared types).
    let mut dies = [false; 2];
    if let (Some((mw, pw)), Some((mb, pb))) = (moving[0], moving[1]) {
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
    next.refresh_key();
    (next, events)
}
