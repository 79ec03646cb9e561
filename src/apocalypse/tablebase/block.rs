//! One block of a class being built: the groups of positions that share their fixed footmen
//! (`ClassIndex::block_key`). Every successor of a block's position is finished, in a class
//! built earlier, in a block solved earlier, or in the block itself, so a block is solved on
//! its own: first its limit-sure wins, then value iteration on the rest.
//!
//! The block's matrix games are kept in memory when they fit `CACHE_CELLS`, and otherwise
//! regenerated (cheaply, `successors.rs`) each time they are visited: the largest six-piece
//! block (`PNNvpnn`, 10.6 M positions, 1.6 billion joint moves) would need 13 GB.

use std::cell::RefCell;

use rayon::prelude::*;

use super::index::ClassIndex;
use super::limit::{GameGraph, Successor};
use super::successors::{Cell, ClassGames, Game};

/// Most joint moves a block keeps in memory (8 bytes each).
pub const CACHE_CELLS: usize = 48 << 20;

/// Where each group of a class sits: its block and its slot within the block.
pub struct Layout {
    block_of_group: Vec<u32>,
    slot_of_group: Vec<u32>,
    group_size: u64,
}

impl Layout {
    /// The layout of `blocks` (as `ClassIndex::blocks` lists them, numbered in that order).
    pub fn new(index: &ClassIndex, blocks: &[&[usize]]) -> Layout {
        let mut block_of_group = vec![u32::MAX; index.groups()];
        let mut slot_of_group = vec![u32::MAX; index.groups()];
        for (b, groups) in blocks.iter().enumerate() {
            for (slot, &g) in groups.iter().enumerate() {
                block_of_group[g] = b as u32;
                slot_of_group[g] = slot as u32;
            }
        }
        Layout {
            block_of_group,
            slot_of_group,
            group_size: index.group_size(),
        }
    }

    /// The class number of local position `l` of the block made of `groups`.
    fn index_of(&self, groups: &[usize], l: usize) -> u64 {
        let gs = self.group_size;
        groups[l / gs as usize] as u64 * gs + (l as u64 % gs)
    }
}

/// The positions of one block and their games.
pub struct BlockGames<'a> {
    games: &'a ClassGames<'a>,
    layout: &'a Layout,
    id: u32,
    groups: &'a [usize],
    /// Per local position: `Some(value)` when finished.
    finished: Vec<Option<f64>>,
    cache: Option<Cache>,
}

/// Every live position's game of a block, flat.
struct Cache {
    /// Per local position: first cell and number of columns (0 for finished positions).
    starts: Vec<u64>,
    cols: Vec<u16>,
    cells: Vec<Cell>,
}

/// What generating 1024 positions of a block gives: which are finished, and (when caching)
/// the shapes and cells of the others' games.
type Chunk = (Vec<Option<f64>>, Vec<u16>, Vec<u16>, Vec<Cell>);

thread_local! {
    static SCRATCH: RefCell<Game> = RefCell::new(Game::default());
}

impl<'a> BlockGames<'a> {
    /// Generate the block's games once: find its finished positions, and keep the games if
    /// they fit the cache.
    pub fn new(
        games: &'a ClassGames<'a>,
        layout: &'a Layout,
        id: u32,
        groups: &'a [usize],
    ) -> Result<BlockGames<'a>, String> {
        let n = groups.len() * layout.group_size as usize;
        let per_position = |l: usize, game: &mut Game| games.game(layout.index_of(groups, l), game);
        // Estimate the block's joint moves from 64 positions spread over it before deciding
        // to cache.
        let mut probe = Game::default();
        let (mut sampled, mut sampled_cells) = (0usize, 0usize);
        for l in (0..n).step_by(n.div_ceil(64).max(1)) {
            sampled += 1;
            if per_position(l, &mut probe)?.is_none() {
                sampled_cells += probe.cells.len();
            }
        }
        let estimate = sampled_cells * n / sampled.max(1);
        let chunks: Vec<Result<Chunk, String>> = (0..n.div_ceil(1024))
            .into_par_iter()
            .map(|c| {
                let mut game = Game::default();
                let (mut finished, mut rows, mut cols, mut cells) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                for l in c * 1024..((c + 1) * 1024).min(n) {
                    let done = per_position(l, &mut game)?;
                    finished.push(done);
                    if estimate <= CACHE_CELLS {
                        let (r, k) = if done.is_some() { (0, 0) } else { game.shape() };
                        rows.push(r as u16);
                        cols.push(k as u16);
                        if done.is_none() {
                            cells.extend_from_slice(&game.cells);
                        }
                    }
                }
                Ok((finished, rows, cols, cells))
            })
            .collect();
        let mut finished = Vec::with_capacity(n);
        let mut cache = (estimate <= CACHE_CELLS).then(|| Cache {
            starts: Vec::with_capacity(n),
            cols: Vec::with_capacity(n),
            cells: Vec::new(),
        });
        for chunk in chunks {
            let (f, rows, cols, cells) = chunk?;
            finished.extend(f);
            if let Some(cache) = &mut cache {
                let mut at = cache.cells.len() as u64;
                for (&r, &k) in rows.iter().zip(&cols) {
                    cache.starts.push(at);
                    cache.cols.push(k);
                    at += r as u64 * k as u64;
                }
                cache.cells.extend(cells);
            }
        }
        Ok(BlockGames {
            games,
            layout,
            id,
            groups,
            finished,
            cache,
        })
    }

    /// Number of positions in the block.
    pub fn len(&self) -> usize {
        self.finished.len()
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.finished.is_empty()
    }

    /// The class number of local position `l`.
    pub fn index_of(&self, l: usize) -> u64 {
        self.layout.index_of(self.groups, l)
    }

    /// The local position of class position `idx`, if it lies in this block.
    pub fn local_of(&self, idx: u64) -> Option<usize> {
        let gs = self.layout.group_size;
        let g = (idx / gs) as usize;
        (self.layout.block_of_group[g] == self.id)
            .then(|| self.layout.slot_of_group[g] as usize * gs as usize + (idx % gs) as usize)
    }

    /// Whether the block's games are kept in memory (else regenerated at each visit).
    pub fn is_cached(&self) -> bool {
        self.cache.is_some()
    }

    /// The value of a finished position, `None` for a live one.
    pub fn finished(&self, l: usize) -> Option<f64> {
        self.finished[l]
    }

    /// Calls `f` with a live position's rows, columns and row-major cells.
    pub fn visit<R>(&self, l: usize, f: impl FnOnce(usize, usize, &[Cell]) -> R) -> R {
        if let Some(cache) = &self.cache {
            let cols = cache.cols[l] as usize;
            let start = cache.starts[l] as usize;
            let end = cache
                .starts
                .get(l + 1)
                .map_or(cache.cells.len(), |&e| e as usize);
            let rows = (end - start).checked_div(cols).unwrap_or(0);
            return f(rows, cols, &cache.cells[start..end]);
        }
        SCRATCH.with(|scratch| {
            let mut game = scratch.borrow_mut();
            // The block's games were all generated once in `new`, so this cannot fail now.
            let done = self
                .games
                .game(self.index_of(l), &mut game)
                .expect("a game generated before generates again");
            debug_assert!(done.is_none(), "visit a live position only");
            let (rows, cols) = game.shape();
            f(rows, cols, &game.cells)
        })
    }

    /// The value of a cell, reading this block's positions from `local` and the class's other
    /// (already solved) positions from `class`.
    pub fn cell_value(&self, cell: Cell, local: &[f64], class: &[f64]) -> f64 {
        match cell.as_local() {
            None => cell.resolve(&[]),
            Some(k) => match self.local_of(k) {
                Some(l) => local[l],
                None => class[k as usize],
            },
        }
    }

    /// Both sides' limit-sure analysis needs the block seen from one side.
    pub fn side_view<'b>(&'b self, class: &'b [f64], white: bool) -> SideView<'b, 'a> {
        SideView {
            block: self,
            class,
            white,
        }
    }
}

/// A block seen by one player for the limit-sure analysis: targets are its wins outside the
/// block (finished games, earlier classes and blocks with value ±1 for the player).
pub struct SideView<'b, 'a> {
    block: &'b BlockGames<'a>,
    class: &'b [f64],
    white: bool,
}

impl SideView<'_, '_> {
    fn successor(&self, cell: Cell) -> Successor {
        if let Some(l) = cell.as_local().and_then(|k| self.block.local_of(k)) {
            return Successor::State(l as u32);
        }
        let win = if self.white { 1.0 } else { -1.0 };
        // Not a position of this block, so `cell_value` reads no block value.
        if self.block.cell_value(cell, &[], self.class) == win {
            Successor::Target
        } else {
            Successor::Outside
        }
    }
}

impl GameGraph for SideView<'_, '_> {
    fn positions(&self) -> usize {
        self.block.len()
    }

    fn live(&self, s: usize) -> bool {
        self.block.finished(s).is_none()
    }

    fn visit<R>(
        &self,
        s: usize,
        f: impl FnOnce(usize, usize, &dyn Fn(usize, usize) -> Successor) -> R,
    ) -> R {
        self.block.visit(s, |rows, cols, cells| {
            if self.white {
                f(rows, cols, &|a, b| self.successor(cells[a * cols + b]))
            } else {
                f(cols, rows, &|a, b| self.successor(cells[b * cols + a]))
            }
        })
    }
}
