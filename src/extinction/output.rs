//! Standard output for protocols and the CLI: one line at a time, flushed, and never a panic
//! when the reader has gone away (a closed pipe ends the process quietly instead).

use std::io::Write;

/// Write `text` and a newline to stdout and flush; exit with status 0 if stdout is closed.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `println!` that ends the process quietly instead of panicking on a closed stdout.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::extinction::output::line(&format!($($arg)*))
    };
}

pub(crate) use outln;
