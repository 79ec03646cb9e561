//! Logging setup shared by both binaries: `env_logger` to stderr, never stdout.

/// Initialise `env_logger` writing to stderr; `RUST_LOG` selects the level (default: warn).
pub fn init() {
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .try_init();
}
