//! End-of-game checks (rule 4) in the rules' order.

use super::board::{Position, Side};
use super::moves::has_legal_move;
use super::ruleset::RuleSet;

/// Quiet turns after which the game is drawn (rule 4.4).
pub const QUIET_LIMIT: u32 = 50;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reason {
    /// Rule 4.1: a player has no footmen.
    NoFootmen,
    /// Rule 4.2: a player has two penalty points.
    Penalties,
    /// Rule 4.3: a player has no legal move.
    NoLegalMove,
    /// Rule 4.4: 50 quiet turns.
    QuietTurns,
}

impl Reason {
    /// Text used in reports.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::NoFootmen => "no footmen left",
            Reason::Penalties => "two penalty points",
            Reason::NoLegalMove => "a player has no legal move",
            Reason::QuietTurns => "50 quiet turns",
        }
    }
}

/// The state of a game after a turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// A player won.
    Win(Side, Reason),
    /// Drawn.
    Draw(Reason),
}

impl Outcome {
    /// Payoff to White: +1, 0, -1 (0 also for an ongoing game).
    pub fn value(self) -> f64 {
        match self {
            Outcome::Win(Side::White, _) => 1.0,
            Outcome::Win(Side::Black, _) => -1.0,
            _ => 0.0,
        }
    }

    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }

    /// Text used in reports.
    pub fn describe(self) -> String {
        match self {
            Outcome::Ongoing => "game goes on".to_string(),
            Outcome::Win(side, reason) => format!("{} wins ({})", side.name(), reason.describe()),
            Outcome::Draw(reason) => format!("draw ({})", reason.describe()),
        }
    }
}

/// Decide whether the game is over under `rules`, checking rules 4.1 to 4.4 in order (the
/// rule sets differ only in which moves count as legal for rule 4.3).
pub fn outcome(pos: &Position, rules: RuleSet) -> Outcome {
    let lost = |flags: [bool; 2], reason| match flags {
        [true, true] => Some(Outcome::Draw(reason)),
        [true, false] => Some(Outcome::Win(Side::Black, reason)),
        [false, true] => Some(Outcome::Win(Side::White, reason)),
        [false, false] => None,
    };
    if let Some(o) = lost(
        [pos.footmen[0] == 0, pos.footmen[1] == 0],
        Reason::NoFootmen,
    ) {
        return o;
    }
    if let Some(o) = lost(
        [pos.penalties[0] >= 2, pos.penalties[1] >= 2],
        Reason::Penalties,
    ) {
        return o;
    }
    if !has_legal_move(pos, Side::White, rules) || !has_legal_move(pos, Side::Black, rules) {
        return Outcome::Draw(Reason::NoLegalMove);
    }
    if pos.quiet as u32 >= QUIET_LIMIT {
        return Outcome::Draw(Reason::QuietTurns);
    }
    Outcome::Ongoing
}
