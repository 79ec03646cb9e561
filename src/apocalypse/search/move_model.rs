//! A model of a person (or any player whose program is unknown) learned from the moves they
//! declare: a log-linear choice model over a few features of each move, whose prior is the
//! engine's own equilibrium strategy for that player. Before it has seen anything it predicts
//! equilibrium play, which gives the engine nothing to stray towards; every declared move is
//! one step of online gradient ascent on its log-likelihood, so habits (always capturing,
//! never moving an attacked piece, preferring one kind of piece) show up as feature weights.
//! One feature is the move a short pure-strategy search picks for the player (most players,
//! and every program but an equilibrium one, follow some search of their own), so the model
//! can also learn how far the player plays by calculation.
//!
//! The model also keeps score of itself: how often lately its likeliest move was the one
//! declared (its trust, shown to the person, which scales what the engine stakes on it).

use crate::apocalypse::rules::board::{rank_mask, Position, Side};
use crate::apocalypse::rules::moves::{attacked_squares, Move};

/// Features of a move (after the prior's log-probability, which has its own weight).
const FEATURES: usize = 9;
/// Feature names, for the log and the page.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "captures a footman",
    "captures a horseman",
    "moves an attacked piece",
    "leaves an attacked piece standing",
    "moves a horseman",
    "steps a footman forward",
    "lands on an attacked square",
    "declares the null move",
    "plays the move a short search picks",
];
/// The prior probability floor: a move the equilibrium never plays is still possible.
const PRIOR_FLOOR: f64 = 0.02;
/// Gradient step on the log-likelihood of each declared move.
const LEARNING_RATE: f64 = 0.5;
/// Weights stay within this bound (a few habits must not make the model certain).
const MAX_WEIGHT: f64 = 6.0;
/// How fast the self-assessment forgets: the person may change their play.
const SCORE_DECAY: f64 = 0.85;

/// The features of `side`'s move `m` in `pos`, where a short search picks `searched`.
fn features(pos: &Position, side: Side, m: Move, searched: Option<Move>) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    f[8] = (searched == Some(m)) as u8 as f64;
    if m.is_forfeit() {
        f[7] = 1.0;
        return f;
    }
    let enemy = side.opponent();
    let (from, to) = (1u32 << m.from, 1u32 << m.to);
    let threatened = pos.pieces(side) & attacked_squares(pos, enemy);
    let horseman = pos.horsemen[side.index()] & from != 0;
    f[0] = (pos.footmen[enemy.index()] & to != 0) as u8 as f64;
    f[1] = (pos.horsemen[enemy.index()] & to != 0) as u8 as f64;
    f[2] = (threatened & from != 0) as u8 as f64;
    f[3] = (threatened & !from != 0) as u8 as f64;
    f[4] = horseman as u8 as f64;
    f[5] = (!horseman && pos.pieces(enemy) & to == 0 && rank_mask(side.last_rank()) & to == 0) as u8
        as f64;
    f[6] = (attacked_squares(pos, enemy) & (1 << m.destination()) != 0) as u8 as f64;
    f
}

/// The model of the player of one side.
#[derive(Clone, Debug)]
pub struct MoveModel {
    side: Side,
    /// Weight of the prior's log-probability.
    prior_weight: f64,
    weights: [f64; FEATURES],
    /// The last prediction: the moves with their features, prior and predicted probability.
    last: Vec<(Move, [f64; FEATURES], f64, f64)>,
    /// Decayed counts of observations and of top-move hits.
    seen: f64,
    hits: f64,
    /// Moves observed so far.
    pub observed: u32,
}

impl MoveModel {
    /// A model of the player of `side`, predicting equilibrium play until it learns.
    pub fn new(side: Side) -> MoveModel {
        MoveModel {
            side,
            prior_weight: 1.0,
            weights: [0.0; FEATURES],
            last: Vec::new(),
            seen: 0.0,
            hits: 0.0,
            observed: 0,
        }
    }

    /// Model the same player, now playing `side` (a new game of a match; the features are
    /// the same for either colour).
    pub fn set_side(&mut self, side: Side) {
        self.side = side;
        self.last.clear();
    }

    /// The predicted probability of each of the player's `moves` in `pos`, given the engine's
    /// equilibrium strategy `prior` for that player (same order) and the move a short
    /// pure-strategy search picks for the player, if one was searched.
    pub fn predict(
        &mut self,
        pos: &Position,
        moves: &[Move],
        prior: &[f64],
        searched: Option<Move>,
    ) -> Vec<f64> {
        self.last.clear();
        let mut scores = Vec::with_capacity(moves.len());
        for (&m, &q) in moves.iter().zip(prior) {
            let f = features(pos, self.side, m, searched);
            let q = q.max(0.0) + PRIOR_FLOOR;
            let s = self.prior_weight * q.ln()
                + f.iter().zip(&self.weights).map(|(x, w)| x * w).sum::<f64>();
            scores.push(s);
            self.last.push((m, f, q, 0.0));
        }
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = exps.iter().sum();
        let probs: Vec<f64> = exps.iter().map(|e| e / total).collect();
        for (entry, &p) in self.last.iter_mut().zip(&probs) {
            entry.3 = p;
        }
        probs
    }

    /// Learn from the move the player declared after the last prediction.
    pub fn observe(&mut self, actual: Move) {
        let Some(k) = self.last.iter().position(|e| e.0 == actual) else {
            return;
        };
        self.observed += 1;
        let top = self
            .last
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .3.total_cmp(&b.1 .3))
            .map(|(i, _)| i);
        self.seen = self.seen * SCORE_DECAY + 1.0;
        self.hits = self.hits * SCORE_DECAY + (top == Some(k)) as u8 as f64;
        // The gradient of log p(actual): its features minus their expectation.
        let expected_prior: f64 = self.last.iter().map(|e| e.3 * e.2.ln()).sum();
        self.prior_weight = (self.prior_weight
            + LEARNING_RATE * (self.last[k].2.ln() - expected_prior))
            .clamp(0.0, MAX_WEIGHT);
        for i in 0..FEATURES {
            let expected: f64 = self.last.iter().map(|e| e.3 * e.1[i]).sum();
            self.weights[i] = (self.weights[i] + LEARNING_RATE * (self.last[k].1[i] - expected))
                .clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
    }

    /// How often lately the model's likeliest move was the one declared (0 before any).
    pub fn trust(&self) -> f64 {
        if self.seen > 0.0 {
            self.hits / self.seen
        } else {
            0.0
        }
    }

    /// The feature weights learned so far, by name (for the log and the page).
    pub fn habits(&self) -> Vec<(&'static str, f64)> {
        FEATURE_NAMES
            .iter()
            .copied()
            .zip(self.weights.iter().copied())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::moves::legal_moves;
    use crate::apocalypse::rules::notation::{format_move, parse_position};
    use crate::apocalypse::rules::ruleset::RuleSet;

    /// The start position, White's legal moves, a uniform prior over them and a fresh model
    /// of White.
    fn start_with_uniform_prior() -> (Position, Vec<Move>, Vec<f64>, MoveModel) {
        let pos = parse_position("start").unwrap();
        let moves = legal_moves(&pos, Side::White, RuleSet::Classic);
        let prior = vec![1.0 / moves.len() as f64; moves.len()];
        (pos, moves, prior, MoveModel::new(Side::White))
    }

    #[test]
    fn before_learning_it_predicts_the_prior() {
        let pos = Position::start();
        let moves = legal_moves(&pos, Side::White, RuleSet::Classic);
        let prior: Vec<f64> = (0..moves.len()).map(|i| (i == 0) as u8 as f64).collect();
        let mut model = MoveModel::new(Side::White);
        let p = model.predict(&pos, &moves, &prior, None);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let top = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
        assert_eq!(top, 0);
        assert_eq!(model.trust(), 0.0);
        // A player who always plays the prior's likeliest move is predicted right every time.
        for _ in 0..5 {
            model.predict(&pos, &moves, &prior, None);
            model.observe(moves[0]);
        }
        assert!((model.trust() - 1.0).abs() < 1e-12, "{}", model.trust());
        assert_eq!(model.observed, 5);
    }

    #[test]
    fn it_learns_a_habit_the_prior_does_not_have() {
        // The player always moves a horseman; the prior is uniform.
        let (pos, moves, prior, mut model) = start_with_uniform_prior();
        let horseman_move = moves
            .iter()
            .copied()
            .find(|m| format_move(*m) == "a1b3")
            .unwrap();
        let before = model.predict(&pos, &moves, &prior, None);
        let k = moves.iter().position(|&m| m == horseman_move).unwrap();
        for _ in 0..10 {
            model.predict(&pos, &moves, &prior, None);
            model.observe(horseman_move);
        }
        let after = model.predict(&pos, &moves, &prior, None);
        assert!(after[k] > 2.0 * before[k], "{} -> {}", before[k], after[k]);
        let horsemen: f64 = model
            .habits()
            .iter()
            .filter(|(name, _)| *name == "moves a horseman")
            .map(|(_, w)| *w)
            .sum();
        assert!(horsemen > 0.5, "{horsemen}");
    }

    #[test]
    fn it_learns_to_follow_a_search_the_player_follows() {
        // The player always plays the searched move, which the uniform prior does not favour
        // and no other feature singles out: the first (quiet footman) move each turn.
        let (pos, moves, prior, mut model) = start_with_uniform_prior();
        let pick = |turn: usize| moves[turn % moves.len()];
        for turn in 0..12 {
            model.predict(&pos, &moves, &prior, Some(pick(turn)));
            model.observe(pick(turn));
        }
        let p = model.predict(&pos, &moves, &prior, Some(pick(12)));
        let k = moves.iter().position(|&m| m == pick(12)).unwrap();
        assert!(p[k] > 0.5, "{}", p[k]);
        assert!(model.trust() > 0.5, "{}", model.trust());
        // Without a searched move the model is back to the prior's spread.
        let p = model.predict(&pos, &moves, &prior, None);
        assert!(p.iter().all(|&q| q < 0.5), "{p:?}");
    }
}
