//! The two readings of the rules this program plays, and every point where they differ.
//!
//! "classic" is the reading of the written rules (English and Russian Wikipedia). "vchess" is
//! the one played on Benjamin Auder's vchess/xogo sites, as the rules' last section names it.
//! They differ in exactly three points, and the rest of the rules code asks this file about each:
//!
//! 1. **Speculative steps** (`RuleSet::speculative_steps`, `is_speculative_step`): under vchess
//!    a footman may also declare a diagonal step onto a square that is empty on B. It is
//!    played only if the other player's piece arrives on that square this turn (1.axb3
//!    against 1...Nb3); otherwise it is void and costs a penalty point, like any illegal
//!    declaration. "Arrives" means: the other player's declaration is a plain legal move
//!    (neither void nor itself speculative) whose destination is that square, so two
//!    speculations never make each other come true (both are void), as on the sites. A
//!    speculative step onto the last rank promotes or redeploys like any footman step there
//!    (horsemen counted on B).
//! 2. **A speculation beats a plain move on a shared square** (`speculation_holds`): the piece
//!    that arrives is removed, whatever its type, and the speculating footman stands there
//!    (or on its redeploy square; its catch on the last rank still counts, as a redeploying
//!    footman's capture does in the classic rules).
//! 3. **The last footman may advance to the last rank**
//!    (`RuleSet::last_footman_may_promote`): with fewer than two horsemen the step promotes
//!    it, and a player without footmen loses. In the classic rules that step is not a legal
//!    move (and a player whose only move it would be has no legal move: a draw).
//!
//! Everything else (resolution of plain moves, collisions between plain moves, penalties,
//! the end of the game, the quiet-turn counter) is the same under both.

use super::board::{file_of, Position, Side, Square};

/// A reading of the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RuleSet {
    /// The written rules' reading (the default).
    #[default]
    Classic,
    /// The vchess/xogo sites' reading: speculative steps, last footman may promote.
    Vchess,
}

impl RuleSet {
    /// Both rule sets, the default first.
    pub const ALL: [RuleSet; 2] = [RuleSet::Classic, RuleSet::Vchess];

    /// The name used on the command line, in file headers and directory names.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Classic => "classic",
            RuleSet::Vchess => "vchess",
        }
    }

    /// Parse a rule-set name (case-insensitive).
    pub fn parse(text: &str) -> Result<RuleSet, String> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown rule set '{text}': expected classic or vchess"))
    }

    /// A one-byte code for file headers.
    pub fn code(self) -> u8 {
        match self {
            RuleSet::Classic => 0,
            RuleSet::Vchess => 1,
        }
    }

    /// The rule set with a header code, if any.
    pub fn from_code(code: u8) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Difference 1: whether footmen may declare speculative diagonal steps onto empty
    /// squares.
    pub fn speculative_steps(self) -> bool {
        self == RuleSet::Vchess
    }

    /// Difference 3: whether a player with fewer than two horsemen may advance its only
    /// footman to the last rank (it promotes, and the player has no footmen left).
    pub fn last_footman_may_promote(self) -> bool {
        self == RuleSet::Vchess
    }
}

/// Difference 1: whether a step of `side`'s piece from `from` to `to` is a speculative one:
/// a footman moving diagonally onto a square empty on B. Only vchess lets it be declared.
pub fn is_speculative_step(pos: &Position, side: Side, from: Square, to: Square) -> bool {
    pos.footmen[side.index()] & (1 << from) != 0
        && file_of(from) != file_of(to)
        && pos.occupied() & (1 << to) == 0
}

/// Differences 1 and 2: whether a speculative step onto `target` comes true, given where the
/// other player's piece arrives (`None` when its declaration is void) and whether that move
/// is itself speculative. When it does, the arriving piece is removed.
pub fn speculation_holds(target: Square, other: Option<(Square, bool)>) -> bool {
    matches!(other, Some((arrives, false)) if arrives == target)
}
