//! Game results: the extinction decision rule, plus the result strings used by PGN and
//! the protocols.

use std::fmt;

use shakmaty::{Color, Role};

use super::notation::{color_name, role_plural};
use super::position::Position;
use super::types::Move;

/// How a game ended: the winner (`None` for a draw) and a human-readable reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning color, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why, e.g. "Black's bishops are extinct" or "stalemate".
    pub reason: String,
}

impl Outcome {
    /// A draw for the given reason.
    pub fn draw(reason: &str) -> Outcome {
        Outcome {
            winner: None,
            reason: reason.to_string(),
        }
    }

    /// "1-0", "0-1" or "1/2-1/2".
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{{}}}", self.result_str(), self.reason)
    }
}

impl Position {
    /// The extinction decision rule: if the side to move has an extinct type it has lost
    /// (even if the other side lost one on the same move, rule 5); otherwise if the other
    /// side has one, the other side has lost. `None` while every type of both sides lives.
    pub fn extinction_outcome(&self) -> Option<Outcome> {
        if !self.is_finished() {
            return None;
        }
        let stm = self.turn();
        for loser in [stm, stm.other()] {
            if let Some(role) = self.extinct_role(loser) {
                return Some(Outcome {
                    winner: Some(loser.other()),
                    reason: format!("{}'s {} are extinct", color_name(loser), role_plural(role)),
                });
            }
        }
        None
    }

    /// Who wins by extinction right after `m` (a legal move here), computed from piece counts
    /// without playing it; `None` if the game goes on. Cheap enough for search.
    #[inline]
    pub fn winner_after(&self, m: Move) -> Option<Color> {
        let us = self.turn();
        let them = us.other();
        if let Some(role) = self.captured_role(m) {
            if self.count(them, role) == 1 {
                return Some(us);
            }
        }
        if m.promotion().is_some() && self.count(us, Role::Pawn) == 1 {
            return Some(them);
        }
        None
    }
}
