//! The server's tablebases and their builds: the tables of each rule set behind a lock, so a
//! finished build swaps new ones in while requests go on, and at most one build at a time in
//! a background thread (`POST /api/tablebases/build`), its state (idle, building with its
//! progress, failed with why) reported by `GET /api/tablebases`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use indicatif::ProgressBar;
use serde::Serialize;

use super::problem::Problem;
use crate::apocalypse::cli::tables::{build_quietly, complete_pieces};
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::apocalypse::tablebase::Tablebases;

/// What the builder is doing.
#[derive(Clone, Debug)]
enum BuildState {
    /// No build running (the last one, if any, succeeded).
    Idle,
    /// Building every class with at most `max_pieces` pieces; `bar` counts the positions.
    Building { max_pieces: u32, bar: ProgressBar },
    /// The last build failed.
    Failed(String),
}

/// The tablebases of every rule set, the directory they come from and the build state.
pub struct Shelf {
    dir: Option<PathBuf>,
    tables: Arc<[RwLock<Arc<Tablebases>>; 2]>,
    state: Arc<Mutex<BuildState>>,
}

/// `GET /api/tablebases`.
#[derive(Serialize, Debug)]
pub struct TablebasesReply {
    /// The tablebase directory (null when the server has none).
    pub dir: Option<String>,
    /// The rule set the server builds and reports.
    pub rules: &'static str,
    /// The largest K such that every class with at most K pieces is loaded (0: none).
    pub max_pieces: u32,
    /// The builder's state.
    pub build: BuildReply,
}

/// The builder's state: `{"state": "idle"}`, `{"state": "building", "max_pieces", "progress"}`
/// (progress from 0 to 1) or `{"state": "failed", "message"}`.
#[derive(Serialize, Debug)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum BuildReply {
    /// Nothing running.
    Idle,
    /// A build is running.
    Building {
        /// Its piece count.
        max_pieces: u32,
        /// The share of its positions solved so far.
        progress: f64,
    },
    /// The last build failed.
    Failed {
        /// Why, in one line.
        message: String,
    },
}

impl Shelf {
    /// The tables `open` gives for each rule set, rebuilt from `dir` after a build; without
    /// `dir` nothing can be built.
    pub fn new(open: impl Fn(RuleSet) -> Tablebases, dir: Option<PathBuf>) -> Shelf {
        Shelf {
            dir,
            tables: Arc::new(RuleSet::ALL.map(|rules| RwLock::new(Arc::new(open(rules))))),
            state: Arc::new(Mutex::new(BuildState::Idle)),
        }
    }

    /// The tablebases of `rules` as they are now.
    pub fn get(&self, rules: RuleSet) -> Arc<Tablebases> {
        let slot = &self.tables[RuleSet::ALL.iter().position(|&r| r == rules).unwrap_or(0)];
        slot.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn state(&self) -> BuildState {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What `GET /api/tablebases` answers for the rule set `rules`.
    pub fn status(&self, rules: RuleSet) -> TablebasesReply {
        let loaded = self.get(rules).max_pieces();
        let max_pieces = match &self.dir {
            Some(dir) => complete_pieces(dir, rules).min(loaded),
            None => loaded,
        };
        let build = match self.state() {
            BuildState::Idle => BuildReply::Idle,
            BuildState::Building { max_pieces, bar } => BuildReply::Building {
                max_pieces,
                progress: bar.length().map_or(0.0, |total| {
                    (bar.position() as f64 / total.max(1) as f64).min(1.0)
                }),
            },
            BuildState::Failed(message) => BuildReply::Failed { message },
        };
        TablebasesReply {
            dir: self.dir.as_ref().map(|d| d.display().to_string()),
            rules: rules.name(),
            max_pieces,
            build,
        }
    }

    /// Start building every class of `rules` with at most `max_pieces` pieces in the
    /// background; the new tables replace the old ones when it is done. A 409 while another
    /// build runs; a 422 when the server has no directory to build into.
    pub fn start_build(&self, max_pieces: u32, rules: RuleSet) -> Result<(), Problem> {
        let Some(dir) = self.dir.clone() else {
            return Err(Problem::Unprocessable(
                "this server has no tablebase directory to build into".into(),
            ));
        };
        let bar = ProgressBar::hidden();
        {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if let BuildState::Building { max_pieces, .. } = *state {
                return Err(Problem::Conflict(format!(
                    "a {max_pieces}-piece tablebase build is already running"
                )));
            }
            *state = BuildState::Building {
                max_pieces,
                bar: bar.clone(),
            };
        }
        let tables = Arc::clone(&self.tables);
        let state = Arc::clone(&self.state);
        std::thread::spawn(move || {
            log::info!(
                "building the {max_pieces}-piece tablebases in {}",
                dir.display()
            );
            let result = build_quietly(max_pieces, &dir, rules, Some(bar));
            let next = match result {
                Ok(()) => {
                    let fresh = Arc::new(Tablebases::open(&dir, rules));
                    let slot = &tables[RuleSet::ALL.iter().position(|&r| r == rules).unwrap_or(0)];
                    *slot.write().unwrap_or_else(|e| e.into_inner()) = fresh;
                    log::info!("{max_pieces}-piece tablebases built and loaded");
                    BuildState::Idle
                }
                Err(e) => {
                    log::error!("tablebase build failed: {e}");
                    BuildState::Failed(e.replace(['\r', '\n'], " "))
                }
            };
            *state.lock().unwrap_or_else(|e| e.into_inner()) = next;
        });
        Ok(())
    }
}
