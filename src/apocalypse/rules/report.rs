//! Human-readable descriptions of a resolved turn (for `apocalypse play` and games in the terminal).

use super::board::{square_name, Side};
use super::notation::format_move;
use super::resolve::Turn;

/// One line per thing that happened in a turn.
pub fn describe_turn(turn: &Turn) -> Vec<String> {
    let Turn {
        declared,
        actions,
        events,
        ..
    } = turn;
    let mut lines = Vec::new();
    for side in Side::BOTH {
        let s = side.index();
        if events.void[s] {
            let what = if declared[s].is_forfeit() {
                "0000 (null move)".to_string()
            } else if events.speculation[s] == Some(false) {
                format!(
                    "{} (speculative, but no piece arrived on {})",
                    format_move(declared[s]),
                    square_name(declared[s].to)
                )
            } else {
                format!("{} (illegal)", format_move(declared[s]))
            };
            lines.push(format!(
                "{} declared {what}: void, one penalty point",
                side.name()
            ));
        } else {
            lines.push(format!("{} plays {}", side.name(), format_move(actions[s])));
        }
    }
    for side in Side::BOTH {
        let s = side.index();
        if let (Some((sq, piece)), Some(true)) = (events.captured[s], events.speculation[s]) {
            lines.push(format!(
                "{}'s speculative step comes true: the {} {} arriving on {} is removed",
                side.name(),
                side.opponent().name(),
                piece.name(),
                square_name(sq)
            ));
        } else if let Some((sq, piece)) = events.captured[s] {
            lines.push(format!(
                "{} captures the {} {} on {}",
                side.name(),
                side.opponent().name(),
                piece.name(),
                square_name(sq)
            ));
        }
        if events.target_moved[s] {
            lines.push(format!(
                "{}'s capture target moved away: plain move",
                side.name()
            ));
        }
    }
    if let Some((sq, dies)) = events.collision {
        let who = match dies {
            [true, true] => "both pieces are removed".to_string(),
            [true, false] => "the White footman is removed".to_string(),
            _ => "the Black footman is removed".to_string(),
        };
        lines.push(format!("collision on {}: {who}", square_name(sq)));
    }
    for side in Side::BOTH {
        let s = side.index();
        if let Some(sq) = events.promoted[s] {
            lines.push(format!(
                "{} footman promotes to a horseman on {}",
                side.name(),
                square_name(sq)
            ));
        }
        if let Some(sq) = events.redeployed[s] {
            if !events.collision.is_some_and(|(c, d)| c == sq && d[s]) {
                lines.push(format!(
                    "{} footman redeploys to {}",
                    side.name(),
                    square_name(sq)
                ));
            }
        }
    }
    lines
}
