//! `apocalypse moves` and `apocalypse play`: the rules at work on one position.

use crate::apocalypse::rules::board::Side;
use crate::apocalypse::rules::moves::{declarable_moves, to_action};
use crate::apocalypse::rules::notation::{
    diagram, format_move, format_position, parse_joint_move, parse_position,
};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::report::describe_turn;
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::console::{out, outln};

/// Print the board and each side's declarable moves under `rules` (legal moves, speculative
/// steps under vchess, the forfeit).
pub fn moves(position: &str, rules: RuleSet) -> Result<(), String> {
    let pos = parse_position(position)?;
    out!("{}", diagram(&pos));
    let state = outcome(&pos, rules);
    if state.is_over() {
        outln!("game over: {}; no moves", state.describe());
        return Ok(());
    }
    for side in Side::BOTH {
        let moves: Vec<String> = declarable_moves(&pos, side, rules)
            .into_iter()
            .map(format_move)
            .collect();
        outln!("{} ({}): {}", side.name(), moves.len(), moves.join(" "));
    }
    Ok(())
}

/// Resolve one turn under `rules`: print the new position, its board, what happened and the
/// outcome.
pub fn play(position: &str, joint_move: &str, rules: RuleSet) -> Result<(), String> {
    let pos = parse_position(position)?;
    let declared = parse_joint_move(joint_move)?;
    let state = outcome(&pos, rules);
    if state.is_over() {
        return Err(format!("game is already over: {}", state.describe()));
    }
    let actions = [
        to_action(&pos, Side::White, rules, declared[0]),
        to_action(&pos, Side::Black, rules, declared[1]),
    ];
    let (next, events) = resolve(&pos, actions);
    outln!("{}", format_position(&next));
    out!("{}", diagram(&next));
    for line in describe_turn(declared, actions, &events) {
        outln!("{line}");
    }
    outln!("{}", outcome(&next, rules).describe());
    Ok(())
}
