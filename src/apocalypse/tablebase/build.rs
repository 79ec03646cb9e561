//! Building tablebases: every class in order, each block by block.
//!
//! A class's positions are split into blocks that share their fixed footmen (those of a side
//! with fewer than two horsemen, which only ever advance; `ClassIndex::blocks`). Every
//! successor of a block's position is finished, in a class built earlier, in a block with more
//! advanced fixed footmen, or in the block itself, so blocks are solved one after another, most
//! advanced first, and the blocks of one level side by side. Each block starts with a
//! combinatorial pass that finds both sides' limit-sure wins (`limit.rs`) and settles them at
//! exactly ±1 (value iteration would only creep towards them like c/N); the rest is value
//! iteration (`iterate.rs`), whose limit is the value with endless play a draw. Games are
//! regenerated rather than stored when a block is too large (`block.rs`), so memory stays
//! bounded by the values themselves.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::block::{BlockGames, Layout};
use super::format::{self, ClassFile};
use super::index::{classes_in_build_order, ClassIndex, ClassKey};
use super::iterate::{iterate_block, IterationReport};
use super::limit::limit_sure_wins;
use super::probe::{ClassTable, Tablebases};
use super::successors::ClassGames;
use super::values::{CompactValues, MAX_STAMP};
use crate::apocalypse::rules::ruleset::RuleSet;

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
    /// Give up iterating a block after this many value-iteration passes.
    pub max_iterations: u32,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Count progress on this bar instead (its length is set to the positions to build); a
    /// hidden bar lets a caller read the progress without anything drawn.
    pub bar: Option<ProgressBar>,
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
            bar: None,
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
    /// Most value-iteration passes any block needed.
    pub iterations: u32,
}

/// Blocks with at least this many positions are solved one at a time (each with all cores);
/// smaller ones of a level side by side.
const LARGE_BLOCK: usize = 1 << 17;

/// What solving one block produced: its positions' values and stamps, and how it went.
struct BlockResult {
    indices: Vec<u64>,
    values: Vec<f64>,
    stamps: Vec<u32>,
    report: IterationReport,
}

/// Solve one block given every class before this one and every block before this one.
fn solve_block(
    games: &ClassGames,
    layout: &Layout,
    id: u32,
    groups: &[usize],
    class: &[f64],
    opts: &BuildOptions,
) -> Result<BlockResult, String> {
    let started = Instant::now();
    let block = BlockGames::new(games, layout, id, groups)?;
    let n = block.len();
    log::trace!(
        "{} block {id}: {n} positions generated in {:.2} s, games {}",
        games.index().key.name(),
        started.elapsed().as_secs_f64(),
        if block.is_cached() {
            "kept"
        } else {
            "regenerated at each visit"
        }
    );
    let mut local: Vec<f64> = (0..n).map(|l| block.finished(l).unwrap_or(0.0)).collect();
    let mut stamps = vec![0u32; n];
    let partners = colour_partners(&block, games.index());
    // Wins are settled at exactly ±1 before any iteration (value iteration only approaches
    // limit-sure wins like c/N). A win's stamp is the round that found it: it relies only on
    // wins of this block with smaller stamps, and on earlier blocks and classes.
    let white_wins = limit_sure_wins(&block.side_view(class, true));
    let black_wins = match &partners {
        // Black wins where White wins in the colour-swapped position, in the same round.
        Some(partners) => partners.iter().map(|&p| white_wins[p as usize]).collect(),
        None => limit_sure_wins(&block.side_view(class, false)),
    };
    for (wins, value) in [(white_wins, 1.0), (black_wins, -1.0)] {
        for (l, round) in wins.into_iter().enumerate() {
            if let Some(round) = round {
                if round > MAX_STAMP {
                    return Err(format!("a win found in round {round}, over {MAX_STAMP}"));
                }
                local[l] = value;
                stamps[l] = round;
            }
        }
    }
    let settled = started.elapsed();
    // With colour symmetry only one of each pair is iterated; the other mirrors it.
    let active: Vec<usize> = (0..n)
        .filter(|&l| block.finished(l).is_none() && stamps[l] == 0)
        .filter(|&l| partners.as_ref().is_none_or(|p| p[l] as usize >= l))
        .collect();
    let report = iterate_block(
        &block,
        &active,
        partners.as_deref(),
        &mut local,
        class,
        opts.tolerance,
        opts.max_iterations,
    )?;
    log::debug!(
        "{} block {id}: {n} positions, {} iterated, wins in {:.2} s, {} passes, residual {:.1e}, {:.2} s",
        games.index().key.name(),
        active.len(),
        settled.as_secs_f64(),
        report.passes,
        report.residual,
        started.elapsed().as_secs_f64()
    );
    Ok(BlockResult {
        indices: (0..n).map(|l| block.index_of(l)).collect(),
        values: local,
        stamps,
        report,
    })
}

/// For a block that is its own colour swap (a class with the same material and penalties on
/// both sides, whose swapped positions all fall in the same block), the local number of each
/// position's colour-swapped twin, whose value is the negation; `None` otherwise. Both halves
/// of the build then work on one position of each pair.
fn colour_partners(block: &BlockGames, index: &ClassIndex) -> Option<Vec<u32>> {
    if index.key.mirrored() != index.key {
        return None;
    }
    let partners: Option<Vec<u32>> = (0..block.len())
        .into_par_iter()
        .with_min_len(4096)
        .map(|l| {
            let twin = index.position(block.index_of(l)).mirrored();
            let idx = index.locate(&twin)?;
            block.local_of(idx).map(|k| k as u32)
        })
        .collect();
    partners
}

/// Values within this of 0 are stored as exactly 0 (rounding noise of the LP). Values near
/// ±1 are left alone: a value of exactly ±1 is a limit-sure win, which only the limit-sure
/// analysis establishes.
const SNAP: f64 = 1e-12;

fn snap(v: f64) -> f64 {
    if v.abs() <= SNAP {
        0.0
    } else {
        v
    }
}

/// Solve one class given all the classes before it: block by block, most advanced first.
pub fn solve_class(
    tables: &Tablebases,
    index: &ClassIndex,
    opts: &BuildOptions,
    bar: &ProgressBar,
) -> Result<ClassFile, String> {
    let games = ClassGames::new(index, tables);
    let levels = index.blocks();
    let blocks: Vec<&[usize]> = levels
        .iter()
        .flat_map(|level| level.iter().map(Vec::as_slice))
        .collect();
    let layout = Layout::new(index, &blocks);
    let mut values = vec![0.0; index.len() as usize];
    let mut stamps = vec![0u32; index.len() as usize];
    let (mut iterations, mut converged, mut residual) = (0u32, true, 0.0f64);
    let mut first_id = 0u32;
    for level in &levels {
        let size = |groups: &Vec<usize>| groups.len() * index.group_size() as usize;
        let ids: Vec<u32> = (first_id..first_id + level.len() as u32).collect();
        first_id += level.len() as u32;
        let (large, small): (Vec<_>, Vec<_>) = level
            .iter()
            .zip(ids)
            .partition(|(groups, _)| size(groups) >= LARGE_BLOCK);
        let class: &[f64] = &values;
        let mut results: Vec<Result<BlockResult, String>> = small
            .par_iter()
            .map(|(groups, id)| {
                let r = solve_block(&games, &layout, *id, groups, class, opts);
                bar.inc(size(groups) as u64);
                r
            })
            .collect();
        for (groups, id) in &large {
            results.push(solve_block(&games, &layout, *id, groups, class, opts));
            bar.inc(size(groups) as u64);
        }
        for r in results {
            let r = r?;
            for ((&idx, &v), &stamp) in r.indices.iter().zip(&r.values).zip(&r.stamps) {
                values[idx as usize] = v;
                stamps[idx as usize] = stamp;
            }
            iterations = iterations.max(r.report.passes);
            converged &= r.report.converged;
            residual = residual.max(r.report.residual);
        }
    }
    if !converged {
        bar.suspend(|| {
            eprintln!(
                "apocalypse: class {} did not converge within {} passes (last change {residual:.3e}); its values are stored with that residual",
                index.key.name(),
                opts.max_iterations
            )
        });
    }
    let values: Vec<f64> = values.into_iter().map(snap).collect();
    Ok(ClassFile {
        key: index.key,
        rules: tables.rules(),
        values: CompactValues::pack(&values, &stamps)?,
        residual,
        iterations,
        converged,
    })
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
    let bar = if let Some(bar) = &opts.bar {
        bar.set_length(total);
        bar.set_position(0);
        bar.clone()
    } else if opts.progress {
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
            results: file.values.tally(),
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
        });
    }
    bar.finish_and_clear();
    Ok(summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds the tables of every class up to `max_pieces` in a fresh directory.
    fn built(max_pieces: u32, name: &str) -> (PathBuf, Tablebases) {
        let dir = std::env::temp_dir().join(format!("apoc-build-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut opts = BuildOptions::new(max_pieces, RuleSet::Classic, dir.clone());
        opts.progress = false;
        build(&opts, |_| {}).expect("build");
        let tables = Tablebases::open(&dir, RuleSet::Classic);
        (dir, tables)
    }

    #[test]
    fn colour_twins_pair_up_within_symmetric_blocks_only() {
        let (dir, tables) = built(4, "twins");
        let index = ClassIndex::new(ClassKey::parse("PNvpn-00").expect("class"));
        let games = ClassGames::new(&index, &tables);
        let levels = index.blocks();
        let blocks: Vec<&[usize]> = levels.iter().flatten().map(Vec::as_slice).collect();
        let layout = Layout::new(&index, &blocks);
        let mut symmetric = 0;
        for (id, groups) in blocks.iter().enumerate() {
            let block = BlockGames::new(&games, &layout, id as u32, groups).expect("block");
            // The block's own footmen, swapped: the block is its own twin when they land in it.
            let pos = index.position(block.index_of(0));
            let own = index
                .locate(&pos.mirrored())
                .and_then(|i| block.local_of(i));
            let Some(twins) = colour_partners(&block, &index) else {
                assert!(own.is_none(), "block {id} is its own colour swap");
                continue;
            };
            symmetric += 1;
            for (l, &t) in twins.iter().enumerate() {
                assert_eq!(twins[t as usize] as usize, l, "twins pair up");
                let swapped = index.position(block.index_of(l)).mirrored();
                assert_eq!(index.locate(&swapped), Some(block.index_of(t as usize)));
            }
        }
        assert!(symmetric > 0 && symmetric < blocks.len(), "{symmetric}");
        // A class whose colour swap is another class has no twins.
        let index = ClassIndex::new(ClassKey::parse("PNvpn-10").expect("class"));
        let games = ClassGames::new(&index, &tables);
        let levels = index.blocks();
        let blocks: Vec<&[usize]> = levels.iter().flatten().map(Vec::as_slice).collect();
        let layout = Layout::new(&index, &blocks);
        let block = BlockGames::new(&games, &layout, 0, blocks[0]).expect("block");
        assert!(colour_partners(&block, &index).is_none());
        let _ = fs::remove_dir_all(&dir);
    }
}
