//! Scripted players with a human-like bias, the test bench of the engine's model of a person:
//! each plays the pure-strategy alpha-beta player's best move among the moves its bias
//! prefers, so it is a fair opponent except where the bias gives it away.
//!
//! "Pass when attacked" is read as "leave an attacked piece where it stands": the literal null
//! move costs a penalty point and a second one loses, so that player would lose every game to
//! any engine and leave nothing to measure.

use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{attacked_squares, legal_moves, Move};
use crate::apocalypse::search::alphabeta::AlphaBeta;
use crate::apocalypse::search::anytime::Limits;
use crate::apocalypse::tablebase::Tablebases;

/// What a scripted player prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bias {
    /// Always captures when it can, a footman before a horseman.
    Aggressive,
    /// Never moves a piece the opponent attacks (it "passes" with that piece).
    StandStill,
    /// Always moves a horseman when it has a horseman move.
    HorsemenFirst,
}

impl Bias {
    /// Every bias, in the order reports list them.
    pub const ALL: [Bias; 3] = [Bias::Aggressive, Bias::StandStill, Bias::HorsemenFirst];

    /// The bias's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Bias::Aggressive => "aggressive",
            Bias::StandStill => "stand-still",
            Bias::HorsemenFirst => "horsemen-first",
        }
    }

    /// The moves this bias prefers among `side`'s legal `moves` in `pos` (empty when the bias
    /// has no say this turn).
    pub fn preferred(self, pos: &Position, side: Side, moves: &[Move]) -> Vec<Move> {
        let enemy = side.opponent().index();
        let s = side.index();
        match self {
            Bias::Aggressive => {
                let takes = |targets: u32| -> Vec<Move> {
                    moves
                        .iter()
                        .copied()
                        .filter(|m| targets & (1 << m.to) != 0)
                        .collect()
                };
                let footmen = takes(pos.footmen[enemy]);
                if footmen.is_empty() {
                    takes(pos.horsemen[enemy])
                } else {
                    footmen
                }
            }
            Bias::StandStill => {
                let attacked = pos.pieces(side) & attacked_squares(pos, side.opponent());
                if attacked == 0 {
                    return Vec::new();
                }
                moves
                    .iter()
                    .copied()
                    .filter(|m| attacked & (1 << m.from) == 0)
                    .collect()
            }
            Bias::HorsemenFirst => moves
                .iter()
                .copied()
                .filter(|m| pos.horsemen[s] & (1 << m.from) != 0)
                .collect(),
        }
    }
}

impl std::str::FromStr for Bias {
    type Err = String;

    fn from_str(text: &str) -> Result<Bias, String> {
        Bias::ALL
            .into_iter()
            .find(|b| b.name() == text)
            .ok_or_else(|| {
                format!("unknown bias '{text}' (aggressive, stand-still, horsemen-first)")
            })
    }
}

/// The scripted player's move for `side`: the alpha-beta player's best move within `limits`
/// among the moves `bias` prefers (among all moves when it prefers none).
pub fn scripted_move(
    pos: &Position,
    side: Side,
    bias: Bias,
    limits: Limits,
    tables: &Tablebases,
) -> Move {
    let moves = legal_moves(pos, side, tables.rules());
    let preferred = bias.preferred(pos, side, &moves);
    if preferred.len() == 1 {
        return preferred[0];
    }
    AlphaBeta::new(tables, side)
        .restrict_root(preferred)
        .search(pos, limits)
        .map_or(Move::FORFEIT, |c| c.best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::notation::{format_move, parse_position};
    use crate::apocalypse::rules::ruleset::RuleSet;

    fn names(moves: &[Move]) -> Vec<String> {
        let mut names: Vec<String> = moves.iter().map(|&m| format_move(m)).collect();
        names.sort();
        names
    }

    fn preferred(bias: Bias, position: &str, side: Side) -> Vec<String> {
        let pos = parse_position(position).unwrap();
        let moves = legal_moves(&pos, side, RuleSet::Classic);
        names(&bias.preferred(&pos, side, &moves))
    }

    #[test]
    fn aggressive_takes_a_footman_before_a_horseman() {
        // White's c2 footman can take the d3 footman or the b3 horseman, which the a1
        // horseman can take too.
        assert_eq!(
            preferred(Bias::Aggressive, "4n/5/1n1p1/2P2/N4", Side::White),
            vec!["c2d3"]
        );
        assert_eq!(
            preferred(Bias::Aggressive, "4p/5/1n3/2P2/N4", Side::White),
            vec!["a1b3", "c2b3"]
        );
        assert!(preferred(Bias::Aggressive, "4p/5/5/2P2/N4", Side::White).is_empty());
    }

    #[test]
    fn stand_still_never_moves_an_attacked_piece() {
        // Black's b3 footman attacks White's c2 footman; the a1 horseman is not attacked.
        assert_eq!(
            preferred(Bias::StandStill, "4p/5/1p3/2P2/N4", Side::White),
            vec!["a1b3"]
        );
        assert!(preferred(Bias::StandStill, "4p/5/5/2P2/N4", Side::White).is_empty());
    }

    #[test]
    fn horsemen_first_moves_only_horsemen() {
        let moves = preferred(Bias::HorsemenFirst, "start", Side::White);
        assert_eq!(moves, vec!["a1b3", "a1c2", "e1c2", "e1d3"]);
    }

    #[test]
    fn the_scripted_move_is_one_the_bias_prefers() {
        let tables = Tablebases::none(RuleSet::Classic);
        let pos = parse_position("start").unwrap();
        let m = scripted_move(
            &pos,
            Side::White,
            Bias::HorsemenFirst,
            Limits::new(Some(2), None),
            &tables,
        );
        assert!(["a1b3", "a1c2", "e1c2", "e1d3"].contains(&format_move(m).as_str()));
        assert_eq!("stand-still".parse::<Bias>(), Ok(Bias::StandStill));
        assert!("timid".parse::<Bias>().is_err());
    }
}
