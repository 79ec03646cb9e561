//! Search of any position, above the rules and the tablebases: the anytime iterative-deepening
//! search with its horizon evaluation (and the fit of its weights), exploitability
//! measurements of its strategies, the pure-strategy alpha-beta opponent it is measured against
//! (and its scripted, biased variants), and the safe exploitation of a model of that opponent
//! or of a person.

pub mod alphabeta;
pub mod anytime;
pub mod eval;
pub mod exploit;
pub mod fit;
pub mod move_model;
pub mod opponent_model;
pub mod scripted;
