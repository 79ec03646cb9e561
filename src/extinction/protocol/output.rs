//! The output side of a session: every line either protocol writes goes through [`say`],
//! whole and flushed at once, from the session loop or from the search thread's reporter.

/// Write one protocol line to stdout (a closed stdout ends the process quietly, see
/// `console`); with `RUST_LOG=trace` it is echoed to the log on stderr.
pub fn say(line: &str) {
    log::trace!("> {line}");
    crate::console::line(line);
}
