//! The `apocalypse` binary: rules and solvers for Apocalypse.

fn main() {
    variant_engines::logging::init();
    eprintln!("apocalypse: not yet implemented");
}
