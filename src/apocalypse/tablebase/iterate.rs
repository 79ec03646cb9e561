//! Value iteration over one block's unsettled positions.
//!
//! A pass solves every position's matrix game over the current values (a Jacobi step: the
//! N-th pass from 0 gives the N-turn values, whose limit scores endless play as a draw), until
//! no value moves by more than the tolerance. Matrix games are solved on the supports the last
//! pass found when those are still optimal (`matrix_game::solve_on_support`), else from scratch.
//!
//! Passes are not accelerated by evaluating their strategies (policy iteration). That was
//! tried: the Markov chains of the strategies, solved by BiCGSTAB, converge in a few passes,
//! but the fixed points of these games are badly conditioned (shuttling loops that are left
//! with a tiny probability) and the accelerated values landed up to 1e-7 away from the limit
//! of the N-turn values, on points whose fixed-point residual was under 1e-13; positions that
//! plain iteration leaves at exactly 0 or -1/2 came out 5e-8 off. Plain iteration from 0 is
//! the definition of the stored values, so it is what runs.

use rayon::prelude::*;

use super::block::BlockGames;
use crate::matrix_game::{self, Matrix};

/// How the iteration of a block ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct IterationReport {
    /// Value-iteration passes (linear programs solved at every active position).
    pub passes: u32,
    /// Largest value change in the last pass.
    pub residual: f64,
    /// Whether the last pass moved no value by more than the tolerance.
    pub converged: bool,
}

/// The supports of a position's last optimal strategies (moves 0..128 of each side).
#[derive(Clone, Copy, Default)]
struct Support {
    rows: u128,
    cols: u128,
}

fn bits(p: &[f64]) -> u128 {
    p.iter()
        .enumerate()
        .filter(|(_, &x)| x > 0.0)
        .fold(0, |acc, (i, _)| acc | (1u128 << i))
}

fn indices(mask: u128) -> Vec<usize> {
    (0..128).filter(|&i| mask & (1u128 << i) != 0).collect()
}

/// Iterate `active` (local positions of `block`) in `local` until no value changes by more
/// than `tolerance`; every other value (of the block in `local`, of the class in `class`)
/// stays fixed, except that with colour `partners` each active position's twin takes the
/// negated value after every pass.
pub fn iterate_block(
    block: &BlockGames,
    active: &[usize],
    partners: Option<&[u32]>,
    local: &mut [f64],
    class: &[f64],
    tolerance: f64,
    max_passes: u32,
) -> Result<IterationReport, String> {
    let mut report = IterationReport::default();
    if active.is_empty() {
        report.converged = true;
        return Ok(report);
    }
    let mut supports = vec![Support::default(); active.len()];
    // Which values of the block the last pass changed: a position none of whose successors
    // changed would get its last value again, so its game is not solved (most of a block
    // settles long before its slowest loops do).
    let mut changed = vec![true; local.len()];
    loop {
        report.passes += 1;
        let started = std::time::Instant::now();
        let current: &[f64] = local;
        let moved: &[bool] = &changed;
        let solved: Vec<Option<(f64, Support)>> = active
            .par_iter()
            .zip(&supports)
            .with_min_len(256)
            .map(|(&l, hint)| {
                block.visit(l, |rows, cols, cells| {
                    if rows > 128 || cols > 128 {
                        return Err(format!("a position with {rows} x {cols} moves"));
                    }
                    let stale = cells.iter().any(|c| {
                        c.as_local()
                            .and_then(|k| block.local_of(k))
                            .is_some_and(|k| moved[k])
                    });
                    if report.passes > 1 && !stale {
                        return Ok(None);
                    }
                    let data = cells
                        .iter()
                        .map(|&c| block.cell_value(c, current, class))
                        .collect();
                    let m = Matrix::new(rows, cols, data);
                    let sol = (hint.rows != 0)
                        .then(|| {
                            matrix_game::solve_on_support(
                                &m,
                                &indices(hint.rows),
                                &indices(hint.cols),
                            )
                        })
                        .flatten()
                        .unwrap_or_else(|| matrix_game::solve(&m));
                    let support = Support {
                        rows: bits(&sol.row_strategy),
                        cols: bits(&sol.col_strategy),
                    };
                    Ok(Some((sol.value, support)))
                })
            })
            .collect::<Result<_, String>>()?;
        let mut residual: f64 = 0.0;
        changed.fill(false);
        for ((&l, solved), hint) in active.iter().zip(&solved).zip(supports.iter_mut()) {
            let Some((value, support)) = *solved else {
                continue;
            };
            residual = residual.max((value - local[l]).abs());
            changed[l] = value != local[l];
            local[l] = value;
            *hint = support;
        }
        report.residual = residual;
        if let Some(partners) = partners {
            for &l in active {
                let p = partners[l] as usize;
                if p != l {
                    local[p] = -local[l];
                    changed[p] = changed[l];
                }
            }
        }
        log::trace!(
            "pass {}: {} of {} games solved, residual {residual:.3e}, {:.2} s",
            report.passes,
            solved.iter().filter(|s| s.is_some()).count(),
            active.len(),
            started.elapsed().as_secs_f64()
        );
        if residual <= tolerance {
            report.converged = true;
            return Ok(report);
        }
        if report.passes >= max_passes {
            return Ok(report);
        }
    }
}
