//! The matrix-game solver against its optimality certificate and brute-force support enumeration.

use variant_engines::matrix_game::{solve, Matrix};
use variant_engines::rng::Rng;

fn random_matrix(rng: &mut Rng, max_side: usize) -> Matrix {
    let rows = 1 + rng.below(max_side);
    let cols = 1 + rng.below(max_side);
    // Half the games use few distinct values (ties, duplicates, degeneracy), like game values.
    let coarse = rng.below(2) == 0;
    let data = (0..rows * cols)
        .map(|_| {
            if coarse {
                [-1.0, -0.5, 0.0, 0.0, 0.5, 1.0][rng.below(6)]
            } else {
                rng.next_f64() * 2.0 - 1.0
            }
        })
        .collect();
    Matrix::new(rows, cols, data)
}

/// Entries that differ by about `spread`, as the iterates of a converging value iteration do.
fn near_tie_matrix(rng: &mut Rng, max_side: usize, spread: f64) -> Matrix {
    let rows = 1 + rng.below(max_side);
    let cols = 1 + rng.below(max_side);
    let base: Vec<f64> = (0..4).map(|_| rng.next_f64() * 2.0 - 1.0).collect();
    let data = (0..rows * cols)
        .map(|_| base[rng.below(4)] + (rng.next_f64() - 0.5) * spread)
        .collect();
    Matrix::new(rows, cols, data)
}

fn assert_distribution(p: &[f64]) {
    assert!(p.iter().all(|&v| v >= 0.0), "negative probability {p:?}");
    assert!(
        ((p.iter().sum::<f64>()) - 1.0).abs() < 1e-9,
        "sum != 1 {p:?}"
    );
}

/// Optimality certificate: x guarantees >= v against every column, y concedes <= v to every row.
fn check_certificate(m: &Matrix) {
    let sol = solve(m);
    assert_distribution(&sol.row_strategy);
    assert_distribution(&sol.col_strategy);
    let low = m.row_guarantee(&sol.row_strategy);
    let high = m.col_guarantee(&sol.col_strategy);
    assert!(
        low >= sol.value - 1e-9 && high <= sol.value + 1e-9,
        "not optimal: value {} row guarantee {low} column ceiling {high} for {m:?}",
        sol.value
    );
}

#[test]
fn certificates_hold_on_thousands_of_random_games() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    for _ in 0..4000 {
        let m = random_matrix(&mut rng, 12);
        check_certificate(&m);
    }
    for _ in 0..200 {
        let m = random_matrix(&mut rng, 35);
        check_certificate(&m);
    }
}

#[test]
fn near_ties_are_solved_exactly() {
    let mut rng = Rng::new(0x0dd5_eed5_2026_1130);
    for spread in [4e-12, 4e-10, 4e-8] {
        for _ in 0..std::env::var("NEAR_TIES").map_or(2000, |v| v.parse().unwrap()) {
            let m = near_tie_matrix(&mut rng, 30, spread);
            check_certificate(&m);
        }
    }
    // Met in a 5-piece tablebase build: two rows differing by 1.5e-12 once led the simplex to
    // pivot on a near-zero element and stop 1.1e-5 away from the value.
    let r = -0.3689604114717928;
    let rows = [
        [
            -1.0 / 3.0,
            -1.0,
            1.0 / 3.0,
            0.3554289246511799,
            0.333333333333333,
            1.0,
        ],
        [1.0, -1.0, -1.0, -1.0, -1.0, 1.0],
        [1.0, r, 0.0, 0.37953795379537936, 0.414050103380295, 1.0],
        [1.0, r, 0.5, 0.4715097027356947, 0.4653405429373465, 1.0],
        [
            1.0,
            -0.3689604114703269,
            0.17980589839881334,
            0.33872319930628025,
            -0.4216867469879517,
            1.0,
        ],
        [
            1.0,
            -1.0,
            0.4114393262221423,
            0.4285714285714288,
            0.4219219587954308,
            1.0,
        ],
        [
            1.0,
            -1.0,
            0.0,
            0.36363636363636376,
            0.32993951834968094,
            1.0,
        ],
        [
            -1.0 / 6.0,
            0.2660879229035169,
            0.1914365208935429,
            0.332032766451704,
            4.4e-16,
            1.0,
        ],
        [0.4577694820345315, 0.0, 0.0, 0.0, -0.46005457594655486, 1.0],
        [1.0, 0.0, 0.0, 0.0, -0.47136381465085364, 1.0],
        [-1.0, -1.0, -1.0, -1.0, -1.0, 0.0],
    ];
    check_certificate(&Matrix::new(11, 6, rows.concat()));
}

/// Value by support enumeration on 2xn games: the lower envelope of the row player's mixes is
/// maximised at p in {0, 1} or where two columns' payoff lines cross.
fn brute_force_value_2xn(m: &Matrix) -> f64 {
    let guarantee = |p: f64| {
        (0..m.cols)
            .map(|j| p * m.at(0, j) + (1.0 - p) * m.at(1, j))
            .fold(f64::INFINITY, f64::min)
    };
    let mut candidates = vec![0.0, 1.0];
    for a in 0..m.cols {
        for b in a + 1..m.cols {
            // p*x_a + (1-p)*y_a = p*x_b + (1-p)*y_b
            let da = m.at(0, a) - m.at(1, a);
            let db = m.at(0, b) - m.at(1, b);
            if (da - db).abs() > 1e-15 {
                let p = (m.at(1, b) - m.at(1, a)) / (da - db);
                if (0.0..=1.0).contains(&p) {
                    candidates.push(p);
                }
            }
        }
    }
    candidates
        .into_iter()
        .map(guarantee)
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn values_match_brute_force_on_2xn_games() {
    let mut rng = Rng::new(42);
    for _ in 0..3000 {
        let cols = 1 + rng.below(8);
        let data = (0..2 * cols).map(|_| rng.next_f64() * 2.0 - 1.0).collect();
        let m = Matrix::new(2, cols, data);
        let v = solve(&m).value;
        let bf = brute_force_value_2xn(&m);
        assert!(
            (v - bf).abs() < 1e-9,
            "value {v} vs brute force {bf} for {m:?}"
        );
    }
}

#[test]
fn classic_games() {
    // Rock-paper-scissors: value 0, uniform strategies.
    let rps = Matrix::new(3, 3, vec![0., -1., 1., 1., 0., -1., -1., 1., 0.]);
    let sol = solve(&rps);
    assert!(sol.value.abs() < 1e-12);
    for p in sol.row_strategy.iter().chain(&sol.col_strategy) {
        assert!((p - 1.0 / 3.0).abs() < 1e-9);
    }
    // Saddle point.
    let saddle = Matrix::new(2, 2, vec![3., 1., 4., 2.]);
    let sol = solve(&saddle);
    assert_eq!(sol.value, 2.0);
    assert_eq!(sol.row_strategy, vec![0.0, 1.0]);
    assert_eq!(sol.col_strategy, vec![0.0, 1.0]);
    // Mixed 2x2: value (ad - bc) / (a + d - b - c) = (2*1 - (-1)(-1)) / 5 = 0.2.
    let mixed = Matrix::new(2, 2, vec![2., -1., -1., 1.]);
    let sol = solve(&mixed);
    assert!((sol.value - 0.2).abs() < 1e-12);
    assert!((sol.row_strategy[0] - 0.4).abs() < 1e-12);
    assert!((sol.col_strategy[0] - 0.4).abs() < 1e-12);
}
