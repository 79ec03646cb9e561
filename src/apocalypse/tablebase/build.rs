//! Building tablebases: every class in order, each by value iteration over its matrix games.
//!
//! A class starts with a combinatorial pass over all its positions that finds both sides'
//! limit-sure wins (`limit.rs`) and settles them at exactly ±1: value iteration would only
//! creep towards them like c/N. The rest is iterated. Footman steps only move footmen forward,
//! so positions are grouped by their footman configuration and the groups processed from the
//! most advanced down: a group's successors are then finished (outcomes, earlier classes, more
//! advanced groups) or in the group itself (both sides moved horsemen), and only that remainder
//! needs iterating. Redeploys move footmen back; classes where a side has two horsemen and can
//! redeploy repeat the whole sweep until no value changes. Each group iterates Jacobi-style (a
//! new array per iteration: the N-th iterate is the N-turn value with unfinished play scored 0,
//! whose limit is the value with endless play a draw).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::format::{self, ClassFile};
use super::index::{classes_in_build_order, ClassIndex, ClassKey};
use super::limit::{limit_sure_wins, GameGraph, Successor};
use super::probe::{ClassTable, Tablebases};
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::declarable_moves;
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::matrix_game::{self, Matrix};

/// What to build and how.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Largest number of pieces on the board.
    pub max_pieces: u32,
    /// The rules the values hold under.
    pub rules: RuleSet,
    /// The tablebase directory (the class files go to its subdirectory for `rules`).
    pub dir: PathBuf,
    /// Iterate until no value changes by more than this.
    pub tolerance: f64,
    /// Give up iterating a group (or sweeping a class) after this many rounds.
    pub max_iterations: u32,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl BuildOptions {
    /// Defaults for `max_pieces` pieces under `rules` in `dir`.
    pub fn new(max_pieces: u32, rules: RuleSet, dir: PathBuf) -> BuildOptions {
        BuildOptions {
            max_pieces,
            rules,
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
    let rules = tables.rules();
    let size = index.group_size();
    let first = group as u64 * size;
    let mut out = Vec::with_capacity(size as usize);
    for local in 0..size {
        let pos = index.position(first + local);
        let state = outcome(&pos, rules);
        if state.is_over() {
            out.push(Err(state.value()));
            continue;
        }
        let white = declarable_moves(&pos, Side::White, rules);
        let black = declarable_moves(&pos, Side::Black, rules);
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
    let state = outcome(next, tables.rules());
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

/// Codes of the class-wide move graph: successors outside the class, by outcome for the
/// limit-sure analysis; anything else is a position index.
const WHITE_WINS: u32 = u32::MAX;
const BLACK_WINS: u32 = u32::MAX - 1;
const ELSEWHERE: u32 = u32::MAX - 2;

/// Every position's joint moves of one class, compactly (4 bytes per joint move).
struct ClassGraph {
    /// White's and Black's number of moves; (0, 0) for finished positions.
    shapes: Vec<(u8, u8)>,
    offsets: Vec<u64>,
    successors: Vec<u32>,
}

impl ClassGraph {
    fn new(tables: &Tablebases, index: &ClassIndex) -> Result<ClassGraph, String> {
        let size = index.group_size();
        type Part = (Vec<(u8, u8)>, Vec<u32>);
        let parts: Vec<Result<Part, String>> = (0..index.groups())
            .into_par_iter()
            .map(|g| {
                let first = g as u64 * size;
                let games = group_games(tables, index, g)?;
                let mut shapes = Vec::with_capacity(games.len());
                let mut successors = Vec::new();
                for game in &games {
                    let Ok(game) = game else {
                        shapes.push((0, 0));
                        continue;
                    };
                    let narrow = |n: usize| u8::try_from(n).map_err(|_| "too many moves");
                    shapes.push((narrow(game.rows)?, narrow(game.cols)?));
                    successors.extend(game.cells.iter().map(|&c| match c {
                        Cell::Fixed(1.0) => WHITE_WINS,
                        Cell::Fixed(-1.0) => BLACK_WINS,
                        Cell::Fixed(_) => ELSEWHERE,
                        Cell::Local(k) => (first + k as u64) as u32,
                        Cell::Class(i) => i as u32,
                    }));
                }
                Ok((shapes, successors))
            })
            .collect();
        let mut graph = ClassGraph {
            shapes: Vec::with_capacity(index.len() as usize),
            offsets: Vec::with_capacity(index.len() as usize),
            successors: Vec::new(),
        };
        for part in parts {
            let (shapes, successors) = part?;
            let mut offset = graph.successors.len() as u64;
            for &(w, b) in &shapes {
                graph.offsets.push(offset);
                offset += w as u64 * b as u64;
            }
            graph.shapes.extend(shapes);
            graph.successors.extend(successors);
        }
        Ok(graph)
    }
}

/// The class graph seen by one side for the limit-sure analysis.
struct SideView<'a> {
    graph: &'a ClassGraph,
    white: bool,
}

impl GameGraph for SideView<'_> {
    fn positions(&self) -> usize {
        self.graph.shapes.len()
    }
    fn live(&self, s: usize) -> bool {
        self.graph.shapes[s].0 > 0
    }
    fn shape(&self, s: usize) -> (usize, usize) {
        let (w, b) = self.graph.shapes[s];
        if self.white {
            (w as usize, b as usize)
        } else {
            (b as usize, w as usize)
        }
    }
    fn successor(&self, s: usize, a: usize, b: usize) -> Successor {
        let cols = self.graph.shapes[s].1 as usize;
        let cell = if self.white {
            a * cols + b
        } else {
            b * cols + a
        };
        match self.graph.successors[self.graph.offsets[s] as usize + cell] {
            WHITE_WINS if self.white => Successor::Target,
            BLACK_WINS if !self.white => Successor::Target,
            WHITE_WINS | BLACK_WINS | ELSEWHERE => Successor::Outside,
            k => Successor::State(k),
        }
    }
}

/// Both sides' limit-sure wins in a class, found over the whole class at once (redeploys link
/// its groups both ways): sets each win's value in `values` to exactly ±1 and returns every
/// position's stamp (the round of the analysis that found its win; 0 for none).
fn settle_limit_sure_wins(
    tables: &Tablebases,
    index: &ClassIndex,
    values: &mut [f64],
) -> Result<Vec<u32>, String> {
    let graph = ClassGraph::new(tables, index)?;
    let white = limit_sure_wins(&SideView {
        graph: &graph,
        white: true,
    });
    let black = limit_sure_wins(&SideView {
        graph: &graph,
        white: false,
    });
    let mut stamps = Vec::with_capacity(white.len());
    for ((value, w), b) in values.iter_mut().zip(white).zip(black) {
        debug_assert!(
            w.is_none() || b.is_none(),
            "a position cannot be won by both sides"
        );
        if w.is_some() {
            *value = 1.0;
        } else if b.is_some() {
            *value = -1.0;
        }
        stamps.push(w.or(b).unwrap_or(0));
    }
    Ok(stamps)
}

/// How one group's iteration ended.
struct GroupResult {
    values: Vec<f64>,
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
        // Rayon within the iteration too: a level's last, slowest group would otherwise
        // leave the other cores idle.
        let next: Vec<f64> = games
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .map(|(i, game)| match game {
                Err(v) => *v,
                Ok(g) => {
                    let stale = iterations > 1
                        && !(g.has_local
                            && g.cells
                                .iter()
                                .any(|c| matches!(c, Cell::Local(k) if changed[*k as usize])));
                    if stale {
                        values[i]
                    } else {
                        game_value(g, &values, class)
                    }
                }
            })
            .collect();
        let mut next_changed = vec![false; n];
        let mut residual: f64 = 0.0;
        for i in 0..n {
            let d = (next[i] - values[i]).abs();
            if d > 0.0 {
                next_changed[i] = true;
                residual = residual.max(d);
            }
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
    // Wins are settled at exactly +-1 before any iteration (value iteration only approaches
    // limit-sure wins like c/N). A win's stamp is the round that found it: it relies only on
    // wins of this class with smaller stamps, so strategies can make progress.
    let started = Instant::now();
    let stamps = settle_limit_sure_wins(tables, index, &mut values)?;
    log::debug!(
        "{}: {} wins settled by the limit-sure analysis in {:.1} s",
        index.key.name(),
        stamps.iter().filter(|&&s| s != 0).count(),
        started.elapsed().as_secs_f64()
    );
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
                    let start = &values[g * size..(g + 1) * size];
                    // Settled wins keep their ±1 through every sweep.
                    for ((game, &stamp), &v) in games
                        .iter_mut()
                        .zip(&stamps[g * size..(g + 1) * size])
                        .zip(start)
                    {
                        if stamp != 0 {
                            *game = Err(v);
                        }
                    }
                    let started = Instant::now();
                    let r =
                        iterate_group(&games, start, &values, opts.tolerance, opts.max_iterations);
                    log::debug!(
                        "{} group {g}: {} iterations, residual {:.1e}, {:.2} s",
                        index.key.name(),
                        r.iterations,
                        r.residual,
                        started.elapsed().as_secs_f64()
                    );
                    bar.inc(size as u64);
                    Ok((g, r))
                })
                .collect();
            for r in results {
                let (g, r) = r?;
                let slot = &mut values[g * size..(g + 1) * size];
                for (old, new) in slot.iter_mut().zip(&r.values) {
                    sweep_change = sweep_change.max((*old - *new).abs());
                    *old = *new;
                }
                iterations = iterations.max(r.iterations);
                sweep_converged &= r.converged;
                sweep_residual = sweep_residual.max(r.residual);
            }
        }
        converged = sweep_converged;
        residual = sweep_residual;
        if !sweeps_needed {
            break;
        }
        residual = residual.max(sweep_change);
        log::debug!(
            "{} sweep {sweep}: largest change {sweep_change:.3e}",
            index.key.name()
        );
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
        rules: tables.rules(),
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
/// class is rebuilt too (it may depend on the new values). `on_class` sees each class's
/// summary as soon as the class is finished (with the progress bar out of the way).
pub fn build(
    opts: &BuildOptions,
    mut on_class: impl FnMut(&ClassSummary),
) -> Result<Vec<ClassSummary>, String> {
    let dir = format::rules_dir(&opts.dir, opts.rules);
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tables = Tablebases::for_build(&dir, opts.max_pieces, opts.rules);
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
        let path = format::path_of(&dir, &key);
        bar.set_message(key.name());
        // After a class is (re)built, later classes may depend on its new values: redo them.
        let reused = if path.exists() && !built_any {
            match format::read(&dir, &key, opts.rules, index.len()) {
                Ok(file) => {
                    bar.inc(index.len());
                    Some(file)
                }
                Err(e) => {
                    bar.suspend(|| eprintln!("apocalypse: tablebase {e}; rebuilding it"));
                    None
                }
            }
        } else {
            None
        };
        let was_reused = reused.is_some();
        let (file, seconds, bytes) = match reused {
            Some(file) => {
                let bytes = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                (file, 0.0, bytes)
            }
            None => {
                built_any = true;
                let started = Instant::now();
                let file = solve_class(&tables, &index, opts, &bar)?;
                let bytes = format::write_atomically(&dir, &file)?;
                (file, started.elapsed().as_secs_f64(), bytes)
            }
        };
        let summary = ClassSummary {
            key,
            positions: index.len(),
            results: tally(&file.values),
            seconds,
            bytes,
            reused: was_reused,
            converged: file.converged,
            residual: file.residual,
            iterations: file.iterations,
        };
        bar.suspend(|| on_class(&summary));
        summaries.push(summary);
        tables.insert(ClassTable {
            index,
            values: file.values,
            stamps: file.stamps,
        });
    }
    bar.finish_and_clear();
    Ok(summaries)
}
