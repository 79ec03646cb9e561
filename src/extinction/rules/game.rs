//! A game: start position plus the moves played, with the key history needed for
//! repetition detection and the full outcome (extinction, stalemate, 50-move, threefold).

use super::notation::{parse_san, parse_uci, MoveError};
use super::outcome::Outcome;
use super::position::{Position, Undo};
use super::types::{Move, MoveList};

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// Key of the position before each move, then the current key last.
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        let key = start.key();
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            keys: vec![key],
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of every position so far, the current one last (for search repetition checks).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Play `m` if it is legal here; returns whether it was played.
    pub fn play(&mut self, m: Move) -> bool {
        if !self.position.is_pseudo_legal(m) {
            return false;
        }
        let undo = self.position.do_move(m);
        self.moves.push(m);
        self.undos.push(undo);
        self.keys.push(self.position.key());
        true
    }

    /// Parse a UCI move, check it and play it.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_uci(&self.position, text)?;
        self.play(m);
        Ok(m)
    }

    /// Parse a SAN move, check it and play it.
    pub fn play_san(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_san(&self.position, text)?;
        self.play(m);
        Ok(m)
    }

    /// Take back the last move; false if there is none.
    pub fn undo(&mut self) -> bool {
        match (self.moves.pop(), self.undos.pop()) {
            (Some(m), Some(u)) => {
                self.position.undo_move(m, u);
                self.keys.pop();
                true
            }
            _ => false,
        }
    }

    /// How many times the current position occurred (same key, within the reversible stretch).
    pub fn repetitions(&self) -> usize {
        let current = self.position.key();
        let window = (self.position.halfmove_clock() as usize).min(self.keys.len() - 1);
        self.keys[self.keys.len() - 1 - window..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == current)
            .count()
    }

    /// Result if the game is over: extinction, then stalemate, fifty-move rule, threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.extinction_outcome() {
            return Some(o);
        }
        let mut list = MoveList::new();
        self.position.generate_moves(&mut list);
        if list.is_empty() {
            return Some(Outcome::draw("stalemate"));
        }
        if self.position.halfmove_clock() >= 100 {
            return Some(Outcome::draw("fifty-move rule"));
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::draw("threefold repetition"));
        }
        None
    }
}
