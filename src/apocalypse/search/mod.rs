//! Search of any position, above the rules and the tablebases: the anytime iterative-deepening
//! search with its horizon evaluation (and the fit of its weights), exploitability measurements of its strategies, and the
//! pure-strategy alpha-beta opponent it is measured against.

pub mod alphabeta;
pub mod anytime;
pub mod eval;
pub mod exploit;
pub mod fit;
