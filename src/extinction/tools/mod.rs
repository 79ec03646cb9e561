//! The command-line tools around the engine: `analyze` (positions and PGN games), `bench`
//! (fixed-depth node count and speed), `perft` (move-generator counts), `datagen` and
//! `import-pgn` (labelled positions for tuning) and `tune` (fitting the evaluation weights).
//! They stand beside the protocols, on the engine facade and the layers below it.

pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod perft;
pub mod tune;
