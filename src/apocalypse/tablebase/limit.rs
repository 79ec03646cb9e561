//! Positions a player wins with probability as close to 1 as he likes ("limit-sure" wins).
//!
//! Value iteration cannot settle these: when the winner must take a small risk every turn
//! (keep shuttling, and attack only with probability epsilon), the N-turn values approach ±1
//! like c/N and never pass any tolerance. Their value is nevertheless exactly ±1, and they can
//! be found combinatorially, without numbers: the set is the fixed point
//! `nu Y. mu X. Target ∪ Lpre(Y, X)` of de Alfaro, Henzinger and Kupferman ("Concurrent
//! reachability games", 2007). `Lpre(Y, X)` holds at a position when the player has moves
//! A1 ⊆ A2 ⊆ ... (played with weights 1, ε, ε², ...) such that every move in Ak stays in Y
//! against each opponent move not yet answered by A1..A(k-1), and every opponent move is
//! eventually answered: some move of some Ak reaches X against it. Progress then outweighs the
//! risk of leaving Y by a factor 1/ε, so the target is reached with probability -> 1.

use rayon::prelude::*;

/// Where a joint move leads, seen from the player whose wins are sought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    /// The player has won (or reached a position already known to be won).
    Target,
    /// Anything else outside the graph: a loss, a draw, a value below 1.
    Outside,
    /// A position of the graph, by index.
    State(u32),
}

/// A graph of simultaneous-move positions, seen from the player whose wins are sought (rows
/// are the player's moves, columns the opponent's).
pub trait GameGraph: Sync {
    /// Number of positions.
    fn positions(&self) -> usize;
    /// Whether position `s` is still being played (finished positions are never wins here).
    fn live(&self, s: usize) -> bool;
    /// Calls `f` with a live position's number of the player's moves, of the opponent's, and
    /// where each joint move leads (`at(a, b)`: the player's move `a` against the opponent's
    /// `b`). The graph may build the position's moves just for the call.
    fn visit<R>(
        &self,
        s: usize,
        f: impl FnOnce(usize, usize, &dyn Fn(usize, usize) -> Successor) -> R,
    ) -> R;
}

/// For each position of the graph, the round at which it is found to be a limit-sure win of
/// the player (1 = first), or `None`. A position of round k is won through positions of
/// earlier rounds (and targets) only, so rounds order the wins: a strategy that keeps reaching
/// earlier rounds makes progress.
pub fn limit_sure_wins<G: GameGraph + ?Sized>(graph: &G) -> Vec<Option<u32>> {
    let n = graph.positions();
    let mut in_y: Vec<bool> = (0..n).map(|s| graph.live(s)).collect();
    loop {
        let mut round_of: Vec<Option<u32>> = vec![None; n];
        let mut in_x = vec![false; n];
        let mut candidates: Vec<usize> = (0..n).filter(|&s| in_y[s]).collect();
        for round in 1.. {
            // Jacobi rounds: a round only uses the wins of earlier rounds.
            let found: Vec<bool> = candidates
                .par_iter()
                .with_min_len(64)
                .map(|&s| {
                    graph.visit(s, |rows, cols, at| {
                        witness_layers(rows, cols, at, |t| inside(t, &in_y), |t| inside(t, &in_x))
                            .is_some()
                    })
                })
                .collect();
            if !found.contains(&true) {
                break;
            }
            let mut rest = Vec::with_capacity(candidates.len());
            for (s, won) in candidates.into_iter().zip(found) {
                if won {
                    in_x[s] = true;
                    round_of[s] = Some(round);
                } else {
                    rest.push(s);
                }
            }
            candidates = rest;
            log::trace!(
                "limit-sure round {round}: {} positions left",
                candidates.len()
            );
        }
        if in_x == in_y {
            return round_of;
        }
        in_y = in_x;
    }
}

fn inside(successor: Successor, set: &[bool]) -> bool {
    match successor {
        Successor::Target => true,
        Successor::Outside => false,
        Successor::State(k) => set[k as usize],
    }
}

/// The witness of `Lpre(Y, X)` at one position with `rows` x `cols` joint moves leading to
/// `at(a, b)`, given membership tests for Y (safe) and X (progress): for each of the player's
/// moves, the layer k >= 1 of the set Ak it first belongs to (`None`: never used), or `None`
/// overall when some opponent move is never answered. Playing layer k with weight eps^(k-1)
/// wins limit-surely.
pub fn witness_layers(
    rows: usize,
    cols: usize,
    at: impl Fn(usize, usize) -> Successor,
    in_y: impl Fn(Successor) -> bool,
    in_x: impl Fn(Successor) -> bool,
) -> Option<Vec<Option<u32>>> {
    let mut answered = vec![false; cols];
    let mut layer: Vec<Option<u32>> = vec![None; rows];
    for k in 1.. {
        let mut grew = false;
        for (a, used) in layer.iter_mut().enumerate() {
            if used.is_none() && (0..cols).all(|b| answered[b] || in_y(at(a, b))) {
                *used = Some(k);
                grew = true;
            }
        }
        for (b, answered) in answered.iter_mut().enumerate() {
            if !*answered && (0..rows).any(|a| layer[a].is_some() && in_x(at(a, b))) {
                *answered = true;
                grew = true;
            }
        }
        if answered.iter().all(|&x| x) {
            return Some(layer);
        }
        if !grew {
            return None;
        }
    }
    unreachable!("the layers grow until every move is used")
}

/// Weight of each further layer of a witness relative to the one before: the risk a winning
/// strategy takes per unit of progress. Smaller is safer against a perfect opponent but slower
/// (the 50-turn rule may intervene); 1/10 keeps the expected wait near ten turns.
pub const LAYER_WEIGHT: f64 = 0.1;

/// The mixed strategy a witness describes: layer k played with weight LAYER_WEIGHT^(k-1),
/// each move of a layer with the same weight.
pub fn witness_strategy(layers: &[Option<u32>]) -> Vec<f64> {
    let weights: Vec<f64> = layers
        .iter()
        .map(|l| l.map_or(0.0, |k| LAYER_WEIGHT.powi(k as i32 - 1)))
        .collect();
    let total: f64 = weights.iter().sum();
    weights.into_iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::Successor::{Outside, State, Target};
    use super::*;

    /// A toy graph: each position's joint moves, row-major (`None`: finished, not won).
    struct LocalGame {
        rows: usize,
        cols: usize,
        successors: Vec<Successor>,
    }

    impl GameGraph for [Option<LocalGame>] {
        fn positions(&self) -> usize {
            self.len()
        }
        fn live(&self, s: usize) -> bool {
            self[s].is_some()
        }
        fn visit<R>(
            &self,
            s: usize,
            f: impl FnOnce(usize, usize, &dyn Fn(usize, usize) -> Successor) -> R,
        ) -> R {
            let g = self[s].as_ref().expect("a live position");
            f(g.rows, g.cols, &|a, b| g.successors[a * g.cols + b])
        }
    }

    fn won(games: &[Option<LocalGame>]) -> Vec<bool> {
        limit_sure_wins(games).iter().map(Option::is_some).collect()
    }

    fn game(rows: usize, cols: usize, successors: Vec<Successor>) -> Option<LocalGame> {
        Some(LocalGame {
            rows,
            cols,
            successors,
        })
    }

    #[test]
    fn hide_or_run_is_a_limit_sure_win_but_not_a_sure_one() {
        // Rows: hide, run. Columns: wait, throw. Running past a waiting thrower wins, running
        // into a throw loses, hiding from a throw wins (the snowball is spent), hiding from a
        // waiter starts again.
        let games = vec![game(2, 2, vec![State(0), Target, Target, Outside])];
        assert_eq!(won(&games), vec![true]);
    }

    #[test]
    fn matching_pennies_for_the_win_is_not_limit_sure() {
        let games = vec![game(2, 2, vec![Target, Outside, Outside, Target])];
        assert_eq!(won(&games), vec![false]);
        // Nor is it when losing the guess only repeats the position: endless play is no win
        // unless one row wins against every column eventually.
        let games = vec![game(2, 2, vec![Target, State(0), Outside, Target])];
        assert_eq!(won(&games), vec![true]);
        let games = vec![game(2, 2, vec![Target, Outside, State(0), State(0)])];
        assert_eq!(won(&games), vec![false]);
    }

    #[test]
    fn a_position_that_can_only_loop_is_not_won() {
        let games = vec![game(1, 1, vec![State(1)]), game(1, 1, vec![State(0)])];
        assert_eq!(won(&games), vec![false, false]);
    }

    #[test]
    fn wins_propagate_through_chains_and_stop_at_escapes() {
        // 0 -> 1 -> target surely; 2 may be driven to 3, a position that is over and not won.
        let games = vec![
            game(1, 2, vec![State(1), State(1)]),
            game(1, 1, vec![Target]),
            game(2, 1, vec![State(3), State(0)]),
            None,
        ];
        assert_eq!(won(&games), vec![true, true, true, false]);
        let games = vec![
            game(1, 2, vec![State(1), Outside]),
            game(1, 1, vec![Target]),
        ];
        assert_eq!(won(&games), vec![false, true]);
    }

    #[test]
    fn hide_or_run_witness_hides_mostly_and_runs_with_a_small_weight() {
        let g = LocalGame {
            rows: 2,
            cols: 2,
            successors: vec![State(0), Target, Target, Outside],
        };
        let in_y = |s: Successor| s != Outside;
        let at = |a: usize, b: usize| g.successors[a * g.cols + b];
        let layers = witness_layers(2, 2, at, in_y, |s| s == Target).expect("limit-sure");
        assert_eq!(layers, vec![Some(1), Some(2)]);
        let strategy = witness_strategy(&layers);
        assert!((strategy[1] / strategy[0] - LAYER_WEIGHT).abs() < 1e-12);
        assert!((strategy.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Without the safe hiding move there is no witness.
        assert_eq!(
            witness_layers(2, 2, at, |s| s == Target, |s| s == Target),
            None
        );
    }

    #[test]
    fn rounds_order_the_wins() {
        let games = [
            game(1, 1, vec![State(1)]),
            game(1, 1, vec![Target]),
            game(1, 1, vec![State(0)]),
        ];
        assert_eq!(limit_sure_wins(&games[..]), vec![Some(2), Some(1), Some(3)]);
    }
}
