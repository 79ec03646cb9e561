//! Search of any position, above the rules and the tablebases: the anytime iterative-deepening
//! search with its horizon evaluation, exploitability measurements of its strategies, and the
//! pure-strategy alpha-beta opponent it is measured against.

pub mod alphabeta;
pub mod anytime;
pub mod eval;
pub mod exploit;
