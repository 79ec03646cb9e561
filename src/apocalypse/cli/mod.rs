//! The `apocalypse` command line's one home: every subcommand's clap arguments (an `*Args`
//! struct per subcommand) and its implementation (`run`), called by the binary
//! (`src/bin/apocalypse.rs`) once clap has parsed the arguments. The top layer: it uses the
//! rules, solvers, tablebases, search and games below it, and nothing uses it.
//!
//! Every function prints its report on stdout through `console` (a closed pipe ends the
//! process quietly) and returns a one-line error for the binary to print on stderr.
//! `serve/` answers over HTTP instead, with the same JSON that `solve --json` and
//! `tb probe --json` print.

pub mod bench;
pub mod exploit;
pub mod play_human;
pub mod print;
pub mod rules;
pub mod selfplay;
pub mod serve;
pub mod solve;
pub mod tablebase;
pub mod tables;
pub mod tune;
