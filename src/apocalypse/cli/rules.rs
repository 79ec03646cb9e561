//! `apocalypse moves` and `apocalypse play`: the rules at work on one position.

use crate::apocalypse::rules::board::Side;
use crate::apocalypse::rules::moves::declarable_moves;
use crate::apocalypse::rules::notation::{
    diagram, format_move, format_position, parse_joint_move, parse_position,
};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::report::describe_turn;
use crate::apocalypse::rules::resolve::resolve_declared;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::console::{out, outln};

/// Arguments of `apocalypse moves`.
#[derive(clap::Args, Debug, Clone)]
pub struct MovesArgs {
    /// Position `BOARD [PENALTIES [QUIET [TURN]]]` (quote it) or `start`.
    #[arg(required = true)]
    pub position: Vec<String>,
}

/// Arguments of `apocalypse play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// Position (quoted) or `start`.
    pub position: String,
    /// Joint move, White's first, e.g. `c1c2 e4e3` (one quoted argument or two).
    #[arg(num_args = 1..=2, required = true)]
    pub joint_move: Vec<String>,
}

/// Run `apocalypse moves` under `rules`.
pub fn run_moves(args: &MovesArgs, rules: RuleSet) -> Result<(), String> {
    moves(&args.position.join(" "), rules)
}

/// Run `apocalypse play` under `rules`.
pub fn run_play(args: &PlayArgs, rules: RuleSet) -> Result<(), String> {
    play(&args.position, &args.joint_move.join(" "), rules)
}

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
    let turn = resolve_declared(&pos, declared, rules);
    outln!("{}", format_position(&turn.next));
    out!("{}", diagram(&turn.next));
    for line in describe_turn(&turn) {
        outln!("{line}");
    }
    outln!("{}", outcome(&turn.next, rules).describe());
    Ok(())
}
