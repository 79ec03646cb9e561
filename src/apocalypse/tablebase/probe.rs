//! Loading tablebases and reading values: lazily per class, with missing or damaged files
//! reported once on stderr and then treated as absent.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::format;
use super::index::{classes_in_build_order, ClassIndex, ClassKey};
use super::limit::{witness_layers, witness_strategy, Successor};
use super::values::CompactValues;
use crate::apocalypse::rules::board::{Position, Side};
use crate::apocalypse::rules::moves::{declarable_moves, Move};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::resolve::resolve;
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::matrix_game::{self, Matrix, Solution};

/// The values of one class.
pub struct ClassTable {
    /// How positions are numbered.
    pub index: ClassIndex,
    /// One value per position and, per won or lost position, the order in which its win was
    /// established within its block (0: not recorded): a win relies only on wins of its block
    /// with smaller stamps, on other blocks of its class and on earlier classes.
    pub values: CompactValues,
}

/// What the tablebases hold for one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredEntry {
    /// White's value.
    pub value: f64,
    /// The stamp of a won or lost position (0 otherwise).
    pub stamp: u32,
    /// The stored class (the position's own, or its colour-swapped twin).
    pub class: ClassKey,
    /// The position's block within the stored class (`ClassIndex::block_key`).
    pub block: u64,
}

/// A set of class tables of one rule set: read lazily from that rule set's directory, or
/// filled by the builder.
pub struct Tablebases {
    rules: RuleSet,
    dir: PathBuf,
    max_pieces: u32,
    load_from_disk: bool,
    slots: Vec<OnceLock<Option<Arc<ClassTable>>>>,
}

/// The matrix game at a position with every entry taken from the tablebases.
#[derive(Clone, Debug)]
pub struct RootGame {
    /// White's declarable moves (rows).
    pub white: Vec<Move>,
    /// Black's declarable moves (columns).
    pub black: Vec<Move>,
    /// Values of the successors, White's payoff.
    pub matrix: Matrix,
}

impl RootGame {
    /// Value and optimal strategies.
    pub fn solve(&self) -> Solution {
        matrix_game::solve(&self.matrix)
    }
}

/// How the winner of a won tablebase position should play so that the win actually comes.
///
/// Every move of a won position's optimal strategy keeps the value ±1, so a strategy that is
/// merely optimal in the one-turn matrix can shuttle forever (a draw). This one steers towards
/// wins established earlier by the build (smaller stamps, earlier classes, finished games).
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressStrategy {
    /// The side that wins.
    pub winner: Side,
    /// Probability of each of the winner's declarable moves.
    pub strategy: Vec<f64>,
    /// True when no move risks the win (a sure win); false when the win is only limit-sure
    /// and some moves, played with small weight, could let the opponent escape.
    pub sure: bool,
}

impl ProgressStrategy {
    /// Put this strategy in place of the winner's in a solution of the position's matrix game.
    pub fn apply(self, sol: &mut Solution) {
        match self.winner {
            Side::White => sol.row_strategy = self.strategy,
            Side::Black => sol.col_strategy = self.strategy,
        }
    }
}

/// Result of checking the fixed point over a class.
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// Positions checked.
    pub positions: u64,
    /// Largest |stored value - matrix-game value over stored successor values|.
    pub max_residual: f64,
    /// A position where the largest residual occurs.
    pub worst: Option<Position>,
}

/// The position with the quiet counter cleared: tablebase values ignore it.
fn without_counter(pos: &Position) -> Position {
    let mut p = *pos;
    p.quiet = 0;
    p
}

impl Tablebases {
    /// No tablebases at all, for a game under `rules`.
    pub fn none(rules: RuleSet) -> Tablebases {
        Tablebases::with_slots(rules, PathBuf::new(), 0, false)
    }

    fn with_slots(
        rules: RuleSet,
        dir: PathBuf,
        max_pieces: u32,
        load_from_disk: bool,
    ) -> Tablebases {
        Tablebases {
            rules,
            dir,
            max_pieces,
            load_from_disk,
            slots: (0..ClassKey::SLOTS).map(|_| OnceLock::new()).collect(),
        }
    }

    /// An empty set the builder fills class by class (`dir`: the rule set's directory).
    pub fn for_build(dir: &Path, max_pieces: u32, rules: RuleSet) -> Tablebases {
        Tablebases::with_slots(rules, dir.to_path_buf(), max_pieces, false)
    }

    /// The tablebases of `rules` under the tablebase directory `top` (in its subdirectory named
    /// after the rule set), covering as many pieces as the largest class file found there.
    /// Classes missing below that size are reported on stderr (one line); files are read and
    /// checked when first needed.
    pub fn open(top: &Path, rules: RuleSet) -> Tablebases {
        let dir = &format::rules_dir(top, rules);
        let mut present = Vec::new();
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(stem) = name.strip_suffix(".tb") {
                    if let Ok(key) = ClassKey::parse(stem) {
                        present.push(key);
                    }
                }
            }
        }
        let max_pieces = present.iter().map(ClassKey::pieces).max().unwrap_or(0);
        let missing: Vec<String> = classes_in_build_order(max_pieces)
            .into_iter()
            .filter(|k| !present.contains(k))
            .map(|k| format::file_name(&k))
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "apocalypse: tablebases in {}: {} of the files for up to {max_pieces} pieces are missing ({}); those positions are searched instead",
                dir.display(),
                missing.len(),
                missing.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            );
        }
        Tablebases::with_slots(rules, dir.to_path_buf(), max_pieces, true)
    }

    /// The rules the values hold under.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Largest number of pieces covered.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The directory the tables come from (the rule set's own).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Add a finished class (builder).
    pub fn insert(&self, table: ClassTable) {
        let slot = table.index.key.slot();
        let _ = self.slots[slot].set(Some(Arc::new(table)));
    }

    /// The table of a canonical class, loading it on first use.
    pub fn table(&self, key: &ClassKey) -> Option<Arc<ClassTable>> {
        if key.pieces() > self.max_pieces {
            return None;
        }
        let slot = &self.slots[key.slot()];
        if !self.load_from_disk {
            return slot.get().cloned().flatten();
        }
        slot.get_or_init(|| {
            let path = format::path_of(&self.dir, key);
            if !path.exists() {
                return None;
            }
            let index = ClassIndex::new(*key);
            match format::read(&self.dir, key, self.rules, index.len()) {
                Ok(file) => Some(Arc::new(ClassTable {
                    index,
                    values: file.values,
                })),
                Err(e) => {
                    eprintln!("apocalypse: tablebase {e}; carrying on without it");
                    None
                }
            }
        })
        .clone()
    }

    /// Where an unfinished position (quiet counter ignored) is stored: its canonical class's
    /// table, its number there, the canonical position, and the sign that turns the stored
    /// value into White's.
    fn stored_slot(&self, pos: &Position) -> Option<(Arc<ClassTable>, usize, Position, f64)> {
        let key = ClassKey::of(pos);
        if key.pieces() > self.max_pieces || key.penalties[0] > 1 || key.penalties[1] > 1 {
            return None;
        }
        let (class, stored, sign) = if key.is_canonical() {
            (key, *pos, 1.0)
        } else {
            (key.mirrored(), pos.mirrored(), -1.0)
        };
        let t = self.table(&class)?;
        let i = t.index.locate(&stored)? as usize;
        Some((t, i, stored, sign))
    }

    /// Value of an unfinished position (quiet counter ignored), if its class is available.
    pub fn stored_value(&self, pos: &Position) -> Option<f64> {
        let (t, i, _, sign) = self.stored_slot(pos)?;
        Some(sign * t.values.value(i))
    }

    /// Value, win stamp, stored class and block of an unfinished position.
    pub fn stored_entry(&self, pos: &Position) -> Option<StoredEntry> {
        let (t, i, stored, sign) = self.stored_slot(pos)?;
        Some(StoredEntry {
            value: sign * t.values.value(i),
            stamp: t.values.stamp(i),
            class: t.index.key,
            block: t.index.block_key(stored.footmen),
        })
    }

    /// The winner's progress strategy at a won or lost tablebase position; `None` for other
    /// values, finished games, uncovered positions, and wins the build did not stamp.
    pub fn progress_strategy(&self, pos: &Position) -> Option<ProgressStrategy> {
        let p = without_counter(pos);
        if outcome(&p, self.rules).is_over() {
            return None;
        }
        let here = self.stored_entry(&p)?;
        let value = here.value;
        if value.abs() != 1.0 || here.stamp == 0 {
            return None;
        }
        let winner = if value > 0.0 {
            Side::White
        } else {
            Side::Black
        };
        let mine = declarable_moves(&p, winner, self.rules);
        let theirs = declarable_moves(&p, winner.opponent(), self.rules);
        let mut successors = Vec::with_capacity(mine.len() * theirs.len());
        for &m in &mine {
            for &t in &theirs {
                let joint = if winner == Side::White {
                    [m, t]
                } else {
                    [t, m]
                };
                let next = without_counter(&resolve(&p, joint).0);
                let state = outcome(&next, self.rules);
                successors.push(if state.is_over() {
                    if state.value() == value {
                        Successor::Target
                    } else {
                        Successor::Outside
                    }
                } else {
                    // Other classes and other blocks of this class were settled before
                    // this position's block: reaching one of their wins is progress.
                    match self.stored_entry(&next) {
                        Some(e) if e.value == value => {
                            if e.class != here.class
                                || e.block != here.block
                                || (e.stamp != 0 && e.stamp < here.stamp)
                            {
                                Successor::Target
                            } else {
                                Successor::State(0)
                            }
                        }
                        _ => Successor::Outside,
                    }
                });
            }
        }
        let layers = witness_layers(
            mine.len(),
            theirs.len(),
            |a, b| successors[a * theirs.len() + b],
            |s| s != Successor::Outside,
            |s| s == Successor::Target,
        )?;
        Some(ProgressStrategy {
            winner,
            strategy: witness_strategy(&layers),
            sure: layers.iter().all(|l| l.is_none_or(|k| k == 1)),
        })
    }

    /// Exact value of any position (finished ones score their outcome), if available.
    pub fn value(&self, pos: &Position) -> Option<f64> {
        let p = without_counter(pos);
        let state = outcome(&p, self.rules);
        if state.is_over() {
            return Some(state.value());
        }
        self.stored_value(&p)
    }

    /// The matrix game at an unfinished position, every successor valued by the tablebases.
    pub fn root_game(&self, pos: &Position) -> Result<RootGame, String> {
        let p = without_counter(pos);
        if outcome(&p, self.rules).is_over() {
            return Err("the game is over in this position".to_string());
        }
        let white = declarable_moves(&p, Side::White, self.rules);
        let black = declarable_moves(&p, Side::Black, self.rules);
        let mut data = Vec::with_capacity(white.len() * black.len());
        for &w in &white {
            for &b in &black {
                let (next, _) = resolve(&p, [w, b]);
                data.push(self.value(&next).ok_or_else(|| {
                    format!(
                        "position not covered by the tablebases in {} (up to {} pieces{})",
                        self.dir.display(),
                        self.max_pieces,
                        if self.max_pieces == 0 {
                            "; none found"
                        } else {
                            ""
                        }
                    )
                })?);
            }
        }
        let matrix = Matrix::new(white.len(), black.len(), data);
        Ok(RootGame {
            white,
            black,
            matrix,
        })
    }

    /// Check every position of a class: stored value equals the matrix-game value over the
    /// stored values of its successors (finished successors score their outcome).
    pub fn verify_class(&self, key: &ClassKey) -> Result<VerifyReport, String> {
        let table = self.table(key).ok_or_else(|| {
            format!(
                "class {} not available in {}",
                key.name(),
                self.dir.display()
            )
        })?;
        let n = table.index.len();
        let worst = (0..n)
            .into_par_iter()
            .map(|idx| {
                let pos = table.index.position(idx);
                let stored = table.values.value(idx as usize);
                let state = outcome(&pos, self.rules);
                let exact = if state.is_over() {
                    Ok(state.value())
                } else {
                    self.root_game(&pos).map(|g| g.solve().value)
                };
                exact.map(|v| ((v - stored).abs(), idx))
            })
            .try_reduce(|| (0.0, u64::MAX), |a, b| Ok(if b.0 > a.0 { b } else { a }))?;
        Ok(VerifyReport {
            positions: n,
            max_residual: worst.0,
            worst: (worst.1 != u64::MAX).then(|| table.index.position(worst.1)),
        })
    }
}
