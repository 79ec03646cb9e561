//! Loading tablebases and reading values: lazily per class, with missing or damaged files
//! reported once on stderr and then treated as absent.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::format;
use super::index::{classes_in_build_order, ClassIndex, ClassKey};
use crate::apocalypse::board::{Position, Side};
use crate::apocalypse::moves::{declarable_moves, Move};
use crate::apocalypse::outcome::outcome;
use crate::apocalypse::resolve::resolve;
use crate::matrix_game::{self, Matrix, Solution};

/// The values of one class.
pub struct ClassTable {
    /// How positions are numbered.
    pub index: ClassIndex,
    /// One value per position.
    pub values: Vec<f64>,
}

/// A set of class tables: read lazily from a directory, or filled by the builder.
pub struct Tablebases {
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
    /// No tablebases at all.
    pub fn none() -> Tablebases {
        Tablebases::with_slots(PathBuf::new(), 0, false)
    }

    fn with_slots(dir: PathBuf, max_pieces: u32, load_from_disk: bool) -> Tablebases {
        Tablebases {
            dir,
            max_pieces,
            load_from_disk,
            slots: (0..ClassKey::SLOTS).map(|_| OnceLock::new()).collect(),
        }
    }

    /// An empty set the builder fills class by class.
    pub fn for_build(dir: &Path, max_pieces: u32) -> Tablebases {
        Tablebases::with_slots(dir.to_path_buf(), max_pieces, false)
    }

    /// Tablebases in `dir`, covering as many pieces as the largest class file found there.
    /// Classes missing below that size are reported on stderr (one line); files are read and
    /// checked when first needed.
    pub fn open(dir: &Path) -> Tablebases {
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
        Tablebases::with_slots(dir.to_path_buf(), max_pieces, true)
    }

    /// Largest number of pieces covered.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The directory the tables come from.
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
            match format::read(&self.dir, key, index.len()) {
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

    /// Value of an unfinished position (quiet counter ignored), if its class is available.
    pub fn stored_value(&self, pos: &Position) -> Option<f64> {
        let key = ClassKey::of(pos);
        if key.pieces() > self.max_pieces || key.penalties[0] > 1 || key.penalties[1] > 1 {
            return None;
        }
        if key.is_canonical() {
            let t = self.table(&key)?;
            Some(t.values[t.index.locate(pos)? as usize])
        } else {
            let t = self.table(&key.mirrored())?;
            Some(-t.values[t.index.locate(&pos.mirrored())? as usize])
        }
    }

    /// Exact value of any position (finished ones score their outcome), if available.
    pub fn value(&self, pos: &Position) -> Option<f64> {
        let p = without_counter(pos);
        let state = outcome(&p);
        if state.is_over() {
            return Some(state.value());
        }
        self.stored_value(&p)
    }

    /// The matrix game at an unfinished position, every successor valued by the tablebases.
    pub fn root_game(&self, pos: &Position) -> Result<RootGame, String> {
        let p = without_counter(pos);
        if outcome(&p).is_over() {
            return Err("the game is over in this position".to_string());
        }
        let white = declarable_moves(&p, Side::White);
        let black = declarable_moves(&p, Side::Black);
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
                let stored = table.values[idx as usize];
                let exact = if outcome(&pos).is_over() {
                    Ok(outcome(&pos).value())
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
