//! The command-line tools around the engine: `analyze` (positions and PGN games), `bench`
//! (fixed-depth node count and speed), `perft` (move-generator counts), `datagen` and
//! `import-pgn` (labelled positions for tuning) and `tune` (fitting the evaluation weights).
//! They stand beside the protocols, on the engine facade and the layers below it.

pub mod analyze;
pub mod bench;
pub mod datagen;
pub mod perft;
pub mod train;
pub mod tune;

use crate::extinction::engine::MAX_THREADS;

/// Parse a tool's `--threads` value: 1 to [`MAX_THREADS`], the same cap as the UCI `Threads`
/// option, so that a slip of the keyboard cannot start a hundred thousand threads.
pub fn thread_count(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not in 1..={MAX_THREADS}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_capped_like_uci_threads() {
        assert_eq!(thread_count("1"), Ok(1));
        assert_eq!(thread_count(&MAX_THREADS.to_string()), Ok(MAX_THREADS));
        for bad in ["0", "65", "100000", "-1", "two", ""] {
            assert!(thread_count(bad).is_err(), "{bad}");
        }
    }
}
