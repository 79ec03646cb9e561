//! The `extinction` binary: Extinction chess engine (UCI, XBoard, analysis, perft, bench).

fn main() {
    variant_engines::logging::init();
    eprintln!("extinction: not yet implemented");
}
