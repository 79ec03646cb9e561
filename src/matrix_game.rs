//! Zero-sum matrix games: value and optimal mixed strategies of both players.
//!
//! Cheap cases first (pure saddle point, iterated removal of weakly dominated rows and
//! columns), then a dense simplex on the reduced game. The matrices met by the Apocalypse solver
//! are small and dense (up to a few dozen rows and columns), where a dense tableau with no
//! allocation beyond one buffer beats a general sparse LP crate by a wide margin.

/// Payoffs to the row player (the maximiser), row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// Number of rows (row player's actions).
    pub rows: usize,
    /// Number of columns (column player's actions).
    pub cols: usize,
    /// Entries, `data[i * cols + j]`.
    pub data: Vec<f64>,
}

impl Matrix {
    /// A matrix from row-major entries.
    pub fn new(rows: usize, cols: usize, data: Vec<f64>) -> Matrix {
        assert_eq!(data.len(), rows * cols, "matrix data has the wrong length");
        Matrix { rows, cols, data }
    }

    /// Entry (i, j).
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.cols + j]
    }

    /// Guaranteed payoff of a row strategy: its worst case over columns.
    pub fn row_guarantee(&self, x: &[f64]) -> f64 {
        (0..self.cols)
            .map(|j| (0..self.rows).map(|i| x[i] * self.at(i, j)).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    }

    /// Guaranteed ceiling of a column strategy: the row player's best reply against it.
    pub fn col_guarantee(&self, y: &[f64]) -> f64 {
        (0..self.rows)
            .map(|i| (0..self.cols).map(|j| y[j] * self.at(i, j)).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    }
}

/// Value and optimal strategies of a matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Value to the row player.
    pub value: f64,
    /// Optimal mixed strategy of the row player.
    pub row_strategy: Vec<f64>,
    /// Optimal mixed strategy of the column player.
    pub col_strategy: Vec<f64>,
}

/// Solve a zero-sum matrix game exactly (up to floating-point rounding, ~1e-12).
pub fn solve(matrix: &Matrix) -> Solution {
    assert!(matrix.rows > 0 && matrix.cols > 0, "empty matrix game");
    if let Some(sol) = saddle_point(matrix, &all(matrix.rows), &all(matrix.cols)) {
        return sol;
    }
    let (rows, cols) = remove_dominated(matrix);
    if let Some(sol) = saddle_point(matrix, &rows, &cols) {
        return sol;
    }
    let (sol, gap) = simplex(matrix, &rows, &cols, false);
    if gap <= 1e-10 {
        return sol;
    }
    // Rounding trouble on a degenerate game: Bland's rule throughout is slower but safer.
    let (careful, careful_gap) = simplex(matrix, &rows, &cols, true);
    if gap.min(careful_gap) > 1e-9 {
        log::warn!(
            "matrix game solved only to within {:.1e}: {matrix:?}",
            gap.min(careful_gap)
        );
    }
    if careful_gap < gap {
        careful
    } else {
        sol
    }
}

/// Solve a game whose optimal strategies are guessed to use exactly `rows` and `cols` (as
/// many of each), e.g. those of a nearby game: the strategies that make the other player
/// indifferent on the guessed supports are computed directly, and returned only if they are
/// optimal in the whole game (certificate gap at most 1e-13). Value iteration meets the same
/// game again and again with slightly moved entries, where this is far cheaper than `solve`.
pub fn solve_on_support(m: &Matrix, rows: &[usize], cols: &[usize]) -> Option<Solution> {
    let k = rows.len();
    if k == 0 || k != cols.len() || k > 16 {
        return None;
    }
    let (x, y) = if k == 1 {
        let mut x = vec![0.0; m.rows];
        let mut y = vec![0.0; m.cols];
        x[rows[0]] = 1.0;
        y[cols[0]] = 1.0;
        (x, y)
    } else {
        // Column strategy: sum_j A[i][j] y_j - v = 0 on the guessed rows, sum_j y_j = 1.
        let y_on = indifference(k, |r, c| m.at(rows[r], cols[c]))?;
        let x_on = indifference(k, |r, c| m.at(rows[c], cols[r]))?;
        if y_on.iter().chain(&x_on).any(|&p| p < -1e-12) {
            return None;
        }
        let mut x = vec![0.0; m.rows];
        let mut y = vec![0.0; m.cols];
        for (r, &i) in rows.iter().enumerate() {
            x[i] = x_on[r].max(0.0);
        }
        for (c, &j) in cols.iter().enumerate() {
            y[j] = y_on[c].max(0.0);
        }
        normalise(&mut x);
        normalise(&mut y);
        (x, y)
    };
    let low = m.row_guarantee(&x);
    let high = m.col_guarantee(&y);
    (high - low <= 1e-13).then_some(Solution {
        value: 0.5 * (low + high),
        row_strategy: x,
        col_strategy: y,
    })
}

/// The probabilities q (summing to 1) that make `k` rows of the payoffs `a(r, c)` pay the same,
/// by Gaussian elimination with partial pivoting; `None` if the system is singular.
fn indifference(k: usize, a: impl Fn(usize, usize) -> f64) -> Option<Vec<f64>> {
    // Unknowns q_0..q_{k-1} and v; equations: sum_c a(r, c) q_c - v = 0, sum_c q_c = 1.
    let n = k + 1;
    let mut t = vec![0.0; n * (n + 1)];
    for r in 0..k {
        for c in 0..k {
            t[r * (n + 1) + c] = a(r, c);
        }
        t[r * (n + 1) + k] = -1.0;
    }
    for c in 0..k {
        t[k * (n + 1) + c] = 1.0;
    }
    t[k * (n + 1) + n] = 1.0;
    for col in 0..n {
        let pivot = (col..n).max_by(|&p, &q| {
            t[p * (n + 1) + col]
                .abs()
                .total_cmp(&t[q * (n + 1) + col].abs())
        })?;
        if t[pivot * (n + 1) + col].abs() < 1e-12 {
            return None;
        }
        if pivot != col {
            for c in 0..=n {
                t.swap(pivot * (n + 1) + c, col * (n + 1) + c);
            }
        }
        let p = t[col * (n + 1) + col];
        for r in 0..n {
            if r != col {
                let f = t[r * (n + 1) + col] / p;
                if f != 0.0 {
                    for c in col..=n {
                        t[r * (n + 1) + c] -= f * t[col * (n + 1) + c];
                    }
                }
            }
        }
    }
    Some(
        (0..k)
            .map(|r| t[r * (n + 1) + n] / t[r * (n + 1) + r])
            .collect(),
    )
}

/// What each player gains by switching to a best response against the other's strategy,
/// measured from a value of the game: both 0 when the strategies are optimal and the value is
/// right (then the strategies are their own optimality certificate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploitability {
    /// The row player's gain: its best reply to the column strategy, minus the value.
    pub row_gain: f64,
    /// The column player's gain: the value, minus the row strategy's guaranteed payoff.
    pub col_gain: f64,
}

impl Exploitability {
    /// Nothing to gain (a game without moves).
    pub const NONE: Exploitability = Exploitability {
        row_gain: 0.0,
        col_gain: 0.0,
    };

    /// Both gains together: how much a pair of best responders takes from the strategies.
    pub fn total(self) -> f64 {
        self.row_gain + self.col_gain
    }

    /// The larger gain: how far the strategies are from proving the value.
    pub fn worst(self) -> f64 {
        self.row_gain.max(self.col_gain)
    }
}

/// The exploitability of a pair of strategies in `matrix`, measured from `value`. The one
/// place it is computed: the simplex's certificate, the N-turn solvers' check and the
/// search's measurement against exact values all call it.
pub fn exploitability(
    matrix: &Matrix,
    value: f64,
    row_strategy: &[f64],
    col_strategy: &[f64],
) -> Exploitability {
    Exploitability {
        row_gain: (matrix.col_guarantee(col_strategy) - value).max(0.0),
        col_gain: (value - matrix.row_guarantee(row_strategy)).max(0.0),
    }
}

/// How far a solution is from proving its value: 0 for an exact solution.
pub fn certificate_gap(matrix: &Matrix, sol: &Solution) -> f64 {
    exploitability(matrix, sol.value, &sol.row_strategy, &sol.col_strategy).worst()
}

fn all(n: usize) -> Vec<usize> {
    (0..n).collect()
}

/// A pure equilibrium of the sub-game on `rows` x `cols`, if any.
fn saddle_point(m: &Matrix, rows: &[usize], cols: &[usize]) -> Option<Solution> {
    let mut best_row = (f64::NEG_INFINITY, 0);
    for &i in rows {
        let low = cols
            .iter()
            .map(|&j| m.at(i, j))
            .fold(f64::INFINITY, f64::min);
        if low > best_row.0 {
            best_row = (low, i);
        }
    }
    let mut best_col = (f64::INFINITY, 0);
    for &j in cols {
        let high = rows
            .iter()
            .map(|&i| m.at(i, j))
            .fold(f64::NEG_INFINITY, f64::max);
        if high < best_col.0 {
            best_col = (high, j);
        }
    }
    if best_row.0 < best_col.0 {
        return None;
    }
    let mut x = vec![0.0; m.rows];
    let mut y = vec![0.0; m.cols];
    x[best_row.1] = 1.0;
    y[best_col.1] = 1.0;
    Some(Solution {
        value: m.at(best_row.1, best_col.1),
        row_strategy: x,
        col_strategy: y,
    })
}

/// Iteratively drop weakly dominated rows and columns. Optimal strategies of the reduced game
/// stay optimal in the full game (a dropped row never pays the row player more than the row
/// dominating it), and the value is unchanged.
fn remove_dominated(m: &Matrix) -> (Vec<usize>, Vec<usize>) {
    let mut rows = all(m.rows);
    let mut cols = all(m.cols);
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < rows.len() && rows.len() > 1 {
            let r = rows[i];
            let dominated = rows
                .iter()
                .any(|&k| k != r && cols.iter().all(|&j| m.at(r, j) <= m.at(k, j)));
            if dominated {
                rows.remove(i);
                changed = true;
            } else {
                i += 1;
            }
        }
        let mut j = 0;
        while j < cols.len() && cols.len() > 1 {
            let c = cols[j];
            let dominated = cols
                .iter()
                .any(|&l| l != c && rows.iter().all(|&i| m.at(i, c) >= m.at(i, l)));
            if dominated {
                cols.remove(j);
                changed = true;
            } else {
                j += 1;
            }
        }
        if !changed {
            return (rows, cols);
        }
    }
}

/// Pivot elements smaller than this count as zero: games whose entries differ by ~1e-12 (the
/// iterates of a converging value iteration) otherwise produce such pivots and lose accuracy.
const PIVOT_EPS: f64 = 1e-9;
/// A reduced cost above -this counts as optimal.
const OPTIMALITY_EPS: f64 = 1e-13;

/// Dense tableau simplex for the column player's LP on the sub-game `rows` x `cols`:
/// maximise sum(q) subject to (A + shift) q <= 1, q >= 0 (feasible at q = 0, no phase 1).
/// The row player's strategy is read off the slack columns' reduced costs (the dual).
/// Returns the solution with its certificate gap on the whole game.
fn simplex(m: &Matrix, rows: &[usize], cols: &[usize], bland_only: bool) -> (Solution, f64) {
    let (nr, nc) = (rows.len(), cols.len());
    let min = rows
        .iter()
        .flat_map(|&i| cols.iter().map(move |&j| m.at(i, j)))
        .fold(f64::INFINITY, f64::min);
    let shift = 1.0 - min;
    // Tableau: nr constraint rows + objective row; nc structural + nr slack columns + rhs.
    let width = nc + nr + 1;
    let initial = {
        let mut t = vec![0.0; (nr + 1) * width];
        for (r, &i) in rows.iter().enumerate() {
            for (c, &j) in cols.iter().enumerate() {
                t[r * width + c] = m.at(i, j) + shift;
            }
            t[r * width + nc + r] = 1.0;
            t[r * width + width - 1] = 1.0;
        }
        for c in 0..nc {
            t[nr * width + c] = -1.0;
        }
        t
    };
    let mut t = initial.clone();
    let mut basis: Vec<usize> = (nc..nc + nr).collect();
    run_pivots(&mut t, &mut basis, nr, width, bland_only);
    let read = |t: &[f64], basis: &[usize]| {
        let objective = t[nr * width + width - 1];
        let mut y = vec![0.0; m.cols];
        for (r, &b) in basis.iter().enumerate() {
            if b < nc {
                y[cols[b]] = t[r * width + width - 1].max(0.0) / objective;
            }
        }
        let mut x = vec![0.0; m.rows];
        for (r, &i) in rows.iter().enumerate() {
            x[i] = t[nr * width + nc + r].max(0.0) / objective;
        }
        normalise(&mut x);
        normalise(&mut y);
        Solution {
            value: 1.0 / objective - shift,
            row_strategy: x,
            col_strategy: y,
        }
    };
    let mut best = read(&t, &basis);
    let mut gap = certificate_gap(m, &best);
    // Pivots accumulate rounding; rebuild the final basis's tableau from the original data
    // (partial pivoting) and let the simplex correct a basis that was optimal only by error.
    for _ in 0..3 {
        if gap <= 1e-13 {
            break;
        }
        let Some((fresh, fresh_basis)) = reinvert(&initial, &basis, nr, width) else {
            break;
        };
        t = fresh;
        basis = fresh_basis;
        let pivoted = run_pivots(&mut t, &mut basis, nr, width, bland_only);
        let candidate = read(&t, &basis);
        let candidate_gap = certificate_gap(m, &candidate);
        if candidate_gap < gap {
            (best, gap) = (candidate, candidate_gap);
        }
        if !pivoted {
            break;
        }
    }
    (best, gap)
}

/// Simplex pivots until no reduced cost is negative; returns whether any pivot was made.
fn run_pivots(
    t: &mut [f64],
    basis: &mut [usize],
    nr: usize,
    width: usize,
    bland_only: bool,
) -> bool {
    let mut degenerate_streak = 0;
    let max_iterations = 50 * width + 100;
    let mut pivoted = false;
    for _ in 0..max_iterations {
        let obj = &t[nr * width..(nr + 1) * width - 1];
        // Dantzig's rule normally; Bland's rule after a run of degenerate pivots (no cycling).
        let entering = if degenerate_streak < 8 && !bland_only {
            let (c, &v) = obj
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
                .expect("non-empty objective row");
            (v < -OPTIMALITY_EPS).then_some(c)
        } else {
            obj.iter().position(|&v| v < -OPTIMALITY_EPS)
        };
        let Some(e) = entering else { break };
        // Harris's ratio test: among rows whose ratio is within a rounding tolerance of the
        // minimum, take the largest pivot element (small pivots wreck the tableau).
        let rhs = |r: usize| t[r * width + width - 1];
        let bound = (0..nr)
            .filter(|&r| t[r * width + e] > PIVOT_EPS)
            .map(|r| (rhs(r) + 1e-12) / t[r * width + e])
            .fold(f64::INFINITY, f64::min);
        let mut leaving: Option<(usize, f64)> = None;
        for r in 0..nr {
            let a = t[r * width + e];
            if a > PIVOT_EPS && rhs(r) / a <= bound {
                let better = match leaving {
                    None => true,
                    Some((lr, _)) => {
                        let best = t[lr * width + e];
                        a > best * (1.0 + 1e-9) || (a >= best && basis[r] < basis[lr])
                    }
                };
                if better {
                    leaving = Some((r, rhs(r).max(0.0) / a));
                }
            }
        }
        // The LP is bounded (all entries positive), so a leaving row always exists.
        let Some((l, ratio)) = leaving else { break };
        degenerate_streak = if ratio <= 1e-15 {
            degenerate_streak + 1
        } else {
            0
        };
        pivot(t, width, nr + 1, l, e);
        basis[l] = e;
        pivoted = true;
    }
    pivoted
}

/// The tableau of `basis` computed afresh from the initial tableau by Gauss-Jordan elimination
/// with partial pivoting, and the basis in its new row order; `None` if numerically singular.
fn reinvert(
    initial: &[f64],
    basis: &[usize],
    nr: usize,
    width: usize,
) -> Option<(Vec<f64>, Vec<usize>)> {
    let mut t = initial.to_vec();
    let mut placed = vec![usize::MAX; nr];
    for &b in basis {
        let (row, size) = (0..nr)
            .filter(|&r| placed[r] == usize::MAX)
            .map(|r| (r, t[r * width + b].abs()))
            .max_by(|x, y| x.1.total_cmp(&y.1))?;
        if size < PIVOT_EPS {
            return None;
        }
        pivot(&mut t, width, nr + 1, row, b);
        placed[row] = b;
    }
    // A basis must keep every right-hand side non-negative; tiny negatives are rounding.
    for r in 0..nr {
        let rhs = &mut t[r * width + width - 1];
        if *rhs < -1e-9 {
            return None;
        }
        *rhs = rhs.max(0.0);
    }
    Some((t, placed))
}

fn pivot(t: &mut [f64], width: usize, height: usize, l: usize, e: usize) {
    let p = t[l * width + e];
    for c in 0..width {
        t[l * width + c] /= p;
    }
    let (before, rest) = t.split_at_mut(l * width);
    let (pivot_row, after) = rest.split_at_mut(width);
    for row in before
        .chunks_exact_mut(width)
        .chain(after.chunks_exact_mut(width))
        .take(height - 1)
    {
        let f = row[e];
        if f != 0.0 {
            for (v, &pv) in row.iter_mut().zip(pivot_row.iter()) {
                *v -= f * pv;
            }
            row[e] = 0.0;
        }
    }
}

fn normalise(v: &mut [f64]) {
    for p in v.iter_mut() {
        if *p < 1e-14 {
            *p = 0.0;
        }
    }
    let sum: f64 = v.iter().sum();
    if sum > 0.0 {
        for p in v.iter_mut() {
            *p /= sum;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fallback path (Bland's rule throughout) must also solve games exactly.
    #[test]
    fn bland_only_simplex_is_optimal() {
        let mut rng = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..500 {
            let rows = 1 + rng.below(12);
            let cols = 1 + rng.below(12);
            let data = (0..rows * cols)
                .map(|_| [-1.0, -0.5, 0.0, 0.5, 1.0][rng.below(5)])
                .collect();
            let m = Matrix::new(rows, cols, data);
            let (sol, gap) = simplex(&m, &all(rows), &all(cols), true);
            assert!(certificate_gap(&m, &sol) < 1e-9, "{m:?} {sol:?}");
            assert_eq!(gap, certificate_gap(&m, &sol));
        }
    }

    /// The supports of a solved game, given back, solve it again to the same value; after a
    /// small change of the entries they either still do (with an optimality certificate) or
    /// are refused, never answered wrongly.
    #[test]
    fn solving_on_known_supports_agrees_with_the_simplex() {
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let (mut square, mut reused) = (0, 0);
        for _ in 0..3000 {
            let rows = 1 + rng.below(9);
            let cols = 1 + rng.below(9);
            let data: Vec<f64> = (0..rows * cols)
                .map(|_| 2.0 * rng.next_f64() - 1.0)
                .collect();
            let m = Matrix::new(rows, cols, data);
            let sol = solve(&m);
            let support =
                |p: &[f64]| -> Vec<usize> { (0..p.len()).filter(|&i| p[i] > 0.0).collect() };
            let (sr, sc) = (support(&sol.row_strategy), support(&sol.col_strategy));
            let Some(again) = solve_on_support(&m, &sr, &sc) else {
                assert_ne!(
                    sr.len(),
                    sc.len(),
                    "square supports must be accepted: {m:?}"
                );
                continue;
            };
            square += 1;
            assert!((again.value - sol.value).abs() < 1e-12, "{m:?}");
            assert!(certificate_gap(&m, &again) <= 1e-13);
            let moved = Matrix::new(
                rows,
                cols,
                m.data
                    .iter()
                    .map(|v| v + 1e-3 * (rng.next_f64() - 0.5))
                    .collect(),
            );
            if let Some(near) = solve_on_support(&moved, &sr, &sc) {
                reused += 1;
                assert!(
                    (near.value - solve(&moved).value).abs() < 1e-12,
                    "{moved:?}"
                );
            }
        }
        assert!(square > 2000 && reused > square / 2, "{square} {reused}");
    }
}
