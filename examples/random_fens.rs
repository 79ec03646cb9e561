//! Print FENs reached by random play from the start (or a given FEN), for cross-checking
//! perft against Fairy-Stockfish: `cargo run --release --example random_fens -- COUNT SEED [FEN]`.

use variant_engines::console::outln;
use variant_engines::extinction::{MoveList, Position};
use variant_engines::rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let start = match args.get(3) {
        Some(f) => Position::from_fen(f).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Position::startpos(),
    };
    let mut rng = Rng::new(seed);
    let mut rng = move || rng.next_u64();
    let mut printed = 0;
    while printed < count {
        let mut pos = start.clone();
        let plies = 4 + rng() % 80;
        for _ in 0..plies {
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[(rng() % list.len() as u64) as usize];
            pos.do_move(m);
        }
        if !pos.is_finished() || rng() % 4 == 0 {
            outln!("{}", pos.fen());
            printed += 1;
        }
    }
}
