//! The static evaluation: [`evaluate`] scores a position with the weights the engine plays
//! with ([`ACTIVE_WEIGHTS`], the tuner's output); [`evaluate_with`] takes any [`Weights`] (the
//! tuner's probe); [`nnue`] is the network that corrects it, and [`evaluate_corrected`] their
//! sum, the score the search uses. This layer sits on the rules and is used by the search and the tools.

pub mod evaluate;
pub mod nnue;
pub mod weights;
pub mod weights_tuned;

pub use evaluate::evaluate_with;
pub use weights::{Score, Weights, DEFAULT_WEIGHTS};

use crate::extinction::rules::position::Position;

/// The weights the engine plays with: the tuner's output (`extinction tune`).
pub const ACTIVE_WEIGHTS: Weights = weights_tuned::TUNED_WEIGHTS;

/// Evaluate `pos` with the engine's weights, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &ACTIVE_WEIGHTS)
}

/// The score the engine plays with: [`evaluate`] plus the network's correction of it (the
/// search gets the same sum from its incrementally updated accumulators).
pub fn evaluate_corrected(pos: &Position) -> i32 {
    evaluate(pos) + nnue::NETWORK.evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::position::role_index;
    use shakmaty::Role;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).expect("test FEN"))
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        let e = evaluate(&pos);
        assert_eq!(e, ACTIVE_WEIGHTS.tempo);
    }

    #[test]
    fn evaluation_is_symmetric() {
        // Same position mirrored with colours swapped must give the same side-to-move score.
        let a = eval_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b);
    }

    #[test]
    fn last_bishop_worth_more_than_one_of_two() {
        let w = &DEFAULT_WEIGHTS;
        let b = role_index(Role::Bishop);
        let total = |n: i32| w.piece_value[b].0 * n - w.scarcity[b] / (n * n);
        // Losing the second-to-last bishop costs more than a plain bishop's value.
        assert!(total(2) - total(1) > w.piece_value[b].0);
        assert!(total(3) - total(2) < total(2) - total(1));
    }

    #[test]
    fn being_a_bishop_down_is_bad() {
        let full = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let minus = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1");
        assert!(minus < full - 300, "{minus} vs {full}");
    }
}
