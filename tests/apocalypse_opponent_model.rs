//! Safe exploitation of the alpha-beta player (`search::opponent_model`): the strategy played
//! guarantees the position's value less the budget in the full root matrix (exactly the
//! optimal guarantee with an empty budget), it does stray when there is a budget, and the model
//! learns to predict an alpha-beta player of fixed depth from its moves alone.

#[path = "common/apocalypse_positions.rs"]
mod apocalypse_positions;

use std::time::Duration;

use variant_engines::apocalypse::rules::board::{Position, Side};
use variant_engines::apocalypse::rules::moves::legal_moves;
use variant_engines::apocalypse::rules::notation::format_position;
use variant_engines::apocalypse::rules::outcome::outcome;
use variant_engines::apocalypse::rules::resolve::resolve;
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::apocalypse::search::alphabeta::AlphaBeta;
use variant_engines::apocalypse::search::anytime::{Limits, Searcher};
use variant_engines::apocalypse::search::opponent_model::{Predictor, SafeExploiter};
use variant_engines::apocalypse::tablebase::Tablebases;
use variant_engines::rng::Rng;

/// The engine's guarantee (its worst value against every reply) of `strategy` in the full
/// root matrix of `pos` with `remaining` turns after the root move, valued afresh.
fn guarantee(
    pos: &Position,
    side: Side,
    strategy: &[f64],
    remaining: u32,
    white_moves: &[variant_engines::apocalypse::rules::moves::Move],
    black_moves: &[variant_engines::apocalypse::rules::moves::Move],
    tables: &Tablebases,
) -> f64 {
    let searcher = Searcher::new(tables);
    let (mine, theirs) = match side {
        Side::White => (white_moves, black_moves),
        Side::Black => (black_moves, white_moves),
    };
    let sign = if side == Side::White { 1.0 } else { -1.0 };
    theirs
        .iter()
        .map(|&t| {
            mine.iter()
                .zip(strategy)
                .filter(|(_, &p)| p > 0.0)
                .map(|(&m, &p)| {
                    let (w, b) = if side == Side::White { (m, t) } else { (t, m) };
                    p * sign * searcher.joint_value(pos, w, b, remaining, None).unwrap()
                })
                .sum::<f64>()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn the_strategy_played_guarantees_the_value_less_the_budget() {
    let tables = Tablebases::none(RuleSet::Classic);
    let mut rng = Rng::new(0x5AFE_E4B1_0172_0001);
    let limits = Limits {
        depth: Some(2),
        movetime: Some(Duration::from_millis(400)),
    };
    let mut strayed = 0;
    for n in 0..24 {
        let pos = apocalypse_positions::random_position(&mut rng, RuleSet::Classic);
        let side = if n % 2 == 0 { Side::White } else { Side::Black };
        let sign = if side == Side::White { 1.0 } else { -1.0 };
        for budget in [0.0, 0.3] {
            let mut engine = SafeExploiter::with_budget(side, budget);
            let (_, it, strategy) = engine
                .choose(&pos, limits, &tables, &mut rng)
                .expect("an ongoing position");
            let (_, optimal) = it.root.strategy(side);
            let value = sign * it.root.value;
            let g = guarantee(
                &pos,
                side,
                &strategy,
                it.depth - 1,
                &it.root.white_moves,
                &it.root.black_moves,
                &tables,
            );
            let text = format_position(&pos);
            assert!((strategy.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{text}");
            assert!(
                g >= value - budget - 1e-9,
                "{text}: {g} < {value} - {budget}"
            );
            if budget == 0.0 {
                assert!(g >= value - 1e-9, "{text}: strayed without a budget");
            } else if strategy
                .iter()
                .zip(optimal)
                .any(|(a, b)| (a - b).abs() > 1e-9)
            {
                strayed += 1;
            }
        }
    }
    assert!(
        strayed >= 3,
        "a budget of 0.3 strayed in only {strayed} of 24 positions"
    );
}

#[test]
fn the_model_learns_to_predict_a_fixed_depth_alpha_beta_player() {
    let tables = Tablebases::none(RuleSet::Classic);
    let rules = RuleSet::Classic;
    let mut rng = Rng::new(0x5AFE_E4B1_0172_0002);
    let (mut turns, mut right) = (0, 0);
    for _game in 0..3 {
        let mut pos = Position::start();
        let mut model = Predictor::new(Side::Black);
        for turn in 0..12 {
            if outcome(&pos, rules).is_over() {
                break;
            }
            let predicted =
                model.predict_within(&pos, &tables, None, Some(Duration::from_millis(500)));
            let actual = AlphaBeta::new(&tables, Side::Black)
                .search(&pos, Limits::new(Some(2), None))
                .expect("an ongoing position")
                .best;
            model.observe(actual);
            // The first turns teach the model the depth (from the start position several
            // depths agree, and it guesses the deepest).
            if turn >= 3 {
                turns += 1;
                right += (predicted == Some(actual)) as u32;
            }
            let white = legal_moves(&pos, Side::White, rules);
            let mine = white[rng.below(white.len())];
            pos = resolve(&pos, [mine, actual]).0;
        }
        // A player whose depth-1 search finds a forced result stops there, so depth 1 is
        // sometimes right too.
        assert!(matches!(model.depth(), Some(1 | 2)), "{:?}", model.depth());
    }
    assert!(
        right * 10 >= turns * 9,
        "predicted {right} of {turns} moves of a depth-2 player"
    );
}

/// Exploitation counts of the learned-model engine over `games` depth-2 games against
/// `opponent`, colours alternating, each from its own position two random turns in.
fn learned_model_against(
    opponent: variant_engines::apocalypse::play::Player,
    games: u32,
    seeds: (u64, u64),
) -> variant_engines::apocalypse::search::opponent_model::ExploitStats {
    use variant_engines::apocalypse::play::{play_game, random_opening, Player};
    use variant_engines::apocalypse::search::opponent_model::{
        ExploitMode, ExploitStats, ModelKind,
    };
    let tables = Tablebases::none(RuleSet::Classic);
    let mut rng = Rng::new(seeds.0);
    let limits = Limits {
        depth: Some(2),
        movetime: None,
    };
    let mut total = ExploitStats::default();
    let mut openings = Rng::new(seeds.1);
    for game in 0..games {
        let start = random_opening(&Position::start(), 2, RuleSet::Classic, &mut openings).unwrap();
        let mut players = [
            Player::Exploiter(ExploitMode::safe(ModelKind::Learned)),
            opponent,
        ];
        if game % 2 == 1 {
            players.swap(0, 1);
        }
        let (_, _, stats) = play_game(&start, players, limits, &tables, &mut rng);
        total.add(&stats);
    }
    total
}

#[test]
fn against_a_biased_player_the_learned_model_earns_a_budget_and_strays() {
    use variant_engines::apocalypse::play::Player;
    use variant_engines::apocalypse::search::scripted::Bias;
    let total = learned_model_against(Player::Scripted(Bias::HorsemenFirst, Some(2)), 8, (11, 5));
    assert!(total.predicted > 0, "{total:?}");
    // The player's habit makes its moves predictable and worse than optimal play: the model
    // is right on some turns, the gifts add up, and the engine stakes them.
    assert!(total.right > 0, "{total:?}");
    assert!(total.gifts > 0.0, "{total:?}");
    assert!(total.strayed > 0, "{total:?}");
}

#[test]
fn the_learned_model_learns_to_follow_a_searching_opponent() {
    // Against the depth-2 alpha-beta player, whose moves no habit feature explains, the
    // model's feature "plays the move a short search picks" must carry the prediction.
    use variant_engines::apocalypse::play::Player;
    let total = learned_model_against(Player::AlphaBeta(Some(2)), 6, (3, 7));
    assert!(total.predicted >= 20, "{total:?}");
    assert!(
        total.right * 100 >= total.predicted * 75,
        "right in {} of {} turns",
        total.right,
        total.predicted
    );
}

/// Whether `engine` (playing White at depth 2 from the start) reports, in each of `turns`
/// turns, that its prediction came from the search alone, when Black's moves come from
/// `black`.
fn follows_search_by_turn(
    engine: &mut SafeExploiter,
    turns: usize,
    mut black: impl FnMut(&Position, &mut Rng) -> variant_engines::apocalypse::rules::moves::Move,
) -> Vec<bool> {
    let tables = Tablebases::none(RuleSet::Classic);
    let mut rng = Rng::new(0x5AFE_E4B1_0172_0003);
    let limits = Limits::new(Some(2), None);
    engine.new_game(Side::White);
    let mut pos = Position::start();
    let mut follows = Vec::new();
    for _ in 0..turns {
        if outcome(&pos, RuleSet::Classic).is_over() {
            break;
        }
        let (mine, _, _) = engine
            .choose(&pos, limits, &tables, &mut rng)
            .expect("an ongoing position");
        let report = engine.report();
        if report.follows_search {
            assert_eq!(report.prediction.len(), 1, "{report:?}");
        }
        follows.push(report.follows_search);
        let theirs = black(&pos, &mut rng);
        engine.observe(theirs);
        pos = resolve(&pos, [mine, theirs]).0;
    }
    follows
}

#[test]
fn the_learned_model_hands_a_searching_player_to_the_search_alone() {
    use variant_engines::apocalypse::search::opponent_model::ModelKind;
    let tables = Tablebases::none(RuleSet::Classic);
    let depth_2 = |pos: &Position, _: &mut Rng| {
        AlphaBeta::new(&tables, Side::Black)
            .search(pos, Limits::new(Some(2), None))
            .expect("an ongoing position")
            .best
    };
    let mut engine = SafeExploiter::modelling(Side::White, ModelKind::Learned);
    let first_game = follows_search_by_turn(&mut engine, 10, depth_2);
    // Two declared moves first, then the depth-2 player is predicted by the search.
    assert!(!first_game[0] && !first_game[1], "{first_game:?}");
    assert!(
        first_game.iter().filter(|&&f| f).count() >= first_game.len() / 2,
        "{first_game:?}"
    );
    // The next game of the match starts with what the engine learned.
    let second_game = follows_search_by_turn(&mut engine, 3, depth_2);
    assert!(second_game[0], "{second_game:?}");
    // A player who picks moves at random is never handed to the search.
    let mut engine = SafeExploiter::modelling(Side::White, ModelKind::Learned);
    let random = follows_search_by_turn(&mut engine, 10, |pos, rng| {
        let moves = legal_moves(pos, Side::Black, RuleSet::Classic);
        moves[rng.below(moves.len())]
    });
    assert!(random.iter().all(|&f| !f), "{random:?}");
}
