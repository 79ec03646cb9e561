//! The process's two streams, shared by both binaries: protocol and report lines on stdout,
//! written whole and flushed, never a panic when the reader has gone away (a closed pipe ends
//! the process quietly with status 0); logs through `env_logger` on stderr, never on stdout.

use std::io::Write;

/// Initialise `env_logger` writing to stderr; `RUST_LOG` selects the level (default: warn).
pub fn init_logging() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}

/// Write `text` to stdout as it is and flush; exit with status 0 if stdout is closed.
pub fn write(text: &str) {
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

/// Write `text` and a newline to stdout and flush; exit with status 0 if stdout is closed.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

#[macro_export]
/// `println!` that ends the process quietly instead of panicking on a closed stdout.
macro_rules! outln {
    () => {
        $crate::console::line("")
    };
    ($($arg:tt)*) => {
        $crate::console::line(&format!($($arg)*))
    };
}

#[macro_export]
/// `print!` that ends the process quietly instead of panicking on a closed stdout.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write(&format!($($arg)*))
    };
}

pub use crate::{out, outln};
