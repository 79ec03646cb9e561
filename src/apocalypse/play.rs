//! Playing games: the engine's move drawn from its search, engine matches against a
//! uniform-random player, the pure-strategy alpha-beta player, a scripted biased player or
//! itself, their score and the audit of the engine's play in tablebase positions.

use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{legal_moves, Move};
use crate::apocalypse::rules::notation::{format_move, format_position};
use crate::apocalypse::rules::outcome::{outcome, Outcome, Reason, QUIET_LIMIT};
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::search::alphabeta::AlphaBeta;
use crate::apocalypse::search::anytime::{Iteration, Limits, Searcher};
use crate::apocalypse::search::opponent_model::{ExploitMode, ExploitStats, SafeExploiter};
use crate::apocalypse::search::scripted::{scripted_move, Bias};
use crate::apocalypse::tablebase::Tablebases;
use crate::rng::Rng;

/// Turns after which a game is scored a draw (redeploys can reset the quiet counter forever).
pub const MAX_TURNS: u32 = 1000;

/// The engine's move for `side`: searched within `limits`, drawn from its mixed strategy.
pub fn engine_move(
    pos: &Position,
    side: Side,
    limits: Limits,
    tables: &Tablebases,
    rng: &mut Rng,
) -> (Move, Option<Iteration>) {
    let Some(it) = Searcher::new(tables).search(pos, limits, |_| {}) else {
        return (Move::FORFEIT, None);
    };
    let (moves, probs) = it.root.strategy(side);
    let m = moves[rng.pick(probs)];
    (m, Some(it))
}

/// A uniformly random legal move under `rules` (the forfeit only when there is none).
pub fn random_move(pos: &Position, side: Side, rules: RuleSet, rng: &mut Rng) -> Move {
    let moves = legal_moves(pos, side, rules);
    if moves.is_empty() {
        Move::FORFEIT
    } else {
        moves[rng.below(moves.len())]
    }
}

/// A position `turns` turns after `start`, both sides playing uniformly random legal moves,
/// where the game is still on: the varied openings of a match (an engine and a deterministic
/// opponent would otherwise replay the same game). Tries again from `start` when a random
/// game ends early; `None` if no attempt stays unfinished.
pub fn random_opening(
    start: &Position,
    turns: u32,
    rules: RuleSet,
    rng: &mut Rng,
) -> Option<Position> {
    const ATTEMPTS: u32 = 1000;
    'attempt: for _ in 0..ATTEMPTS {
        let mut pos = *start;
        for _ in 0..turns {
            if outcome(&pos, rules).is_over() {
                continue 'attempt;
            }
            let joint = [
                random_move(&pos, Side::White, rules, rng),
                random_move(&pos, Side::Black, rules, rng),
            ];
            pos = resolve(&pos, joint).0;
        }
        if !outcome(&pos, rules).is_over() {
            return Some(pos);
        }
    }
    None
}

/// Who plays a side in a match.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Player {
    /// The searching engine.
    Engine,
    /// The searching engine exploiting a model of its opponent (`search::opponent_model`): it
    /// strays from its optimal strategy by the value the opponent has given away, and in the
    /// mode with calculated risks also further outside the tablebases.
    Exploiter(ExploitMode),
    /// Uniform over legal moves.
    Random,
    /// The pure-strategy serialized alpha-beta player (`search::alphabeta`), with the
    /// engine's time per turn and this depth cap (the engine's depth limit when `None`).
    AlphaBeta(Option<u32>),
    /// The alpha-beta player (with this depth cap) playing the best of the moves its bias
    /// prefers (`scripted`).
    Scripted(Bias, Option<u32>),
}

/// How the engine played in tablebase positions during a match: whether its mixed strategy
/// kept the exact value against every reply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TablebaseAudit {
    /// Engine turns in positions the tablebases cover (away from the 50-turn limit).
    pub turns: u32,
    /// Turns whose strategy guaranteed the exact value.
    pub kept: u32,
    /// Turns in limit-sure wins, where the winning strategy takes a deliberate small risk to
    /// make progress (no strategy both keeps the value and wins; see `ProgressStrategy`).
    pub progress: u32,
    /// Turns of an exploiting engine whose strategy staked part of the value the opponent had
    /// given away (below the exact value by at most its budget).
    pub staked: u32,
    /// Turns whose strategy gave away value: the property the engine must never break.
    pub lost: u32,
}

impl TablebaseAudit {
    /// Audit one engine turn; `budget` is what an exploiting engine may stake (0 otherwise).
    fn record(
        &mut self,
        pos: &Position,
        side: Side,
        strategy: &[f64],
        tables: &Tablebases,
        budget: f64,
    ) {
        if pos.quiet as u32 + 1 >= QUIET_LIMIT {
            return;
        }
        let (Some(exact), Ok(game)) = (tables.value(pos), tables.root_game(pos)) else {
            return;
        };
        self.turns += 1;
        let shortfall = match side {
            Side::White => exact - game.matrix.row_guarantee(strategy),
            Side::Black => game.matrix.col_guarantee(strategy) - exact,
        };
        if shortfall <= 1e-9 {
            self.kept += 1;
        } else if tables
            .progress_strategy(pos)
            .is_some_and(|p| p.winner == side && !p.sure)
        {
            self.progress += 1;
        } else if shortfall <= budget + 1e-9 {
            self.staked += 1;
        } else {
            self.lost += 1;
        }
    }

    /// Add another audit's counts.
    pub fn add(&mut self, other: &TablebaseAudit) {
        self.turns += other.turns;
        self.kept += other.kept;
        self.progress += other.progress;
        self.staked += other.staked;
        self.lost += other.lost;
    }
}

/// Play one game from `start`; returns the final outcome (a draw after `MAX_TURNS`), the
/// audit of the engine's tablebase turns and what an exploiting engine did.
pub fn play_game(
    start: &Position,
    players: [Player; 2],
    limits: Limits,
    tables: &Tablebases,
    rng: &mut Rng,
) -> (Outcome, TablebaseAudit, ExploitStats) {
    let mut exploiters = Side::BOTH.map(|side| match players[side.index()] {
        Player::Exploiter(mode) => Some(SafeExploiter::in_mode(side, mode)),
        _ => None,
    });
    play_game_with(start, players, &mut exploiters, limits, tables, rng)
}

/// `play_game` with the exploiting engines given (one per `Player::Exploiter` side, set up
/// for its side), so that a match can keep what they learned of the opponent from game to
/// game.
pub fn play_game_with(
    start: &Position,
    players: [Player; 2],
    exploiters: &mut [Option<SafeExploiter>; 2],
    limits: Limits,
    tables: &Tablebases,
    rng: &mut Rng,
) -> (Outcome, TablebaseAudit, ExploitStats) {
    let rules = tables.rules();
    let mut pos = *start;
    let mut audit = TablebaseAudit::default();
    let stats = |exploiters: &[Option<SafeExploiter>; 2]| {
        let mut total = ExploitStats::default();
        for e in exploiters.iter().flatten() {
            total.add(&e.stats);
        }
        total
    };
    for _ in 0..MAX_TURNS {
        let state = outcome(&pos, rules);
        if state.is_over() {
            return (state, audit, stats(exploiters));
        }
        let mut actions = [Move::FORFEIT; 2];
        let mut depths = [0; 2];
        let mut values = [f64::NAN; 2];
        for side in Side::BOTH {
            actions[side.index()] = match players[side.index()] {
                Player::Engine => {
                    let (m, it) = engine_move(&pos, side, limits, tables, rng);
                    if let Some(it) = it {
                        let (_, strategy) = it.root.strategy(side);
                        audit.record(&pos, side, strategy, tables, 0.0);
                        depths[side.index()] = it.depth;
                        values[side.index()] = it.root.value;
                    }
                    m
                }
                Player::Exploiter(_) => {
                    let exploiter = exploiters[side.index()]
                        .as_mut()
                        .expect("an exploiter for each exploiting side");
                    match exploiter.choose(&pos, limits, tables, rng) {
                        Some((m, it, strategy)) => {
                            // The budget of this turn: the last turn's gift is settled in `choose`.
                            let budget = exploiter.budget();
                            audit.record(&pos, side, &strategy, tables, budget);
                            depths[side.index()] = it.depth;
                            values[side.index()] = it.root.value;
                            m
                        }
                        None => Move::FORFEIT,
                    }
                }
                Player::Random => random_move(&pos, side, rules, rng),
                Player::AlphaBeta(depth) => {
                    let own = Limits {
                        depth: depth.or(limits.depth),
                        ..limits
                    };
                    let choice = AlphaBeta::new(tables, side).search(&pos, own);
                    depths[side.index()] = choice.map_or(0, |c| c.depth);
                    values[side.index()] = choice.map_or(f64::NAN, |c| match side {
                        Side::White => c.value,
                        Side::Black => -c.value,
                    });
                    choice.map_or(Move::FORFEIT, |c| c.best)
                }
                Player::Scripted(bias, depth) => {
                    let own = Limits {
                        depth: depth.or(limits.depth),
                        ..limits
                    };
                    scripted_move(&pos, side, bias, own, tables)
                }
            };
        }
        log::debug!(
            "{} : {} {} (depths {} {}, values for White {:+.3} {:+.3})",
            format_position(&pos),
            format_move(actions[0]),
            format_move(actions[1]),
            depths[0],
            depths[1],
            values[0],
            values[1]
        );
        for side in Side::BOTH {
            if let Some(e) = exploiters[side.index()].as_mut() {
                e.observe(actions[side.opponent().index()]);
            }
        }
        pos = resolve(&pos, actions).0;
    }
    (Outcome::Draw(Reason::QuietTurns), audit, stats(exploiters))
}

/// Match totals from the engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchScore {
    /// Games won by the engine (the first engine when it plays itself).
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl MatchScore {
    /// Count one game that ended in `result`, the engine playing `engine_side`.
    pub fn record(&mut self, result: Outcome, engine_side: Side) {
        let v = match engine_side {
            Side::White => result.value(),
            Side::Black => -result.value(),
        };
        match v {
            x if x > 0.0 => self.wins += 1,
            x if x < 0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (win 1, draw 1/2).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Half-width of the 95% confidence interval of the score (normal approximation).
    pub fn error_bar(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return 1.0;
        }
        let mean = self.score();
        let var = (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / (n - 1.0);
        1.96 * (var / n).sqrt()
    }
}
