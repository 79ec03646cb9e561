//! The one strategy printer: mixed strategies as text or JSON, most likely move first and
//! ties in move-name order, and numbers without rounding noise.

use crate::apocalypse::rules::moves::Move;
use crate::apocalypse::rules::notation::format_move;

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
        assert_eq!(clean(-1e-15), 0.0);
        assert!(clean(-1e-15).is_sign_positive());
    }
}
