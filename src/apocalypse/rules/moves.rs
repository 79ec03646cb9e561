//! Declarable moves: legal moves (including redeploys and promotions), the speculative steps
//! of the vchess rules, and the forfeit action.

use super::board::{
    file_of, mirror_square, rank_mask, rank_of, square, squares_of, Position, Side, Square, ALL,
    KNIGHT_ATTACKS, NO_SQUARE,
};
use super::ruleset::RuleSet;

/// A declared move: origin, target, and the redeploy square for a footman reaching the last
/// rank when its owner has two or more horsemen. `Move::FORFEIT` stands for every void
/// declaration (`0000` or any illegal move).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Origin square, or `NO_SQUARE` for the forfeit.
    pub from: Square,
    /// Target square (the square captured on, for a redeploy).
    pub to: Square,
    /// Where a redeploying footman goes instead of the last rank, else `NO_SQUARE`.
    pub redeploy: Square,
}

impl Move {
    /// The single void action (null move or any illegal declaration).
    pub const FORFEIT: Move = Move {
        from: NO_SQUARE,
        to: NO_SQUARE,
        redeploy: NO_SQUARE,
    };

    /// A plain move without redeploy.
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            redeploy: NO_SQUARE,
        }
    }

    /// A footman move to the last rank that redeploys.
    pub fn with_redeploy(from: Square, to: Square, redeploy: Square) -> Move {
        Move { from, to, redeploy }
    }

    /// True for the void action.
    pub fn is_forfeit(self) -> bool {
        self.from == NO_SQUARE
    }

    /// The square the moving piece ends on (the redeploy square if any).
    pub fn destination(self) -> Square {
        if self.redeploy != NO_SQUARE {
            self.redeploy
        } else {
            self.to
        }
    }

    /// The same move seen from the other side.
    pub fn mirrored(self) -> Move {
        if self.is_forfeit() {
            return self;
        }
        let flip = |sq: Square| {
            if sq == NO_SQUARE {
                NO_SQUARE
            } else {
                mirror_square(sq)
            }
        };
        Move {
            from: flip(self.from),
            to: flip(self.to),
            redeploy: flip(self.redeploy),
        }
    }
}

/// Square `relative` as seen by `side` (White: itself, Black: flipped), so that move lists of
/// mirrored positions come out in mirrored order.
fn absolute(side: Side, relative: Square) -> Square {
    match side {
        Side::White => relative,
        Side::Black => mirror_square(relative),
    }
}

/// Squares of a mask in `side`'s relative order.
fn relative_squares(side: Side, mask: u32) -> impl Iterator<Item = Square> {
    (0..25u8)
        .map(move |r| absolute(side, r))
        .filter(move |&sq| mask & (1 << sq) != 0)
}

/// One step forward for `side`, if on the board.
fn forward(side: Side, sq: Square) -> Option<Square> {
    match side {
        Side::White if rank_of(sq) < 4 => Some(sq + 5),
        Side::Black if rank_of(sq) > 0 => Some(sq - 5),
        _ => None,
    }
}

/// Diagonal forward targets of a footman, in relative order (towards file a first).
fn diagonals(side: Side, sq: Square) -> impl Iterator<Item = Square> {
    let ahead = forward(side, sq);
    [-1i8, 1i8].into_iter().filter_map(move |df| {
        let ahead = ahead?;
        let f = file_of(sq) as i8 + df;
        (0..5).contains(&f).then(|| square(f as u8, rank_of(ahead)))
    })
}

/// Calls `emit` for every step of `side`'s footman on `from` straight ahead onto an empty
/// square (with `straight`) and diagonally onto `diagonal_targets`, with the last rank's
/// promotion or redeploy squares.
fn footman_steps(
    pos: &Position,
    side: Side,
    rules: RuleSet,
    from: Square,
    straight: bool,
    diagonal_targets: u32,
    emit: &mut impl FnMut(Move),
) {
    let empty = !pos.occupied() & super::board::ALL;
    let last = rank_mask(side.last_rank());
    let must_redeploy = pos.horseman_count(side) >= 2;
    let only_footman = pos.footman_count(side) == 1;
    let mut footman_move = |to: Square| {
        if last & (1 << to) == 0 {
            emit(Move::new(from, to));
        } else if must_redeploy {
            for r in relative_squares(side, empty & !last) {
                emit(Move::with_redeploy(from, to, r));
            }
        } else if !only_footman || rules.last_footman_may_promote() {
            emit(Move::new(from, to));
        }
    };
    if straight {
        if let Some(to) = forward(side, from) {
            if empty & (1 << to) != 0 {
                footman_move(to);
            }
        }
    }
    for to in diagonals(side, from) {
        if diagonal_targets & (1 << to) != 0 {
            footman_move(to);
        }
    }
}

/// Calls `emit` for every legal move of `side` under `rules`, in a fixed side-relative order.
/// Speculative steps are not legal moves (see `for_each_speculative_move`).
pub fn for_each_legal_move(pos: &Position, side: Side, rules: RuleSet, mut emit: impl FnMut(Move)) {
    let s = side.index();
    let own = pos.pieces(side);
    let enemy = pos.pieces(side.opponent());
    for from in relative_squares(side, pos.footmen[s] | pos.horsemen[s]) {
        if pos.horsemen[s] & (1 << from) != 0 {
            for to in relative_squares(side, KNIGHT_ATTACKS[from as usize] & !own) {
                emit(Move::new(from, to));
            }
        } else {
            footman_steps(pos, side, rules, from, true, enemy, &mut emit);
        }
    }
}

/// Calls `emit` for every speculative step `side` may declare under `rules` (none in the
/// classic rules): a footman's diagonal step onto a square empty on B, which is played only
/// if an enemy piece arrives there (see `ruleset`).
pub fn for_each_speculative_move(
    pos: &Position,
    side: Side,
    rules: RuleSet,
    mut emit: impl FnMut(Move),
) {
    if !rules.speculative_steps() {
        return;
    }
    let empty = !pos.occupied() & super::board::ALL;
    for from in relative_squares(side, pos.footmen[side.index()]) {
        footman_steps(pos, side, rules, from, false, empty, &mut emit);
    }
}

/// The legal moves of `side` (forfeit and speculative steps not included).
pub fn legal_moves(pos: &Position, side: Side, rules: RuleSet) -> Vec<Move> {
    let mut moves = Vec::with_capacity(24);
    for_each_legal_move(pos, side, rules, |m| moves.push(m));
    moves
}

/// The declarable actions of `side`: its legal moves, then its speculative steps (vchess),
/// then the forfeit.
pub fn declarable_moves(pos: &Position, side: Side, rules: RuleSet) -> Vec<Move> {
    let mut moves = Vec::with_capacity(24);
    declarable_moves_into(pos, side, rules, &mut moves);
    moves
}

/// `declarable_moves` written into `out` (cleared first), so a caller can reuse one buffer.
pub fn declarable_moves_into(pos: &Position, side: Side, rules: RuleSet, out: &mut Vec<Move>) {
    out.clear();
    for_each_legal_move(pos, side, rules, |m| out.push(m));
    for_each_speculative_move(pos, side, rules, |m| out.push(m));
    out.push(Move::FORFEIT);
}

/// Squares on file a and on file e.
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;

/// The squares `side`'s footmen on `footmen` step onto straight ahead (if empty) and
/// diagonally forward (the squares they attack), as masks.
fn footman_targets(side: Side, footmen: u32) -> (u32, [u32; 2]) {
    let (left, right) = (footmen & !FILE_A, footmen & !FILE_E);
    match side {
        Side::White => (footmen << 5 & ALL, [left << 4 & ALL, right << 6 & ALL]),
        Side::Black => (footmen >> 5, [left >> 6, right >> 4]),
    }
}

/// The squares `side`'s pieces attack: knight jumps and footman diagonals.
pub fn attacked_squares(pos: &Position, side: Side) -> u32 {
    let s = side.index();
    let (_, diagonals) = footman_targets(side, pos.footmen[s]);
    squares_of(pos.horsemen[s]).fold(diagonals[0] | diagonals[1], |acc, sq| {
        acc | KNIGHT_ATTACKS[sq as usize]
    })
}

/// How many legal moves `side` has: the length of `legal_moves`, counted on masks (the
/// horizon evaluation needs only the number, at every leaf).
pub fn legal_move_count(pos: &Position, side: Side, rules: RuleSet) -> u32 {
    let s = side.index();
    let own = pos.pieces(side);
    let enemy = pos.pieces(side.opponent());
    let empty = !pos.occupied() & ALL;
    let last = rank_mask(side.last_rank());
    let mut count: u32 = squares_of(pos.horsemen[s])
        .map(|sq| (KNIGHT_ATTACKS[sq as usize] & !own).count_ones())
        .sum();
    let (straight, diagonals) = footman_targets(side, pos.footmen[s]);
    let steps = [straight & empty, diagonals[0] & enemy, diagonals[1] & enemy];
    let per_last_rank_step = if pos.horseman_count(side) >= 2 {
        // One move per redeploy square: any square empty before the turn and off the mover's
        // last rank (the footman's own square is not empty then).
        (empty & !last).count_ones()
    } else if pos.footman_count(side) > 1 || rules.last_footman_may_promote() {
        1
    } else {
        0
    };
    for step in steps {
        count += (step & !last).count_ones() + (step & last).count_ones() * per_last_rank_step;
    }
    count
}

/// Whether `side` has at least one legal move (rule 4.3: the forfeit, speculative steps and
/// the illegal advance of a last footman do not count).
pub fn has_legal_move(pos: &Position, side: Side, rules: RuleSet) -> bool {
    let own = pos.pieces(side);
    // Most positions have a horseman move, found without counting the rest.
    squares_of(pos.horsemen[side.index()]).any(|sq| KNIGHT_ATTACKS[sq as usize] & !own != 0)
        || legal_move_count(pos, side, rules) > 0
}

/// Maps a declaration to the action it stands for under `rules`: itself if it may be
/// declared (a legal move or a speculative step), else the forfeit.
pub fn to_action(pos: &Position, side: Side, rules: RuleSet, declared: Move) -> Move {
    if declared.is_forfeit() {
        return Move::FORFEIT;
    }
    let mut found = false;
    for_each_legal_move(pos, side, rules, |m| found |= m == declared);
    for_each_speculative_move(pos, side, rules, |m| found |= m == declared);
    if found {
        declared
    } else {
        Move::FORFEIT
    }
}
