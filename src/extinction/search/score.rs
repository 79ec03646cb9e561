//! Score arithmetic of the search: mate scores (an extinction is a mate: `MATE - ply` is a win
//! `ply` half-moves away), how they are stored in the transposition table (relative to the
//! node, not the root).

/// Score of a win on the spot (`MATE - ply` is a win `ply` half-moves away).
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_500;
/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in absolute value) are forced wins/losses.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// Whether `score` is a forced win for the side it belongs to.
pub fn is_win(score: i32) -> bool {
    score >= MATE_BOUND
}

/// Whether `score` is a forced loss.
pub fn is_loss(score: i32) -> bool {
    score <= -MATE_BOUND
}

/// Moves (not plies) to the end of the game for a mate score: positive when winning.
pub fn mate_moves(score: i32) -> Option<i32> {
    if is_win(score) {
        Some((MATE - score + 1) / 2)
    } else if is_loss(score) {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

/// A score for the table: mate scores counted from the node at `ply`, not from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i16 {
    let s = if is_win(score) {
        score + ply as i32
    } else if is_loss(score) {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// A score read from the table at `ply`: mate scores counted from the root again.
pub fn score_from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if is_win(s) {
        s - ply as i32
    } else if is_loss(s) {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_survive_the_table_at_any_ply() {
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 4), Some(2));
        assert_eq!(mate_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_moves(250), None);
        // A win or loss seen at `ply` lies at least `ply` half-moves from the root.
        for score in [MATE - 20, -(MATE - 21), 123, -40] {
            for ply in [0, 3, 17] {
                assert_eq!(score_from_tt(score_to_tt(score, ply), ply), score);
            }
        }
        // A win 5 plies from the root found at ply 3 is stored as a win 2 plies from the node.
        assert_eq!(score_to_tt(MATE - 5, 3) as i32, MATE - 2);
    }
}
