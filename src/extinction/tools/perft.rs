//! `extinction perft`: count the leaf nodes of the move tree from a position (the standard
//! move-generator test), in total or per root move, on one or more threads.

use crate::console::outln;
use crate::extinction::rules::{divide_parallel, perft_threaded, Position};

/// Arguments of `extinction perft`.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Start position (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the node count of each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = super::thread_count)]
    pub threads: usize,
}

/// Run `extinction perft`: `move: nodes` lines with `--divide`, then `Nodes searched: N`.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    let nodes = if args.divide {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build();
        let rows = match pool {
            Ok(pool) => pool.install(|| divide_parallel(&pos, args.depth)),
            Err(_) => divide_parallel(&pos, args.depth),
        };
        for (m, n) in &rows {
            outln!("{m}: {n}");
        }
        rows.iter().map(|&(_, n)| n).sum()
    } else {
        perft_threaded(&pos, args.depth, args.threads)
    };
    outln!("Nodes searched: {nodes}");
    Ok(())
}
