//! Building tablebases: every class in order, each by value iteration over its matrix games.
//!
//! Inside a class, footman steps only move footmen forward, so positions are grouped by their
//! footman configuration and the groups processed from the most advanced down: a group's
//! successors are then finished (outcomes, earlier classes, more advanced groups) or in the
//! group itself (both sides moved horsemen), and only that remainder needs iterating. Redeploys
//! move footmen back; classes where a side has two horsemen and can redeploy repeat the whole
//! sweep until no value changes. Each group iterates Jacobi-style (a new array per iteration:
//! the N-th iterate is the N-turn value with unfinished play scored 0, whose limit is the value
//! with endless play a draw).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::format::{self, ClassFile};
use super::index::{classes_in_build_order, ClassIndex, ClassKey};
use super::limit::{limit_sure_wins, LocalGame, Successor};
use super::probe::{ClassTable, Tablebases};
use crate::apocalypse::board::{Position, Side};
use crate::apocalypse::moves::declarable_moves;
use crate::apocalypse::outcome::outcome;
use crate::apocalypse::resolve::resolve;
use crate::matrix_game::{self, Matrix};

/// What to build and how.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Largest number of pieces on the board.
    pub max_pieces: u32,
    /// Directory of the class files.
    pub dir: PathBuf,
    /// Iterate until no value changes by more than this.
    pub tolerance: f64,
    /// Give up iterating a group (or sweeping a class) after this many rounds.
    pub max_iterations: u32,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl BuildOptions {
    /// Defaults for `max_pieces` pieces in `dir`.
    pub fn new(max_pieces: u32, dir: PathBuf) -> BuildOptions {
        BuildOptions {
            max_pieces,
            dir,
            tolerance: 1e-11,
            max_iterations: 100_000,
            progress: true,
        }
    }
}

/// What the build did for one class.
#[derive(Clone, Debug)]
pub struct ClassSummary {
    /// The class.
    pub key: ClassKey,
    /// Positions stored (canonical under the file mirror).
    pub positions: u64,
    /// Positions won by White, drawn, lost, and with a fractional value.
    pub results: [u64; 4],
    /// Seconds spent (0 if the file was reused).
    pub seconds: f64,
    /// Size of the file.
    pub bytes: u64,
    /// Whether a valid file was found and reused.
    pub reused: bool,
    /// Whether every iteration converged.
    pub converged: bool,
    /// Largest change in the last iteration.
    pub residual: f64,
    /// Most iterations any group needed.
    pub iterations: u32,
}

/// One entry of a position's matrix game while its group is solved.
#[derive(Clone, Copy)]
enum Cell {
    /// A settled value (outcome, earlier class, finished group).
    Fixed(f64),
    /// A position of the same group (its current iterate).
    Local(u32),
    /// A position of the same class outside the group (the class array, for redeploys).
    Class(u64),
}

struct Game {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    has_local: bool,
}

/// The matrix games of one group's positions; `None` for finished positions.
fn group_games(
    tables: &Tablebases,
    index: &ClassIndex,
    group: usize,
) -> Result<Vec<Result<Game, f64>>, String> {
    let size = index.group_size();
    let first = group as u64 * size;
    let mut out = Vec::with_capacity(size as usize);
    for local in 0..size {
        let pos = index.position(first + local);
        let state = outcome(&pos);
        if state.is_over() {
            out.push(Err(state.value()));
            continue;
        }
        let white = declarable_moves(&pos, Side::White);
        let black = declarable_moves(&pos, Side::Black);
        let mut cells = Vec::with_capacity(white.len() * black.len());
        let mut has_local = false;
        for &w in &white {
            for &b in &black {
                let (mut next, _) = resolve(&pos, [w, b]);
                next.quiet = 0;
                cells.push(successor_cell(tables, index, first, size, &next)?);
                has_local |= matches!(cells.last(), Some(Cell::Local(_)));
            }
        }
        out.push(Ok(Game {
            rows: white.len(),
            cols: black.len(),
            cells,
            has_local,
        }));
    }
    Ok(out)
}

fn successor_cell(
    tables: &Tablebases,
    index: &ClassIndex,
    first: u64,
    size: u64,
    next: &Position,
) -> Result<Cell, String> {
    let state = outcome(next);
    if state.is_over() {
        return Ok(Cell::Fixed(state.value()));
    }
    if ClassKey::of(next) == index.key {
        let idx = index
            .locate(next)
            .ok_or("internal error: successor missing from its class index")?;
        return Ok(if (first..first + size).contains(&idx) {
            Cell::Local((idx - first) as u32)
        } else {
            Cell::Class(idx)
        });
    }
    tables.stored_value(next).map(Cell::Fixed).ok_or_else(|| {
        format!(
            "internal error: class {} needed before it was built",
            ClassKey::of(next).name()
        )
    })
}

fn game_value(game: &Game, local: &[f64], class: &[f64]) -> f64 {
    let data = game
        .cells
        .iter()
        .map(|&c| match c {
            Cell::Fixed(v) => v,
            Cell::Local(k) => local[k as usize],
            Cell::Class(i) => class[i as usize],
        })
        .collect();
    matrix_game::solve(&Matrix::new(game.rows, game.cols, data)).value
}

/// The group's games as seen by the player hoping for `target` (+1 White, -1 Black), for the
/// limit-sure analysis: a cell is a target when its value is settled at `target` exactly.
fn local_games(games: &[Result<Game, f64>], class: &[f64], target: f64) -> Vec<Option<LocalGame>> {
    let successor = |cell: &Cell| match *cell {
        Cell::Fixed(v) if v == target => Successor::Target,
        Cell::Class(i) if class[i as usize] == target => Successor::Target,
        Cell::Local(k) => match games[k as usize] {
            Ok(_) => Successor::State(k),
            Err(v) if v == target => Successor::Target,
            Err(_) => Successor::Outside,
        },
        _ => Successor::Outside,
    };
    games
        .iter()
        .map(|game| {
            let g = game.as_ref().ok()?;
            let white_view = LocalGame {
                rows: g.rows,
                cols: g.cols,
                successors: g.cells.iter().map(successor).collect(),
            };
            Some(if target > 0.0 {
                white_view
            } else {
                white_view.transposed()
            })
        })
        .collect()
}

/// Settle the group's limit-sure wins of either side at exactly ±1 (value iteration would only
/// approach them like c/N); returns each position's round of the analysis (`None`: not won).
fn settle_limit_sure_wins(games: &mut [Result<Game, f64>], class: &[f64]) -> Vec<Option<u32>> {
    let white = limit_sure_wins(&local_games(games, class, 1.0));
    let black = limit_sure_wins(&local_games(games, class, -1.0));
    let mut rounds = Vec::with_capacity(games.len());
    for (game, (w, b)) in games.iter_mut().zip(white.into_iter().zip(black)) {
        debug_assert!(
            w.is_none() || b.is_none(),
            "a position cannot be won by both sides"
        );
        let round = if game.is_ok() { w.or(b) } else { None };
        if round.is_some() {
            *game = Err(if w.is_some() { 1.0 } else { -1.0 });
        }
        rounds.push(round);
    }
    rounds
}

/// How one group's iteration ended.
struct GroupResult {
    values: Vec<f64>,
    /// Round of the limit-sure analysis that settled each position (`None`: not a win).
    rounds: Vec<Option<u32>>,
    iterations: u32,
    residual: f64,
    converged: bool,
}

/// Jacobi value iteration over one group from `start`, other values held fixed.
fn iterate_group(
    games: &[Result<Game, f64>],
    start: &[f64],
    class: &[f64],
    tolerance: f64,
    max_iterations: u32,
) -> GroupResult {
    let n = games.len();
    let mut values = start.to_vec();
    let mut changed = vec![true; n];
    let mut iterations = 0;
    loop {
        iterations += 1;
        let mut next = values.clone();
        let mut next_changed = vec![false; n];
        let mut residual: f64 = 0.0;
        for (i, game) in games.iter().enumerate() {
            let v = match game {
                Err(v) => *v,
                Ok(g) => {
                    let stale = iterations > 1
                        && !(g.has_local
                            && g.cells
                                .iter()
                                .any(|c| matches!(c, Cell::Local(k) if changed[*k as usize])));
                    if stale {
                        continue;
                    }
                    game_value(g, &values, class)
                }
            };
            let d = (v - values[i]).abs();
            if d > 0.0 {
                next_changed[i] = true;
                residual = residual.max(d);
            }
            next[i] = v;
        }
        if iterations % 1000 == 0 {
            let worst = (0..n)
                .max_by(|&a, &b| {
                    (next[a] - values[a])
                        .abs()
                        .total_cmp(&(next[b] - values[b]).abs())
                })
                .unwrap_or(0);
            log::trace!(
                "iteration {iterations}: residual {residual:.3e}, worst local {worst} value {:.12}",
                next[worst]
            );
        }
        values = next;
        changed = next_changed;
        if residual <= tolerance || iterations >= max_iterations {
            return GroupResult {
                values,
                rounds: Vec::new(),
                iterations,
                residual,
                converged: residual <= tolerance,
            };
        }
    }
}

/// Values within this of -1, 0 or 1 are stored as exactly that (rounding noise of the LP).
const SNAP: f64 = 1e-12;

fn snap(v: f64) -> f64 {
    let r = v.round();
    if (v - r).abs() <= SNAP {
        r + 0.0
    } else {
        v
    }
}

/// Solve one class given all the classes before it.
pub fn solve_class(
    tables: &Tablebases,
    index: &ClassIndex,
    opts: &BuildOptions,
    bar: &ProgressBar,
) -> Result<ClassFile, String> {
    let mut levels: BTreeMap<std::cmp::Reverse<u32>, Vec<usize>> = BTreeMap::new();
    for g in 0..index.groups() {
        levels
            .entry(std::cmp::Reverse(index.advancement(g)))
            .or_default()
            .push(g);
    }
    let size = index.group_size() as usize;
    let mut values = vec![0.0; index.len() as usize];
    // Order in which wins were established (0 = not by the limit-sure analysis): a win only
    // relies on wins of this class with smaller stamps, so strategies can make progress.
    let mut stamps = vec![0u32; index.len() as usize];
    let mut next_stamp = 1u32;
    let sweeps_needed = index.key.can_redeploy();
    let (mut iterations, mut converged, mut residual) = (0u32, true, 0.0f64);
    for sweep in 1.. {
        if sweep > 1 {
            bar.inc_length(index.len());
            bar.set_message(format!("{} sweep {sweep}", index.key.name()));
        }
        let mut sweep_change: f64 = 0.0;
        let (mut sweep_converged, mut sweep_residual) = (true, 0.0f64);
        for groups in levels.values() {
            let results: Vec<Result<(usize, GroupResult), String>> = groups
                .par_iter()
                .map(|&g| {
                    let mut games = group_games(tables, index, g)?;
                    let rounds = settle_limit_sure_wins(&mut games, &values);
                    let start = &values[g * size..(g + 1) * size];
                    let started = Instant::now();
                    let mut r =
                        iterate_group(&games, start, &values, opts.tolerance, opts.max_iterations);
                    log::debug!(
                        "{} group {g}: {} settled by the limit-sure analysis, {} iterations, residual {:.1e}, {:.2} s",
                        index.key.name(),
                        rounds.iter().filter(|r| r.is_some()).count(),
                        r.iterations,
                        r.residual,
                        started.elapsed().as_secs_f64()
                    );
                    r.rounds = rounds;
                    bar.inc(size as u64);
                    Ok((g, r))
                })
                .collect();
            // Groups of one level only see each other's values from before the level, so all
            // their rounds are stamped after every earlier level.
            let mut last_round = 0;
            for r in results {
                let (g, r) = r?;
                for (stamp, round) in stamps[g * size..(g + 1) * size].iter_mut().zip(&r.rounds) {
                    *stamp = round.map_or(0, |k| next_stamp + k - 1);
                    last_round = last_round.max(round.unwrap_or(0));
                }
                let slot = &mut values[g * size..(g + 1) * size];
                for (old, new) in slot.iter_mut().zip(&r.values) {
                    sweep_change = sweep_change.max((*old - *new).abs());
                    *old = *new;
                }
                iterations = iterations.max(r.iterations);
                sweep_converged &= r.converged;
                sweep_residual = sweep_residual.max(r.residual);
            }
            next_stamp += last_round;
        }
        converged = sweep_converged;
        residual = sweep_residual;
        if !sweeps_needed {
            break;
        }
        residual = residual.max(sweep_change);
        if sweep_change <= opts.tolerance {
            break;
        }
        if sweep >= opts.max_iterations.min(10_000) {
            converged = false;
            break;
        }
    }
    if !converged {
        bar.suspend(|| {
            eprintln!(
                "apocalypse: class {} did not converge within {} iterations (last change {residual:.3e}); its values are stored with that residual",
                index.key.name(),
                opts.max_iterations
            )
        });
    }
    Ok(ClassFile {
        key: index.key,
        values: values.into_iter().map(snap).collect(),
        stamps,
        residual,
        iterations,
        converged,
    })
}

fn tally(values: &[f64]) -> [u64; 4] {
    let mut r = [0u64; 4];
    for &v in values {
        r[if v == 1.0 {
            0
        } else if v == 0.0 {
            1
        } else if v == -1.0 {
            2
        } else {
            3
        }] += 1;
    }
    r
}

/// Build (or complete) the tablebases: classes whose files exist and check out are reused, so
/// an interrupted build resumes where it stopped; once a class had to be built, every later
/// class is rebuilt too (it may depend on the new values).
pub fn build(opts: &BuildOptions) -> Result<Vec<ClassSummary>, String> {
    fs::create_dir_all(&opts.dir)
        .map_err(|e| format!("cannot create {}: {e}", opts.dir.display()))?;
    let tables = Tablebases::for_build(&opts.dir, opts.max_pieces);
    let classes = classes_in_build_order(opts.max_pieces);
    let indices: Vec<ClassIndex> = classes.iter().map(|&k| ClassIndex::new(k)).collect();
    let total: u64 = indices.iter().map(ClassIndex::len).sum();
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} positions, eta {eta} {msg}",
        )
        .expect("valid progress template"),
    );
    let mut summaries = Vec::new();
    let mut built_any = false;
    for index in indices {
        let key = index.key;
        let path = format::path_of(&opts.dir, &key);
        bar.set_message(key.name());
        // After a class is (re)built, later classes may depend on its new values: redo them.
        if path.exists() && !built_any {
            match format::read(&opts.dir, &key, index.len()) {
                Ok(file) => {
                    bar.inc(index.len());
                    summaries.push(ClassSummary {
                        key,
                        positions: index.len(),
                        results: tally(&file.values),
                        seconds: 0.0,
                        bytes: fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
                        reused: true,
                        converged: file.converged,
                        residual: file.residual,
                        iterations: file.iterations,
                    });
                    tables.insert(ClassTable {
                        index,
                        values: file.values,
                        stamps: file.stamps,
                    });
                    continue;
                }
                Err(e) => bar.suspend(|| eprintln!("apocalypse: tablebase {e}; rebuilding it")),
            }
        }
        built_any = true;
        let started = Instant::now();
        let file = solve_class(&tables, &index, opts, &bar)?;
        let bytes = format::write_atomically(&opts.dir, &file)?;
        summaries.push(ClassSummary {
            key,
            positions: index.len(),
            results: tally(&file.values),
            seconds: started.elapsed().as_secs_f64(),
            bytes,
            reused: false,
            converged: file.converged,
            residual: file.residual,
            iterations: file.iterations,
        });
        tables.insert(ClassTable {
            index,
            values: file.values,
            stamps: file.stamps,
        });
    }
    bar.finish_and_clear();
    Ok(summaries)
}
