//! The search's margins, depths and counts, named in one place with a line on each; the code
//! that uses them is in `alphabeta.rs` (per node) and `deepening.rs` (per iteration). Margins
//! are in centipawns, depths in plies. Changing any of them changes the search (and its bench
//! node count), so each change wants a strength test.

// Aspiration windows (deepening.rs).

/// From this depth on, an iteration starts with a window around the previous score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Half-width of the first aspiration window.
pub const ASPIRATION_WINDOW: i32 = 30;
/// After each failure the half-width grows by half of itself plus this.
pub const ASPIRATION_GROWTH: i32 = 10;
/// A half-width beyond this gives up on the window and searches the full range.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

// Extensions (alphabeta.rs).

/// Extensions stop at plies beyond this many times the iteration's depth, so that the
/// last-piece danger and singular extensions cannot extend a line without end.
pub const EXTENSION_PLY_FACTOR: i32 = 2;
/// Singular extension: the least depth at which the hash move is tested for being forced.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
/// Singular extension: the hash entry may be at most this much shallower than the node.
pub const SINGULAR_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extension: the other moves must fall this much per ply of depth below the hash
/// move's score for it to count as forced.
pub const SINGULAR_MARGIN_PER_PLY: i32 = 2;

// Pruning before any move is searched (alphabeta.rs).

/// Reverse futility pruning: the deepest node it applies to.
pub const REVERSE_FUTILITY_MAX_DEPTH: i32 = 8;
/// Reverse futility pruning: the static evaluation must beat beta by this much per ply.
pub const REVERSE_FUTILITY_MARGIN: i32 = 150;
/// Null-move pruning: the least depth it is tried at.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Null-move pruning: the reduction before the depth and evaluation terms.
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one more ply of reduction per this many plies of depth.
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 3;
/// Null-move pruning: one more ply of reduction per this much evaluation above beta...
pub const NULL_MOVE_EVAL_DIVISOR: i32 = 200;
/// ... up to this many plies.
pub const NULL_MOVE_MAX_EVAL_REDUCTION: i32 = 3;
/// Internal iterative reduction: a node without a hash move at this depth or more loses a ply.
pub const IIR_MIN_DEPTH: i32 = 4;

// Pruning of single moves (alphabeta.rs).

/// Late-move pruning: the deepest node it applies to.
pub const LATE_MOVE_PRUNING_MAX_DEPTH: i32 = 5;
/// Late-move pruning: quiet moves after `(BASE + SCALE * depth²) / 2` searched ones are
/// skipped; when the evaluation is improving, after twice as many.
pub const LATE_MOVE_PRUNING_BASE: i32 = 4;
/// Late-move pruning: see [`LATE_MOVE_PRUNING_BASE`].
pub const LATE_MOVE_PRUNING_SCALE: i32 = 2;
/// Futility pruning: the deepest node it applies to.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Futility pruning: a quiet move is skipped when the static evaluation plus this much per
/// ply cannot reach alpha.
pub const FUTILITY_MARGIN: i32 = 120;
/// Quiescence SEE pruning: a capture whose static exchange comes out below this is skipped
/// (0: any capture that loses material).
pub const QUIESCENCE_SEE_THRESHOLD: i32 = 0;

// Late-move reductions (alphabeta.rs).

/// The least depth at which late moves are reduced.
pub const LMR_MIN_DEPTH: i32 = 3;
/// The moves searched before reductions begin.
pub const LMR_MIN_MOVES: usize = 3;
/// Reduction table: `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
/// Reduction table: see [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// One ply less reduction per this much history score (more for a negative history).
pub const LMR_HISTORY_DIVISOR: i32 = 20_000;

// History updates at a beta cutoff (alphabeta.rs).

/// The bonus of a cutoff move (and the penalty of the moves tried before it) is
/// `HISTORY_BONUS_SCALE * depth - HISTORY_BONUS_OFFSET`, kept within 0..=HISTORY_BONUS_MAX.
pub const HISTORY_BONUS_SCALE: i32 = 300;
/// See [`HISTORY_BONUS_SCALE`].
pub const HISTORY_BONUS_OFFSET: i32 = 250;
/// See [`HISTORY_BONUS_SCALE`].
pub const HISTORY_BONUS_MAX: i32 = 2400;
/// The quiet moves a node remembers for the history penalty (later ones go unpunished).
pub const MAX_QUIETS_TRIED: usize = 64;
/// The captures a node remembers for the capture-history penalty.
pub const MAX_CAPTURES_TRIED: usize = 32;
