//! Extinction chess: rules, search, evaluation and protocols.
