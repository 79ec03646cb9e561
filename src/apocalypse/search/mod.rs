//! Search of any position, above the rules and the tablebases: the anytime iterative-deepening
//! search with its horizon evaluation, and exploitability measurements of its strategies.

pub mod anytime;
pub mod eval;
pub mod exploit;
