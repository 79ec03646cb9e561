//! The one strategy printer: mixed strategies as text or JSON, most likely move first and
//! ties in move-name order, and numbers without rounding noise.

use crate::apocalypse::rules::board::Side;
use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::rules::notation::format_move;
use crate::apocalypse::solver::tree::RootSolution;

/// A float for output without rounding noise or negative zero.
pub fn clean(v: f64) -> f64 {
    let r = (v * 1e12).round() / 1e12;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// A mixed strategy ready to print: its moves with positive probability, most likely first,
/// equally likely moves in name order.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy(Vec<(String, f64)>);

impl Strategy {
    /// The strategy playing `moves[k]` with probability `probs[k]`.
    pub fn new(moves: &[Move], probs: &[f64]) -> Strategy {
        let mut entries: Vec<(String, f64)> = moves
            .iter()
            .zip(probs)
            .filter(|(_, &p)| p > 1e-12)
            .map(|(&m, &p)| (format_move(m), p))
            .collect();
        entries.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Strategy(entries)
    }

    /// As text `c1c2 0.400000, ...`, at most `limit` moves (then how many more there are).
    pub fn text(&self, limit: usize) -> String {
        if self.0.is_empty() {
            return "(no moves)".to_string();
        }
        let mut parts: Vec<String> = self
            .0
            .iter()
            .take(limit)
            .map(|(m, p)| format!("{m} {:.6}", clean(*p)))
            .collect();
        if self.0.len() > limit {
            parts.push(format!("... ({} more)", self.0.len() - limit));
        }
        parts.join(", ")
    }

    /// As a JSON object `{"c1c2": 0.4, ...}`.
    pub fn json(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(m, p)| format!("\"{m}\": {}", clean(*p)))
            .collect();
        format!("{{{}}}", parts.join(", "))
    }
}

/// A position's value for White and both players' strategies: the head of every report of a
/// solved position (`solve --turns`, `tb probe`).
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// Value for White.
    pub value: f64,
    /// White's strategy.
    pub white: Strategy,
    /// Black's strategy.
    pub black: Strategy,
}

impl Solved {
    /// The value `value`, White playing `white_moves` with probabilities `white`, Black
    /// likewise.
    pub fn new(
        value: f64,
        (white_moves, white): (&[Move], &[f64]),
        (black_moves, black): (&[Move], &[f64]),
    ) -> Solved {
        Solved {
            value,
            white: Strategy::new(white_moves, white),
            black: Strategy::new(black_moves, black),
        }
    }

    /// The value and strategies of a solved root (an exact solve or a search iteration).
    pub fn of(root: &RootSolution) -> Solved {
        Solved::new(
            root.value,
            root.strategy(Side::White),
            root.strategy(Side::Black),
        )
    }

    /// One JSON object `{"value": v, "white": {...}, "black": {...}}`, followed inside the
    /// braces by `more` (further fields, each written `, "name": value`).
    pub fn json(&self, more: &str) -> String {
        format!(
            "{{\"value\": {}, \"white\": {}, \"black\": {}{more}}}",
            clean(self.value),
            self.white.json(),
            self.black.json()
        )
    }

    /// Three lines: the value with `decimals` decimals, White's and Black's whole strategies.
    pub fn text(&self, decimals: usize) -> String {
        format!(
            "value (White): {:.decimals$}\nWhite: {}\nBlack: {}",
            clean(self.value),
            self.white.text(usize::MAX),
            self.black.text(usize::MAX)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::rules::notation::parse_move;

    #[test]
    fn most_likely_first_then_by_name_and_zero_left_out() {
        let moves: Vec<Move> = ["e1d3", "a1b3", "c1c2", "0000"]
            .iter()
            .map(|m| parse_move(m).unwrap())
            .collect();
        let s = Strategy::new(&moves, &[0.25, 0.25, 0.5, 0.0]);
        assert_eq!(
            s.text(usize::MAX),
            "c1c2 0.500000, a1b3 0.250000, e1d3 0.250000"
        );
        assert_eq!(s.text(1), "c1c2 0.500000, ... (2 more)");
        assert_eq!(s.json(), r#"{"c1c2": 0.5, "a1b3": 0.25, "e1d3": 0.25}"#);
        assert_eq!(Strategy::new(&[], &[]).text(4), "(no moves)");
        let solved = Solved::new(0.25, (&moves[2..3], &[1.0]), (&[], &[]));
        assert_eq!(
            solved.json(", \"turns\": 1"),
            r#"{"value": 0.25, "white": {"c1c2": 1}, "black": {}, "turns": 1}"#
        );
        assert_eq!(
            solved.text(3),
            "value (White): 0.250\nWhite: c1c2 1.000000\nBlack: (no moves)"
        );
        assert_eq!(clean(-1e-15), 0.0);
        assert!(clean(-1e-15).is_sign_positive());
    }
}
