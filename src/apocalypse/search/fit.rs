//! Fitting the evaluation's weights to labelled positions: least squares on the value
//! `BOUND * tanh(w . features)` against each position's label (a game result or an exact
//! tablebase value), by damped Gauss-Newton steps with a backtracking line search. With eight
//! weights the normal equations are an 8x8 system, solved here by Gaussian elimination.

use super::eval::{evaluate_features, FEATURE_COUNT};

/// A position reduced to its feature counts, and the value it should get (White's view).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation's terms (`eval::features`).
    pub features: [f64; FEATURE_COUNT],
    /// The target value in [-1, 1].
    pub label: f64,
}

/// Mean squared error of the evaluation with weights `w` over `samples` (0 for none).
pub fn mean_squared_error(samples: &[Sample], w: &[f64; FEATURE_COUNT]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (evaluate_features(&s.features, w) - s.label).powi(2))
        .sum();
    total / samples.len() as f64
}

/// Solve `a x = b` for a small dense system by Gaussian elimination with partial pivoting;
/// `None` when `a` is singular.
fn solve_linear(
    mut a: [[f64; FEATURE_COUNT]; FEATURE_COUNT],
    mut b: [f64; FEATURE_COUNT],
) -> Option<[f64; FEATURE_COUNT]> {
    let n = FEATURE_COUNT;
    let largest = a.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() <= 1e-12 * largest {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; FEATURE_COUNT];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// Weights fitted to `samples`, starting from `start`: at most `iterations` Gauss-Newton steps,
/// each damped by `damping` on the diagonal and halved until the error falls; stops when no
/// step helps.
pub fn fit_weights(
    samples: &[Sample],
    start: [f64; FEATURE_COUNT],
    iterations: usize,
    damping: f64,
) -> [f64; FEATURE_COUNT] {
    let mut w = start;
    if samples.is_empty() {
        return w;
    }
    let n = samples.len() as f64;
    for _ in 0..iterations {
        let mut normal = [[0.0; FEATURE_COUNT]; FEATURE_COUNT];
        let mut gradient = [0.0; FEATURE_COUNT];
        for s in samples {
            let t = s
                .features
                .iter()
                .zip(&w)
                .map(|(f, x)| f * x)
                .sum::<f64>()
                .tanh();
            let residual = super::eval::weights::BOUND * t - s.label;
            let slope = super::eval::weights::BOUND * (1.0 - t * t);
            let jacobian: [f64; FEATURE_COUNT] = std::array::from_fn(|i| slope * s.features[i]);
            for i in 0..FEATURE_COUNT {
                gradient[i] += jacobian[i] * residual / n;
                for j in 0..FEATURE_COUNT {
                    normal[i][j] += jacobian[i] * jacobian[j] / n;
                }
            }
        }
        for (i, row) in normal.iter_mut().enumerate() {
            row[i] += damping;
        }
        let Some(step) = solve_linear(normal, gradient) else {
            break;
        };
        let before = mean_squared_error(samples, &w);
        let mut scale = 1.0;
        let mut improved = false;
        while scale > 1e-4 {
            let trial: [f64; FEATURE_COUNT] = std::array::from_fn(|i| w[i] - scale * step[i]);
            if mean_squared_error(samples, &trial) < before {
                w = trial;
                improved = true;
                break;
            }
            scale /= 2.0;
        }
        if !improved {
            break;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn recovers_the_weights_that_labelled_the_samples() {
        let truth = [0.6, -0.1, 0.8, -0.02, 0.015, -0.1, 0.2, 0.12];
        let mut rng = Rng::new(3);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let features: [f64; FEATURE_COUNT] = std::array::from_fn(|i| {
                    rng.below(7) as f64 - 3.0
                        + if i == 4 {
                            rng.below(20) as f64 - 10.0
                        } else {
                            0.0
                        }
                });
                Sample {
                    features,
                    label: evaluate_features(&features, &truth),
                }
            })
            .collect();
        let fitted = fit_weights(&samples, [0.0; FEATURE_COUNT], 50, 1e-9);
        for (f, t) in fitted.iter().zip(&truth) {
            assert!((f - t).abs() < 1e-6, "fitted {fitted:?}, truth {truth:?}");
        }
        assert!(mean_squared_error(&samples, &fitted) < 1e-12);
    }

    #[test]
    fn solves_a_small_system_and_refuses_a_singular_one() {
        let mut a = [[0.0; FEATURE_COUNT]; FEATURE_COUNT];
        let mut b = [0.0; FEATURE_COUNT];
        for i in 0..FEATURE_COUNT {
            a[i][i] = (i + 2) as f64;
            a[i][(i + 1) % FEATURE_COUNT] = 1.0;
            b[i] = i as f64;
        }
        let x = solve_linear(a, b).unwrap();
        for i in 0..FEATURE_COUNT {
            let row: f64 = (0..FEATURE_COUNT).map(|k| a[i][k] * x[k]).sum();
            assert!((row - b[i]).abs() < 1e-12);
        }
        a[3] = a[2];
        b[3] = b[2];
        assert!(solve_linear(a, b).is_none());
    }
}
