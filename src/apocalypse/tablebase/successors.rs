//! The matrix game of a class's position as the builder needs it: both sides' declarable
//! moves and, for every joint move, either a settled value (a finished game, a class built
//! earlier) or the number of a position of the class being built.
//!
//! Classes of six pieces hold 17 billion joint moves, too many to store, so the builder
//! regenerates them whenever it needs them, and this file makes that cheap: the joint moves
//! that change nothing but where two pieces stand (no capture, collision, promotion or void
//! declaration: most of them) are resolved here from bit masks and numbered by a table lookup;
//! only the others go through the rules' general `resolve`. Tests check the two agree.

use super::index::{ClassIndex, ClassKey};
use super::probe::Tablebases;
use crate::apocalypse::rules::board::{rank_of, Position, Side, NO_SQUARE};
use crate::apocalypse::rules::moves::{declarable_moves_into, has_legal_move, Move};
use crate::apocalypse::rules::outcome::outcome;
use crate::apocalypse::rules::resolve::resolve_unkeyed;
use crate::apocalypse::rules::ruleset::{is_speculative_step, RuleSet};

/// Where a joint move leads, in 8 bytes: a settled value, or a position of the class being
/// built (its number, boxed in the payload of a NaN, which no value ever is).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell(u64);

const BOX: u64 = 0x7ff8_0000_0000_0000;
const PAYLOAD: u64 = (1 << 48) - 1;

impl Cell {
    /// A settled value (finite).
    pub fn value(v: f64) -> Cell {
        debug_assert!(v.is_finite());
        Cell(v.to_bits())
    }

    /// A position of the class being built.
    pub fn local(idx: u64) -> Cell {
        debug_assert!(idx <= PAYLOAD);
        Cell(BOX | idx)
    }

    /// The position number, if the cell is one.
    pub fn as_local(self) -> Option<u64> {
        (self.0 & !PAYLOAD == BOX).then_some(self.0 & PAYLOAD)
    }

    /// The settled value, if the cell is one.
    pub fn as_value(self) -> Option<f64> {
        (self.0 & !PAYLOAD != BOX).then(|| f64::from_bits(self.0))
    }

    /// The cell's value, reading positions of the class from `values`.
    pub fn resolve(self, values: &[f64]) -> f64 {
        match self.as_local() {
            Some(k) => values[k as usize],
            None => f64::from_bits(self.0),
        }
    }
}

/// A position's matrix game: rows are White's declarable moves, columns Black's.
#[derive(Default, Clone, Debug)]
pub struct Game {
    /// White's declarable moves.
    pub white: Vec<Move>,
    /// Black's declarable moves.
    pub black: Vec<Move>,
    /// Row-major cells, `white.len() * black.len()` of them.
    pub cells: Vec<Cell>,
}

impl Game {
    /// Number of rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.white.len(), self.black.len())
    }
}

/// What a declared move does, for the quick resolution of plain joint moves.
#[derive(Clone, Copy)]
struct Effect {
    /// Origin and destination bits (0 for a move that is not plain).
    from: u32,
    dest: u32,
    /// The square it lands on as declared (the capture square of a redeploy).
    to: u8,
    footman: bool,
    /// A legal move that is neither the forfeit nor a speculative step (vchess), and that
    /// does not promote (which changes the class).
    plain: bool,
    /// Its target square holds an enemy piece on B.
    attacks: bool,
}

fn effect(pos: &Position, side: Side, m: Move) -> Effect {
    let s = side.index();
    let none = Effect {
        from: 0,
        dest: 0,
        to: NO_SQUARE,
        footman: false,
        plain: false,
        attacks: false,
    };
    if m.is_forfeit() || is_speculative_step(pos, side, m.from, m.to) {
        return none;
    }
    let footman = pos.footmen[s] & (1 << m.from) != 0;
    let promotes = footman && m.redeploy == NO_SQUARE && rank_of(m.to) == side.last_rank();
    Effect {
        from: 1 << m.from,
        dest: 1 << m.destination(),
        to: m.to,
        footman,
        plain: !promotes,
        attacks: pos.pieces(side.opponent()) & (1 << m.to) != 0,
    }
}

/// The builder's view of one class: its index, the tables of the classes built before it and
/// the rules.
pub struct ClassGames<'a> {
    index: &'a ClassIndex,
    earlier: &'a Tablebases,
    rules: RuleSet,
}

impl<'a> ClassGames<'a> {
    /// The games of `index`'s class, with successors in other classes valued by `earlier`.
    pub fn new(index: &'a ClassIndex, earlier: &'a Tablebases) -> ClassGames<'a> {
        ClassGames {
            index,
            earlier,
            rules: earlier.rules(),
        }
    }

    /// The class index.
    pub fn index(&self) -> &ClassIndex {
        self.index
    }

    /// The game at position `idx` written into `game`; `Ok(Some(v))` (and `game` untouched)
    /// when the position is finished with value `v`.
    pub fn game(&self, idx: u64, game: &mut Game) -> Result<Option<f64>, String> {
        let pos = self.index.position(idx);
        let state = outcome(&pos, self.rules);
        if state.is_over() {
            return Ok(Some(state.value()));
        }
        declarable_moves_into(&pos, Side::White, self.rules, &mut game.white);
        declarable_moves_into(&pos, Side::Black, self.rules, &mut game.black);
        game.cells.clear();
        game.cells.reserve(game.white.len() * game.black.len());
        let black: Vec<Effect> = game
            .black
            .iter()
            .map(|&m| effect(&pos, Side::Black, m))
            .collect();
        for &w in &game.white {
            let ew = effect(&pos, Side::White, w);
            for (&b, eb) in game.black.iter().zip(&black) {
                let cell = match self.plain_successor(&pos, &ew, eb) {
                    Some(cell) => cell,
                    None => self.general_successor(&pos, [w, b])?,
                };
                game.cells.push(cell);
            }
        }
        Ok(None)
    }

    /// The successor of a joint move that only moves two pieces to two different empty (or
    /// emptied) squares, or `None` when the move needs the general resolution.
    fn plain_successor(&self, pos: &Position, w: &Effect, b: &Effect) -> Option<Cell> {
        if !(w.plain && b.plain) || w.dest == b.dest {
            return None;
        }
        // A capture stands only if its target stays; a target that moves makes it a plain move.
        if (w.attacks && 1 << w.to != b.from) || (b.attacks && 1 << b.to != w.from) {
            return None;
        }
        let mut footmen = pos.footmen;
        let mut horsemen = pos.horsemen;
        for (s, e) in [w, b].into_iter().enumerate() {
            let masks = if e.footman {
                &mut footmen[s]
            } else {
                &mut horsemen[s]
            };
            *masks = (*masks & !e.from) | e.dest;
        }
        let mut next = *pos;
        next.footmen = footmen;
        next.horsemen = horsemen;
        // Same pieces and penalties: only rule 4.3 can end the game.
        if !has_legal_move(&next, Side::White, self.rules)
            || !has_legal_move(&next, Side::Black, self.rules)
        {
            return Some(Cell::value(0.0));
        }
        Some(Cell::local(self.index.locate_pieces(footmen, horsemen)))
    }

    fn general_successor(&self, pos: &Position, joint: [Move; 2]) -> Result<Cell, String> {
        let (next, _) = resolve_unkeyed(pos, joint);
        let state = outcome(&next, self.rules);
        if state.is_over() {
            return Ok(Cell::value(state.value()));
        }
        if ClassKey::of(&next) == self.index.key {
            return Ok(Cell::local(
                self.index.locate_pieces(next.footmen, next.horsemen),
            ));
        }
        self.earlier
            .stored_value(&next)
            .map(Cell::value)
            .ok_or_else(|| {
                format!(
                    "internal error: class {} needed before it was built",
                    ClassKey::of(&next).name()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_box_values_and_positions_apart() {
        for v in [-1.0, -0.0, 0.0, 0.25, 1.0, -0.999_999_999_999] {
            let c = Cell::value(v);
            assert_eq!(c.as_value().map(f64::to_bits), Some(v.to_bits()));
            assert_eq!(c.as_local(), None);
        }
        for k in [0, 1, 10_572_869, PAYLOAD] {
            let c = Cell::local(k);
            assert_eq!(c.as_local(), Some(k));
            assert_eq!(c.as_value(), None);
        }
        assert_eq!(Cell::local(2).resolve(&[0.0, 0.5, -0.25]), -0.25);
        assert_eq!(Cell::value(0.75).resolve(&[]), 0.75);
    }

    /// Every joint move the quick path resolves leads where the rules' general resolution
    /// leads (same finished value, or the same position of the class), in every class of up
    /// to five pieces under both rule sets.
    #[test]
    fn plain_successors_agree_with_the_general_resolution() {
        use crate::apocalypse::rules::moves::declarable_moves;
        use crate::apocalypse::tablebase::index::classes_in_build_order;
        let mut plain = 0u64;
        for rules in [RuleSet::Classic, RuleSet::Vchess] {
            let earlier = Tablebases::for_build(std::path::Path::new("/nonexistent"), 5, rules);
            for key in classes_in_build_order(5) {
                let index = ClassIndex::new(key);
                let games = ClassGames::new(&index, &earlier);
                let step = (index.len() / 400).max(1);
                for idx in (0..index.len()).step_by(step as usize) {
                    let pos = index.position(idx);
                    if outcome(&pos, rules).is_over() {
                        continue;
                    }
                    let white = declarable_moves(&pos, Side::White, rules);
                    let black = declarable_moves(&pos, Side::Black, rules);
                    for &w in &white {
                        let ew = effect(&pos, Side::White, w);
                        for &b in &black {
                            let eb = effect(&pos, Side::Black, b);
                            let Some(cell) = games.plain_successor(&pos, &ew, &eb) else {
                                continue;
                            };
                            plain += 1;
                            let (next, _) = resolve_unkeyed(&pos, [w, b]);
                            let state = outcome(&next, rules);
                            let expected = if state.is_over() {
                                Cell::value(state.value())
                            } else {
                                assert_eq!(ClassKey::of(&next), key, "{pos:?} {w:?} {b:?}");
                                Cell::local(index.locate_pieces(next.footmen, next.horsemen))
                            };
                            assert_eq!(cell, expected, "{} {pos:?} {w:?} {b:?}", rules.name());
                        }
                    }
                }
            }
        }
        assert!(plain > 300_000, "only {plain} plain joint moves checked");
    }
}
