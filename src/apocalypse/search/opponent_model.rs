//! Safe exploitation of a predictable opponent ("risk what you have won", Ganzfried and
//! Sandholm, "Safe opponent exploitation", 2015). The engine predicts the opponent's move,
//! either by running the pure-strategy alpha-beta player's own search or with a model learned
//! from the moves seen so far (`move_model`, for a person; a player whose moves that search
//! keeps naming is handed to the search alone), and may stray from its optimal strategy
//! towards the best reply to the prediction, but only by the value the opponent has already
//! given away. A match may keep the model from game to game (`new_game`).
//!
//! The accounting: each turn the engine plays a strategy x whose guaranteed value (against
//! every reply, in its root matrix A) is at least V - B, where V is the position's value and B
//! the budget. When the opponent then declares j, the budget becomes B + x·A e_j - V: the
//! expected value of the turn given the opponent's move, minus the position's value. That
//! amount is never negative, and V - B, in expectation, never decreases whatever the opponent
//! does, so the whole game still guarantees the start position's value against any opponent.
//! Against an opponent who plays optimally nothing is gained and nothing is risked; every
//! deviation of the opponent from optimal play (a gift) may be staked on the prediction, and a
//! right prediction returns more than it staked. The values are those of the engine's search
//! (exact in tablebase positions, depth-limited elsewhere), like every guarantee it gives.
//!
//! The default player of a match adds calculated risk (`ExploitMode::calculated_risk`):
//! outside the tablebases it also plays the best reply outright when the model's record of
//! right predictions pays for what that reply risks, and so gives up the whole game's
//! guarantee there; in tablebase positions it stays safe.

use std::time::{Duration, Instant};

use super::alphabeta::AlphaBeta;
use super::anytime::{Iteration, Limits, Searcher};
use super::move_model::MoveModel;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::tablebase::Tablebases;
use crate::rng::Rng;

/// Share of the turn's time the prediction of the opponent's move may take.
const PREDICTION_SHARE: f64 = 0.5;
/// Share of the turn's time that settling the last turn may take (a re-search of the engine's
/// played moves against a declared move that was not predicted).
const SETTLE_SHARE: f64 = 0.1;
/// Share of the time left after the prediction that is kept for valuing the engine's moves
/// against a prediction staked on fully (the alpha-beta model's, or the search's when the
/// learned model follows it): at 1 s against the alpha-beta player, keeping a tenth instead
/// scored 76.8 % over 198 games, against 81.5 % over 400 on the same openings.
const FOLLOWING_STRAY_SHARE: f64 = 0.3;
/// The same against the learned model's prediction. Small: those values are mostly in the
/// own search's table (about 3 % of a 250 ms turn in the median), valuing also gets whatever
/// the own search leaves unused, and every share kept back is taken from the own search's
/// depth (against the equilibrium engine at 250 ms: 51.8 % over 800 games with a tenth
/// everywhere, 49.1 % over 600 with 0.3, 48.1 % over 800 with this split; all within the
/// noise of 50 %).
const LEARNED_STRAY_SHARE: f64 = 0.1;

/// Predicts the alpha-beta player's move by running its search to the depth it is seen to reach,
/// inferred from its moves alone: the depth whose iterations agreed with them most often
/// lately.
#[derive(Clone, Debug)]
pub struct Predictor {
    opponent: Side,
    depth: Option<u32>,
    /// The move of every iteration completed for the last prediction not yet observed (index =
    /// depth - 1).
    by_depth: Vec<Move>,
    /// Per depth (index = depth - 1), recent agreements with the opponent's moves, each
    /// observation weighing `AGREEMENT_DECAY` times the next.
    agreements: Vec<f64>,
    /// Recent predictions that named the declared move, and all recent predictions, each
    /// weighing `RECORD_DECAY` times the next.
    named: f64,
    seen: f64,
}

/// How fast old agreements fade: the opponent's depth changes with the position.
const AGREEMENT_DECAY: f64 = 0.7;
/// How fast the record of right predictions fades: slower, since it decides whether the
/// player follows a search at all (about the last ten moves count).
const RECORD_DECAY: f64 = 0.9;

impl Predictor {
    /// A model of the alpha-beta player playing `opponent`.
    pub fn new(opponent: Side) -> Predictor {
        Predictor {
            opponent,
            depth: None,
            by_depth: Vec::new(),
            agreements: Vec::new(),
            named: 0.0,
            seen: 0.0,
        }
    }

    /// Model the same player, now playing `opponent` (a new game of a match).
    pub fn set_opponent(&mut self, opponent: Side) {
        self.opponent = opponent;
        self.by_depth.clear();
    }

    /// How often lately the prediction named the declared move (0 to 1, 0 before any).
    pub fn record(&self) -> f64 {
        if self.seen > 0.0 {
            self.named / self.seen
        } else {
            0.0
        }
    }

    /// The depth the opponent was last seen to search, if known.
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// The predicted move in `pos`: within `time` as deep as it allows (up to `max_depth`);
    /// without a clock one turn beyond the inferred depth (so that the model can follow an
    /// opponent that goes deeper), or to `max_depth` until a depth is inferred; `None` without
    /// a time or a depth to stop at.
    pub fn predict_within(
        &mut self,
        pos: &Position,
        tables: &Tablebases,
        max_depth: Option<u32>,
        time: Option<Duration>,
    ) -> Option<Move> {
        let depth = match time {
            // Every depth the time allows, so that the agreements of the depths beyond the
            // inferred one stay fresh: a few forced turns, where the opponent stops at depth 1,
            // would otherwise pin the prediction to shallow depths.
            Some(_) => max_depth,
            // Capped one beyond the engine's own depth: agreements tie at every depth that
            // names the same move, a tie goes deeper, and uncapped the depth would creep up
            // turn by turn.
            None => self
                .depth
                .map(|d| max_depth.map_or(d + 1, |m| (d + 1).min(m + 1)))
                .or(max_depth),
        };
        let limits = Limits {
            depth,
            movetime: time,
        };
        self.by_depth.clear();
        if limits.depth.is_none() && limits.movetime.is_none() {
            return None;
        }
        let by_depth = &mut self.by_depth;
        AlphaBeta::new(tables, self.opponent).search_reporting(pos, limits, |c| {
            by_depth.push(c.best);
        });
        self.prediction()
    }

    /// The move the last iterations predict: that of the inferred depth, or of the deepest
    /// iteration if it is not known or not reached.
    fn prediction(&self) -> Option<Move> {
        let depth = self.depth.map_or(self.by_depth.len(), |d| d as usize);
        let reached = depth.min(self.by_depth.len());
        self.by_depth.get(reached.checked_sub(1)?).copied()
    }

    /// Learn from the move the opponent actually declared: the inferred depth becomes the one
    /// that agreed most often lately.
    pub fn observe(&mut self, actual: Move) {
        if self.agreements.len() < self.by_depth.len() {
            self.agreements.resize(self.by_depth.len(), 0.0);
        }
        if let Some(predicted) = self.prediction() {
            self.seen = self.seen * RECORD_DECAY + 1.0;
            self.named = self.named * RECORD_DECAY + (predicted == actual) as u8 as f64;
        }
        for (d, score) in self.agreements.iter_mut().enumerate() {
            *score *= AGREEMENT_DECAY;
            if self.by_depth.get(d) == Some(&actual) {
                *score += 1.0;
            }
        }
        // On a tie the deeper depth: the player deepens as far as its time allows, and stops
        // short only where a shallow search already agrees (a forced result).
        let best = (1..=self.agreements.len())
            .filter(|&d| self.agreements[d - 1] > 0.0)
            .max_by(|&a, &b| {
                let (sa, sb) = (self.agreements[a - 1], self.agreements[b - 1]);
                if (sa - sb).abs() > 1e-9 {
                    sa.total_cmp(&sb)
                } else {
                    a.cmp(&b)
                }
            });
        if let Some(d) = best {
            self.depth = Some(d as u32);
        }
        // Each prediction is observed once.
        self.by_depth.clear();
    }
}

/// How the engine models its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// The opponent is the pure-strategy alpha-beta player: run its search.
    AlphaBeta,
    /// The opponent is unknown (a person): learn a model from its moves.
    Learned,
}

/// How an exploiting engine plays: its model of the opponent, and whether it also takes
/// calculated risks outside the tablebases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploitMode {
    /// The model of the opponent.
    pub model: ModelKind,
    /// Outside the tablebases, also stray wholly to the best reply to the prediction when the
    /// model's record says it pays: when the record r of right predictions makes
    /// r * (what the reply gains against the prediction) exceed (1 - r) * (what it risks
    /// against the worst reply). That is the best of the family "optimal strategy or best
    /// reply" against an opponent who plays the predicted move with probability r and
    /// otherwise the worst move for the engine (a restricted Nash response, Johanson, Zinkevich
    /// and Bowling 2007). It gives up the game's guarantee; tablebase positions keep it.
    pub calculated_risk: bool,
    /// With the learned model, once a player is handed to the search, keep following it
    /// until the search's record falls below `LEAVE_RECORD` (instead of `FOLLOW_RECORD`), from
    /// game to game: for matches against engines, whose record dips now and then. A person or
    /// a biased player who only sometimes plays the search's move goes back to the learned
    /// model at once.
    pub keeps_following: bool,
}

impl ExploitMode {
    /// Also take calculated risks outside the tablebases and keep following a searching
    /// player (the default player of a match, with the learned model).
    pub fn exploiting(model: ModelKind) -> ExploitMode {
        ExploitMode {
            model,
            calculated_risk: true,
            keeps_following: true,
        }
    }

    /// Stake only what the opponent has given away (the whole game keeps its guarantee).
    pub fn safe(model: ModelKind) -> ExploitMode {
        ExploitMode {
            model,
            calculated_risk: false,
            keeps_following: false,
        }
    }
}

/// The model itself. The learned one also runs the alpha-beta player's search, whose move is
/// one of its features.
#[derive(Clone, Debug)]
enum OpponentModel {
    AlphaBeta(Predictor),
    Learned(MoveModel, Predictor),
}

/// Share of the turn's time the learned model's short search may take (its move is one
/// feature among several, so it needs less than the alpha-beta model's prediction).
const SEARCH_FEATURE_SHARE: f64 = 0.25;

/// The learned model hands the prediction to the search alone once the search has named at
/// least this share of the player's recent moves (the alpha-beta player's in 85-90 % of its
/// turns, a biased player's in 50-70 %)...
const FOLLOW_RECORD: f64 = 0.8;
/// ...and the player has declared at least this many moves.
const FOLLOW_AFTER: u32 = 2;
/// With `ExploitMode::keeps_following`, a player already followed is given back to the learned
/// model only when the search's record falls below this share: a searching player's record
/// dips under `FOLLOW_RECORD` for a few turns now and then, and each dip would cost those
/// turns the full stake on the search.
const LEAVE_RECORD: f64 = 0.6;

/// A learned prediction keeps only the likeliest moves, up to this share of the probability
/// (each kept move costs a search of every engine move against it).
const PREDICTION_MASS: f64 = 0.95;
/// At most this many predicted moves are kept.
const PREDICTION_MOVES: usize = 6;

/// What one turn of safe exploitation staked, kept until the opponent's move is known.
#[derive(Clone, Debug)]
struct Stake {
    pos: Position,
    /// Turns after the root move in the root matrix's entries.
    remaining: u32,
    /// The position's value for the engine.
    value: f64,
    /// What the played strategy guarantees against every reply (the value minus the stake).
    guaranteed: f64,
    /// The engine's moves played with positive probability, with their probabilities.
    played: Vec<(Move, f64)>,
    /// The likeliest predicted move.
    predicted: Option<Move>,
    /// The values (for the engine) of `played` against each predicted move that was searched
    /// in time.
    against_predicted: Vec<(Move, Vec<f64>)>,
}

/// Counts of a game's or match's exploitation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExploitStats {
    /// Turns played with a prediction.
    pub predicted: u32,
    /// Of those, turns the opponent declared the likeliest predicted move.
    pub right: u32,
    /// Turns whose strategy strayed from the optimal one.
    pub strayed: u32,
    /// Of the predicted turns, those predicted by the search alone (the player follows it).
    pub followed: u32,
    /// Sum of the gifts (positive or negative budget changes) over the turns.
    pub gifts: f64,
}

impl ExploitStats {
    /// Add another count.
    pub fn add(&mut self, other: &ExploitStats) {
        self.predicted += other.predicted;
        self.right += other.right;
        self.strayed += other.strayed;
        self.followed += other.followed;
        self.gifts += other.gifts;
    }
}

/// What the engine thinks of its opponent after a turn, for the page and the terminal.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReport {
    /// The value the engine may stake next turn.
    pub budget: f64,
    /// How often lately the model's likeliest move was the one declared (0 to 1); the engine
    /// stakes that share of what it could.
    pub trust: f64,
    /// The learned habits: feature names and weights (empty for the alpha-beta model).
    pub habits: Vec<(&'static str, f64)>,
    /// The prediction of the turn just chosen: moves and probabilities, likeliest first.
    pub prediction: Vec<(Move, f64)>,
    /// The weight moved away from the optimal strategy this turn (0 = optimal play).
    pub strayed: f64,
    /// Whether the opponent's moves matched the engine's own short search so often lately
    /// that the search alone made the prediction (always, for the alpha-beta model).
    pub follows_search: bool,
}

/// The engine playing `side` with safe exploitation of a model of its opponent.
pub struct SafeExploiter {
    side: Side,
    budget: f64,
    model: OpponentModel,
    stake: Option<Stake>,
    observed: Option<Move>,
    prediction: Vec<(Move, f64)>,
    strayed: f64,
    /// The value the strategy chosen last put at risk (0 = it guarantees the position's value).
    staked: f64,
    /// Whether the last prediction was the search's alone (the player follows a search).
    following: bool,
    /// Whether the engine may stake more than the budget outside the tablebases.
    calculated_risk: bool,
    /// Whether a player handed to the search stays with it until its record falls low.
    keeps_following: bool,
    /// What happened so far.
    pub stats: ExploitStats,
}

impl SafeExploiter {
    /// The engine for `side` modelling the alpha-beta player, with an empty budget.
    pub fn new(side: Side) -> SafeExploiter {
        SafeExploiter::modelling(side, ModelKind::AlphaBeta)
    }

    /// The engine for `side` with the model `kind` of its opponent, staking only what the
    /// opponent gives away, with an empty budget.
    pub fn modelling(side: Side, kind: ModelKind) -> SafeExploiter {
        SafeExploiter::in_mode(side, ExploitMode::safe(kind))
    }

    /// The engine for `side` playing `mode`, with an empty budget.
    pub fn in_mode(side: Side, mode: ExploitMode) -> SafeExploiter {
        let opponent = side.opponent();
        SafeExploiter {
            side,
            budget: 0.0,
            model: match mode.model {
                ModelKind::AlphaBeta => OpponentModel::AlphaBeta(Predictor::new(opponent)),
                ModelKind::Learned => {
                    OpponentModel::Learned(MoveModel::new(opponent), Predictor::new(opponent))
                }
            },
            stake: None,
            observed: None,
            prediction: Vec::new(),
            strayed: 0.0,
            staked: 0.0,
            following: false,
            calculated_risk: mode.calculated_risk,
            keeps_following: mode.keeps_following,
            stats: ExploitStats::default(),
        }
    }

    /// Start a new game as `side` against the same opponent: what the model learned stays
    /// (and whether it follows the search), the budget and the counts start from nothing (the
    /// guarantee holds game by game).
    pub fn new_game(&mut self, side: Side) {
        self.side = side;
        match &mut self.model {
            OpponentModel::AlphaBeta(p) => p.set_opponent(side.opponent()),
            OpponentModel::Learned(m, p) => {
                m.set_side(side.opponent());
                p.set_opponent(side.opponent());
            }
        }
        self.budget = 0.0;
        self.stake = None;
        self.observed = None;
        self.prediction.clear();
        self.strayed = 0.0;
        self.staked = 0.0;
        self.stats = ExploitStats::default();
    }

    /// The engine for `side` starting with `budget` to stake (value given away earlier, in
    /// analysis and tests).
    pub fn with_budget(side: Side, budget: f64) -> SafeExploiter {
        SafeExploiter {
            budget: budget.max(0.0),
            ..SafeExploiter::new(side)
        }
    }

    /// The value the engine may still stake.
    pub fn budget(&self) -> f64 {
        self.budget
    }

    /// The side the engine plays.
    pub fn side(&self) -> Side {
        self.side
    }

    /// What the engine thinks of its opponent now.
    pub fn report(&self) -> ModelReport {
        let habits = match &self.model {
            OpponentModel::AlphaBeta(_) => Vec::new(),
            OpponentModel::Learned(m, _) => m.habits(),
        };
        ModelReport {
            budget: self.budget,
            trust: self.model_record(),
            habits,
            prediction: self.prediction.clone(),
            strayed: self.strayed,
            follows_search: self.following,
        }
    }

    /// How often lately the model's likeliest move was the one declared: the search's record
    /// when the prediction is the search's alone, the learned model's trust otherwise.
    fn model_record(&self) -> f64 {
        match &self.model {
            OpponentModel::AlphaBeta(p) => p.record(),
            OpponentModel::Learned(m, p) => {
                if self.following {
                    p.record()
                } else {
                    m.trust()
                }
            }
        }
    }

    /// A White value for the engine's side.
    fn own(&self, white_value: f64) -> f64 {
        match self.side {
            Side::White => white_value,
            Side::Black => -white_value,
        }
    }

    fn joint(&self, mine: Move, theirs: Move) -> (Move, Move) {
        match self.side {
            Side::White => (mine, theirs),
            Side::Black => (theirs, mine),
        }
    }

    /// Record the move the opponent declared on the turn just played; it is settled at the
    /// start of the next turn (on the engine's clock).
    pub fn observe(&mut self, opponent_move: Move) {
        self.observed = Some(opponent_move);
    }

    /// Settle the last turn's stake against the observed move: the budget changes by the
    /// turn's expected value given that move, minus the position's value. Values not found
    /// while choosing are searched by `deadline`; if that runs out, the turn counts as if the
    /// opponent had found the reply the strategy was weakest against (its guarantee), which
    /// never overstates a gift. Without that bound a re-search at the depth a quick iteration
    /// reached in an endgame can run for minutes.
    fn settle(&mut self, tables: &Tablebases, deadline: Option<Instant>) {
        let (Some(stake), Some(actual)) = (self.stake.take(), self.observed.take()) else {
            return;
        };
        match &mut self.model {
            OpponentModel::AlphaBeta(p) => {
                log::debug!(
                    "model: predicted {:?} (depth {:?}, iterations {:?}), declared {:?}",
                    stake.predicted,
                    p.depth,
                    p.by_depth,
                    actual
                );
                p.observe(actual);
            }
            OpponentModel::Learned(m, p) => {
                m.observe(actual);
                p.observe(actual);
                log::debug!(
                    "model: predicted {:?}, declared {:?}; trust {:.2}, habits {:?}",
                    stake.predicted,
                    actual,
                    m.trust(),
                    m.habits()
                );
            }
        }
        self.stats.right += (stake.predicted == Some(actual)) as u32;
        let known = stake
            .against_predicted
            .iter()
            .find(|(m, _)| *m == actual)
            .map(|(_, values)| values.clone());
        let values: Option<Vec<f64>> = known.or_else(|| {
            let searcher = Searcher::new(tables);
            stake
                .played
                .iter()
                .map(|&(mine, _)| {
                    let (w, b) = self.joint(mine, actual);
                    searcher
                        .joint_value(&stake.pos, w, b, stake.remaining, deadline)
                        .map(|v| self.own(v))
                })
                .collect()
        });
        let expected: f64 = match values {
            Some(values) => stake
                .played
                .iter()
                .zip(&values)
                .map(|(&(_, p), v)| p * v)
                .sum(),
            None => {
                log::debug!("model: no time to settle the turn, counted at its guarantee");
                stake.guaranteed
            }
        };
        let gift = expected - stake.value;
        self.stats.gifts += gift;
        self.budget = (self.budget + gift).max(0.0);
    }

    /// The engine's move in `pos` within `limits`. The alpha-beta model's prediction takes half
    /// of the turn, the learned model's short search a quarter (without a movetime, both search
    /// to the engine's depth). Returns the move, the search's iteration and the strategy
    /// actually played (in the iteration's move order).
    pub fn choose(
        &mut self,
        pos: &Position,
        limits: Limits,
        tables: &Tablebases,
        rng: &mut Rng,
    ) -> Option<(Move, Iteration, Vec<f64>)> {
        let started = Instant::now();
        let deadline = limits.movetime.map(|t| started + t);
        self.settle(
            tables,
            limits.movetime.map(|t| started + t.mul_f64(SETTLE_SHARE)),
        );
        // A player whose moves the search has been naming is predicted by the search alone,
        // given the alpha-beta model's time; anyone else by the learned model.
        let was_following = self.following && self.keeps_following;
        let (predictor, following) = match &mut self.model {
            OpponentModel::AlphaBeta(p) => (p, true),
            OpponentModel::Learned(m, p) => {
                let follows = follows_search(was_following, m.observed, p.record());
                (p, follows)
            }
        };
        let (share, stray_share) = if following {
            (PREDICTION_SHARE, FOLLOWING_STRAY_SHARE)
        } else {
            (SEARCH_FEATURE_SHARE, LEARNED_STRAY_SHARE)
        };
        let pure_prediction = predictor.predict_within(
            pos,
            tables,
            limits.depth,
            limits.movetime.map(|t| t.mul_f64(share)),
        );
        let left = |now: Instant| deadline.map(|d| d.saturating_duration_since(now));
        let own_limits = Limits {
            movetime: left(Instant::now())
                .map(|t| t.mul_f64(1.0 - stray_share).max(Duration::from_millis(1))),
            ..limits
        };
        let mut searcher = Searcher::new(tables);
        let it = searcher.search(pos, own_limits, |_| {})?;
        let (moves, optimal) = it.root.strategy(self.side);
        let value = self.own(it.root.value);
        let remaining = it.depth - 1;
        let pure = || pure_prediction.map(|m| vec![(m, 1.0)]).unwrap_or_default();
        // The stake is scaled by how often the model has been right: its values come from a
        // depth-limited search, so a gift the model seems to make may be an illusion of the
        // horizon, and a badly predicted opponent would eat it.
        let (prediction, confidence) = match &mut self.model {
            OpponentModel::AlphaBeta(_) => (pure(), 1.0),
            OpponentModel::Learned(model, _) => {
                let (theirs, prior) = it.root.strategy(self.side.opponent());
                // Predicted even when the search decides, so that the model keeps learning.
                let probs = model.predict(pos, theirs, prior, pure_prediction);
                // A player who follows the search is staked on as fully as the alpha-beta
                // player is by its own model.
                if following {
                    (pure(), 1.0)
                } else {
                    (likeliest(theirs, &probs), model.trust())
                }
            }
        };
        self.following = following;
        let risk_odds =
            (self.calculated_risk && tables.value(pos).is_none()).then(|| self.model_record());
        self.prediction = prediction.clone();
        self.strayed = 0.0;
        self.staked = 0.0;
        let mut strategy = optimal.to_vec();
        let mut against_predicted = Vec::new();
        if !prediction.is_empty() {
            self.stats.predicted += 1;
            self.stats.followed += following as u32;
            against_predicted = self.stray(
                &searcher,
                pos,
                &it,
                &prediction,
                confidence,
                risk_odds,
                value,
                deadline,
                &mut strategy,
            );
        }
        let in_play: Vec<usize> = (0..moves.len()).filter(|&i| strategy[i] > 0.0).collect();
        let played = in_play.iter().map(|&i| (moves[i], strategy[i])).collect();
        let against_predicted = against_predicted
            .into_iter()
            .map(|(m, values)| (m, in_play.iter().map(|&i| values[i]).collect()))
            .collect();
        self.stake = Some(Stake {
            pos: *pos,
            remaining,
            value,
            guaranteed: value - self.staked,
            played,
            predicted: prediction.first().map(|&(m, _)| m),
            against_predicted,
        });
        let m = moves[rng.pick(&strategy)];
        Some((m, it, strategy))
    }

    /// Move weight from the optimal `strategy` to the best reply to the `prediction` (moves
    /// and probabilities), as far as the budget allows and scaled by the model's
    /// `confidence`; returns the engine's value of each of its moves against every predicted
    /// move searched in time (all of them, or the strategy is left optimal).
    #[allow(clippy::too_many_arguments)]
    fn stray(
        &mut self,
        searcher: &Searcher,
        pos: &Position,
        it: &Iteration,
        prediction: &[(Move, f64)],
        confidence: f64,
        risk_odds: Option<f64>,
        value: f64,
        deadline: Option<Instant>,
        strategy: &mut [f64],
    ) -> Vec<(Move, Vec<f64>)> {
        let (moves, _) = it.root.strategy(self.side);
        let (replies, _) = it.root.strategy(self.side.opponent());
        let remaining = it.depth - 1;
        let mut columns: Vec<(Move, Vec<f64>)> = Vec::with_capacity(prediction.len());
        for &(theirs, _) in prediction {
            let mut column = Vec::with_capacity(moves.len());
            for &mine in moves {
                let (w, b) = self.joint(mine, theirs);
                match searcher.joint_value(pos, w, b, remaining, deadline) {
                    Some(v) => column.push(self.own(v)),
                    None => return columns,
                }
            }
            columns.push((theirs, column));
        }
        // A won position is played by its own (progress) strategy.
        if value >= 1.0 - 1e-12 || confidence <= 0.0 {
            return columns;
        }
        let against: Vec<f64> = (0..moves.len())
            .map(|i| {
                prediction
                    .iter()
                    .zip(&columns)
                    .map(|(&(_, p), (_, column))| p * column[i])
                    .sum()
            })
            .collect();
        let optimal_payoff: f64 = strategy.iter().zip(&against).map(|(p, v)| p * v).sum();
        let Some((best, &best_payoff)) =
            against.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))
        else {
            return columns;
        };
        if best_payoff <= optimal_payoff + 1e-9 {
            return columns;
        }
        // The best reply's own guarantee: its worst value against every reply.
        let mut floor = f64::INFINITY;
        for &reply in replies {
            let (w, b) = self.joint(moves[best], reply);
            match searcher.joint_value(pos, w, b, remaining, deadline) {
                Some(v) => floor = floor.min(self.own(v)),
                None => return columns,
            }
        }
        let room = Room {
            risk: value - floor,
            gain: best_payoff - optimal_payoff,
        };
        let weight = stray_weight(room, self.budget, confidence, risk_odds);
        if weight <= 1e-6 {
            return columns;
        }
        for p in strategy.iter_mut() {
            *p *= 1.0 - weight;
        }
        strategy[best] += weight;
        self.strayed = weight;
        self.staked = weight * room.risk.max(0.0);
        self.stats.strayed += 1;
        columns
    }
}

/// Whether the learned model hands the prediction to the search alone, given whether it did
/// last turn (and may keep doing so), how many moves the player has declared and the search's
/// `record` of naming them: it enters at `FOLLOW_RECORD` and leaves only below `LEAVE_RECORD`.
fn follows_search(was_following: bool, observed: u32, record: f64) -> bool {
    let threshold = if was_following {
        LEAVE_RECORD
    } else {
        FOLLOW_RECORD
    };
    observed >= FOLLOW_AFTER && record >= threshold
}

/// What straying wholly to the best reply to the prediction would change.
#[derive(Clone, Copy, Debug)]
struct Room {
    /// How far the best reply's worst value against every reply falls below the position's
    /// value (0 or less: it risks nothing).
    risk: f64,
    /// What the best reply earns over the optimal strategy against the prediction (> 0).
    gain: f64,
}

/// The weight moved from the optimal strategy to the best reply: the share of the risk the
/// `budget` covers (all of it when there is no risk), scaled by the model's `confidence`. With
/// `risk_odds` r, the chance that the prediction is right (given outside the tablebases only),
/// all of it when r * gain > (1 - r) * risk: against an opponent who plays the prediction with
/// probability r and otherwise the engine's worst reply, the best reply then earns more than
/// the optimal strategy.
fn stray_weight(room: Room, budget: f64, confidence: f64, risk_odds: Option<f64>) -> f64 {
    if risk_odds.is_some_and(|r| r * room.gain > (1.0 - r) * room.risk) {
        return 1.0;
    }
    confidence
        * if room.risk <= 0.0 {
            1.0
        } else {
            (budget / room.risk).min(1.0)
        }
}

/// The likeliest of `moves` under `probs`, most likely first, until `PREDICTION_MASS` of the
/// probability or `PREDICTION_MOVES` moves, renormalised.
fn likeliest(moves: &[Move], probs: &[f64]) -> Vec<(Move, f64)> {
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let mut kept = Vec::new();
    let mut mass = 0.0;
    for i in order {
        if mass >= PREDICTION_MASS || kept.len() >= PREDICTION_MOVES {
            break;
        }
        kept.push((moves[i], probs[i]));
        mass += probs[i];
    }
    for entry in &mut kept {
        entry.1 /= mass.max(1e-12);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::moves::legal_moves;
    use crate::apocalypse::rules::resolve::resolve;
    use crate::apocalypse::rules::ruleset::RuleSet;

    /// The budget after settling, with the deadline already passed, a stake of 0.2 (value 0.1,
    /// guarantee -0.1) on White's first two start moves at even odds, which were valued
    /// against Black's first move only (`known` = those two values), when Black declared
    /// its move number `declared`.
    fn budget_after_settling(known: [f64; 2], declared: usize) -> f64 {
        let tables = Tablebases::none(RuleSet::Classic);
        let pos = Position::start();
        let mine = legal_moves(&pos, Side::White, RuleSet::Classic);
        let theirs = legal_moves(&pos, Side::Black, RuleSet::Classic);
        let mut exploiter = SafeExploiter::with_budget(Side::White, 0.3);
        exploiter.stake = Some(Stake {
            pos,
            remaining: 3,
            value: 0.1,
            guaranteed: -0.1,
            played: vec![(mine[0], 0.5), (mine[1], 0.5)],
            predicted: Some(theirs[0]),
            against_predicted: vec![(theirs[0], known.to_vec())],
        });
        exploiter.observe(theirs[declared]);
        exploiter.settle(&tables, Some(Instant::now() - Duration::from_millis(1)));
        exploiter.budget()
    }

    #[test]
    fn the_search_record_is_the_recent_share_of_predictions_that_named_the_move() {
        let pos = Position::start();
        let theirs = legal_moves(&pos, Side::Black, RuleSet::Classic);
        let mut predictor = Predictor::new(Side::Black);
        assert_eq!(predictor.record(), 0.0);
        // Depth 1 names theirs[0], depth 2 theirs[1], which is predicted (the deepest, then
        // the inferred depth); the player declares theirs[1] twice.
        let predict = |p: &mut Predictor| p.by_depth = vec![theirs[0], theirs[1]];
        for _ in 0..2 {
            predict(&mut predictor);
            predictor.observe(theirs[1]);
        }
        assert_eq!(predictor.depth(), Some(2));
        assert!((predictor.record() - 1.0).abs() < 1e-12);
        // Then a move no depth named: the record falls to (0.9 + 0.81) / (1 + 0.9 + 0.81).
        predict(&mut predictor);
        predictor.observe(theirs[2]);
        assert!((predictor.record() - 1.71 / 2.71).abs() < 1e-12);
        // A turn without a prediction does not count.
        predictor.observe(theirs[2]);
        assert!((predictor.record() - 1.71 / 2.71).abs() < 1e-12);
    }

    #[test]
    fn with_a_clock_the_prediction_searches_beyond_the_inferred_depth() {
        let tables = Tablebases::none(RuleSet::Classic);
        let pos = Position::start();
        let mut predictor = Predictor::new(Side::Black);
        predictor.depth = Some(1);
        // Without a clock: one turn beyond the inferred depth, whatever the cap allows.
        predictor.predict_within(&pos, &tables, Some(6), None);
        assert_eq!(predictor.by_depth.len(), 2);
        // With one, as deep as the time allows (the cap still holds).
        predictor.predict_within(&pos, &tables, Some(3), Some(Duration::from_secs(60)));
        assert_eq!(predictor.by_depth.len(), 3);
        // The prediction is still the inferred depth's move.
        assert_eq!(predictor.prediction(), predictor.by_depth.first().copied());
    }

    #[test]
    fn a_turn_without_time_to_settle_counts_at_its_guarantee() {
        // A reply not valued while choosing: the re-search gives up at once and the turn
        // counts as the worst reply would, 0.3 + (-0.1 - 0.1).
        let budget = budget_after_settling([0.4, 0.4], 1);
        assert!((budget - 0.1).abs() < 1e-12, "{budget}");
        // The predicted reply: no search, the known values count, 0.3 + (0.3 - 0.1).
        let budget = budget_after_settling([0.4, 0.2], 0);
        assert!((budget - 0.5).abs() < 1e-12, "{budget}");
    }

    #[test]
    fn the_hand_off_to_the_search_enters_high_and_leaves_low() {
        // Not before two declared moves, whatever the record.
        assert!(!follows_search(false, 1, 1.0));
        assert!(!follows_search(true, 1, 1.0));
        // A record between the two thresholds keeps the state it finds.
        let between = (FOLLOW_RECORD + LEAVE_RECORD) / 2.0;
        assert!(!follows_search(false, 5, between));
        assert!(follows_search(true, 5, between));
        assert!(follows_search(false, 5, FOLLOW_RECORD));
        assert!(!follows_search(true, 5, LEAVE_RECORD - 0.01));
    }

    #[test]
    fn calculated_risk_strays_wholly_only_when_the_record_pays_for_the_risk() {
        let room = Room {
            risk: 0.3,
            gain: 0.1,
        };
        // Without odds, the share of the risk the budget covers, scaled by the confidence.
        assert!((stray_weight(room, 0.15, 0.5, None) - 0.25).abs() < 1e-12);
        // Right 80 % of the time: 0.08 gained against 0.06 risked.
        assert_eq!(stray_weight(room, 0.0, 0.5, Some(0.8)), 1.0);
        // Right 70 % of the time: 0.07 against 0.09, back to the budget.
        assert!((stray_weight(room, 0.15, 0.5, Some(0.7)) - 0.25).abs() < 1e-12);
        // A reply that risks nothing is played whatever the odds.
        let safe = Room {
            risk: -0.1,
            gain: 0.1,
        };
        assert_eq!(stray_weight(safe, 0.0, 1.0, Some(0.0)), 1.0);
    }

    /// An exploiter of the alpha-beta player with calculated risk, no budget, and a model
    /// that named every move it predicted.
    fn trusting_risk_taker(side: Side) -> SafeExploiter {
        let mut engine =
            SafeExploiter::in_mode(side, ExploitMode::exploiting(ModelKind::AlphaBeta));
        if let OpponentModel::AlphaBeta(p) = &mut engine.model {
            p.named = 5.0;
            p.seen = 5.0;
        }
        engine
    }

    #[test]
    fn calculated_risk_is_taken_outside_the_tablebases_and_never_inside() {
        use crate::apocalypse::rules::board::{rank_of, Piece};
        use crate::apocalypse::rules::outcome::outcome;
        use crate::apocalypse::tablebase::build::{build, BuildOptions};

        let rules = RuleSet::Classic;
        let limits = Limits::new(Some(2), None);
        let mut rng = Rng::new(0xCA1C_0001);
        // Outside the tablebases (none here) the trusting engine stakes what it does not have.
        let none = Tablebases::none(rules);
        let mut risked = 0;
        for n in 0..12 {
            let side = if n % 2 == 0 { Side::White } else { Side::Black };
            let mut pos = Position::start();
            for _ in 0..2 {
                let w = legal_moves(&pos, Side::White, rules);
                let b = legal_moves(&pos, Side::Black, rules);
                pos = resolve(&pos, [w[rng.below(w.len())], b[rng.below(b.len())]]).0;
            }
            if outcome(&pos, rules).is_over() {
                continue;
            }
            let mut engine = trusting_risk_taker(side);
            engine.choose(&pos, limits, &none, &mut rng);
            risked += (engine.staked > 1e-9) as u32;
        }
        assert!(risked >= 1, "no risk taken in 12 positions");

        // Inside them it keeps the exact value, though the exact matrix tempts it.
        let dir = std::env::temp_dir().join(format!("apoc-risk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut opts = BuildOptions::new(3, rules, dir.clone());
        opts.progress = false;
        build(&opts, |_| {}).expect("a 3-piece build");
        let tables = Tablebases::open(&dir, rules);
        let (mut positions, mut tempting) = (0, 0);
        while positions < 40 {
            let mut pos = Position::empty();
            let mut squares: Vec<u8> = (0..25).collect();
            let horseman_side = if rng.below(2) == 0 {
                Side::White
            } else {
                Side::Black
            };
            for (side, piece) in [
                (Side::White, Piece::Footman),
                (Side::Black, Piece::Footman),
                (horseman_side, Piece::Horseman),
            ] {
                let square = squares.swap_remove(rng.below(squares.len()));
                if piece == Piece::Footman && rank_of(square) == side.last_rank() {
                    squares.push(square);
                    continue;
                }
                pos.put(side, piece, square);
            }
            pos.refresh_key();
            if outcome(&pos, rules).is_over() || tables.value(&pos).is_none() {
                continue;
            }
            positions += 1;
            let side = if positions % 2 == 0 {
                Side::White
            } else {
                Side::Black
            };
            let sign = if side == Side::White { 1.0 } else { -1.0 };
            let mut engine = trusting_risk_taker(side);
            let (_, it, strategy) = engine.choose(&pos, limits, &tables, &mut rng).unwrap();
            let game = tables.root_game(&pos).unwrap();
            let exact = sign * tables.value(&pos).unwrap();
            let guarantee = match side {
                Side::White => game.matrix.row_guarantee(&strategy),
                Side::Black => -game.matrix.col_guarantee(&strategy),
            };
            assert!(guarantee >= exact - 1e-9, "{pos:?}: {guarantee} < {exact}");
            // Would a best reply to the prediction have gained, at a risk?
            let predicted = engine.stake.as_ref().and_then(|s| s.predicted);
            let (mine, optimal) = it.root.strategy(side);
            let (theirs, _) = it.root.strategy(side.opponent());
            let Some(j) = predicted.and_then(|m| theirs.iter().position(|&t| t == m)) else {
                continue;
            };
            let entry = |i: usize, j: usize| match side {
                Side::White => game.matrix.at(i, j),
                Side::Black => -game.matrix.at(j, i),
            };
            let against: Vec<f64> = (0..mine.len()).map(|i| entry(i, j)).collect();
            let optimal_payoff: f64 = optimal.iter().zip(&against).map(|(p, v)| p * v).sum();
            let tempted = (0..mine.len()).any(|i| {
                let floor = (0..theirs.len()).map(|k| entry(i, k)).fold(1.0, f64::min);
                against[i] > optimal_payoff + 1e-6 && floor < exact - 1e-6
            });
            tempting += tempted as u32;
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(tempting >= 1, "no tablebase position tempted the engine");
    }
}
