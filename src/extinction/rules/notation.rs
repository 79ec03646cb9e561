//! Text formats: FEN (X-FEN and Shredder-FEN castling), UCI moves, SAN and the board diagram.

use std::fmt;

use shakmaty::{CastlingSide, Color, File, Rank, Role, Square};

use super::position::{code, decode, right_index, sq, Position, NO_SQUARE};
use super::types::{Move, MoveList};

/// Why a FEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn fen_err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

/// Why a move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the expected notation.
    Unparsable(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
    /// The game is already over by extinction: no move is legal.
    GameOver(String),
    /// A SAN move that matches several legal moves.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(s) => write!(f, "unparsable move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveError::GameOver(s) => write!(f, "move '{s}' rejected: the game is over"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Printable text for error messages: control characters escaped and length capped.
fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(|c| c.escape_debug()).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

impl Position {
    /// Parse a FEN. Castling may be KQkq (X-FEN: outermost rook) or Shredder file letters;
    /// missing halfmove/fullmove fields default to `0 1`.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board = match fields.next() {
            Some(b) => b,
            None => return fen_err("empty string"),
        };
        let turn = fields.next();
        let castling = fields.next().unwrap_or("-");
        let ep = fields.next().unwrap_or("-");
        let halfmove = fields.next();
        let fullmove = fields.next();
        if let Some(extra) = fields.next() {
            return fen_err(format!("unexpected extra field '{}'", shown(extra)));
        }

        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return fen_err(format!("board has {} ranks, expected 8", ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u32;
            let mut file = 0u32;
            let mut after_digit = false;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return fen_err(format!(
                            "bad empty-square count '{ch}' on rank {}",
                            rank + 1
                        ));
                    }
                    // "44" adds up to 8 but is not FEN: a run of empty squares is one digit.
                    if after_digit {
                        return fen_err(format!(
                            "two empty-square counts in a row on rank {} ('{}')",
                            rank + 1,
                            shown(rank_text)
                        ));
                    }
                    after_digit = true;
                    file += d;
                } else {
                    after_digit = false;
                    let role = match Role::from_char(ch.to_ascii_lowercase()) {
                        Some(r) if ch.is_ascii_alphabetic() => r,
                        _ => {
                            return fen_err(format!(
                                "unknown piece '{}' on rank {}",
                                shown(&ch.to_string()),
                                rank + 1
                            ))
                        }
                    };
                    if file >= 8 {
                        return fen_err(format!("rank {} has more than 8 squares", rank + 1));
                    }
                    let color = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    if role == Role::Pawn && (rank == 0 || rank == 7) {
                        return fen_err(format!("pawn on rank {}", rank + 1));
                    }
                    pos.put(code(color, role), rank * 8 + file);
                    file += 1;
                }
                if file > 8 {
                    return fen_err(format!("rank {} has more than 8 squares", rank + 1));
                }
            }
            if file != 8 {
                return fen_err(format!(
                    "rank {} has {} squares, expected 8",
                    rank + 1,
                    file
                ));
            }
        }
        for color in [Color::White, Color::Black] {
            let n = pos.by_color[color as usize].count_ones();
            if n == 0 {
                return fen_err(format!("{} has no pieces", color_name(color)));
            }
            if n > 16 {
                return fen_err(format!(
                    "{} has {} pieces (at most 16)",
                    color_name(color),
                    n
                ));
            }
        }

        pos.turn = match turn {
            None | Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(t) => return fen_err(format!("side to move '{}' is not 'w' or 'b'", shown(t))),
        };

        if castling != "-" {
            for (i, ch) in castling.char_indices() {
                if castling[..i].contains(ch) {
                    return fen_err(format!(
                        "castling field '{}' repeats '{ch}'",
                        shown(castling)
                    ));
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let upper = ch.to_ascii_uppercase();
                if !(upper == 'K' || upper == 'Q' || ('A'..='H').contains(&upper)) {
                    return fen_err(format!("bad castling field '{}'", shown(castling)));
                }
                pos.add_castling_right(color, upper);
            }
        }

        if ep != "-" {
            let square = match Square::from_ascii(ep.as_bytes()) {
                Ok(s) => s,
                Err(_) => return fen_err(format!("bad en passant square '{}'", shown(ep))),
            };
            let (ep_rank, pawn_sq) = match pos.turn {
                Color::White => (Rank::Sixth, square as i32 - 8),
                Color::Black => (Rank::Third, square as i32 + 8),
            };
            if square.rank() != ep_rank {
                return fen_err(format!("en passant square {square} is on the wrong rank"));
            }
            let them = pos.turn.other();
            let origin = 2 * square as i32 - pawn_sq;
            if pos.board[pawn_sq as usize] != code(them, Role::Pawn)
                || pos.board[square as usize] != 0
                || pos.board[origin as usize] != 0
            {
                return fen_err(format!(
                    "en passant square {square} without a pawn that just moved two squares"
                ));
            }
            let capturers = shakmaty::attacks::pawn_attacks(them, square).0
                & pos.by_color[pos.turn as usize]
                & pos.by_role[Role::Pawn as usize];
            if capturers != 0 {
                pos.ep = square as u8;
            }
        }

        pos.halfmove = match halfmove {
            None => 0,
            Some(h) => match h.parse::<u32>() {
                Ok(v) => v,
                Err(_) => return fen_err(format!("bad halfmove clock '{}'", shown(h))),
            },
        };
        pos.fullmoves = match fullmove {
            None => 1,
            Some(f) => match f.parse::<u32>() {
                Ok(0) => return fen_err("fullmove number 0 (it counts from 1)"),
                Ok(v) if v < 1_000_000 => v,
                _ => return fen_err(format!("bad fullmove number '{}'", shown(f))),
            },
        };
        pos.status = pos.compute_status();
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// Grant a castling right from a FEN letter (`K`, `Q` or a rook file, uppercased).
    /// Rights that do not match the board (no king or rook where needed) are dropped.
    fn add_castling_right(&mut self, color: Color, letter: char) {
        let back = Position::back_rank(color);
        let kings = self.by_color[color as usize] & self.by_role[Role::King as usize] & back;
        let rooks = self.by_color[color as usize] & self.by_role[Role::Rook as usize] & back;
        let rank_base = if color == Color::White { 0 } else { 56 };
        let king = if self.castle.king[color as usize] != NO_SQUARE {
            self.castle.king[color as usize] as u32
        } else if kings & (1u64 << (rank_base + 4)) != 0 {
            rank_base + 4
        } else if kings.count_ones() == 1 {
            kings.trailing_zeros()
        } else {
            return;
        };
        if kings & (1u64 << king) == 0 {
            return;
        }
        let king_file = king - rank_base;
        let rook = match letter {
            'K' => {
                let right = rooks & !((2u64 << king) - 1);
                if right == 0 {
                    return;
                }
                63 - right.leading_zeros()
            }
            'Q' => {
                let left = rooks & ((1u64 << king) - 1);
                if left == 0 {
                    return;
                }
                left.trailing_zeros()
            }
            f => {
                let file = f as u32 - 'A' as u32;
                if file == king_file || rooks & (1u64 << (rank_base + file)) == 0 {
                    return;
                }
                rank_base + file
            }
        };
        let side = if rook > king {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        if self.castling & (1 << right_index(color, side)) != 0 {
            return;
        }
        let idx = self.castle.add(color, sq(king), sq(rook));
        self.castling |= 1 << idx;
    }

    /// FEN of the position (X-FEN castling: KQkq unless an inner rook needs its file letter).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = self.board[rank * 8 + file];
                if c == 0 {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let p = decode(c);
                    s.push(if p.color == Color::White {
                        p.role.upper_char()
                    } else {
                        p.role.char()
                    });
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.turn == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut any = false;
        for color in [Color::White, Color::Black] {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                let idx = right_index(color, side);
                if self.castling & (1 << idx) == 0 {
                    continue;
                }
                any = true;
                let rook = self.castle.rook[idx] as u32;
                let back = Position::back_rank(color);
                let rooks =
                    self.by_color[color as usize] & self.by_role[Role::Rook as usize] & back;
                let outer = match side {
                    CastlingSide::KingSide => {
                        rooks & u64::MAX.checked_shl(rook + 1).unwrap_or(0) == 0
                    }
                    CastlingSide::QueenSide => rooks & ((1u64 << rook) - 1) == 0,
                };
                let letter = if outer {
                    if side == CastlingSide::KingSide {
                        'K'
                    } else {
                        'Q'
                    }
                } else {
                    File::new(rook & 7).upper_char()
                };
                s.push(if color == Color::White {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square() {
            Some(e) => s.push_str(&e.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmoves));
        s
    }
}

/// Text board with rank and file labels, White at the bottom, then the side to move and FEN
/// (UCI `d`, `extinction analyze`).
pub fn board_diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8 {
            let c = pos.board[rank * 8 + file];
            out.push(' ');
            out.push(if c == 0 { '.' } else { decode(c).char() });
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    out.push_str(&format!(
        "{} to move; FEN {}",
        color_name(pos.turn()),
        pos.fen()
    ));
    out
}

impl fmt::Display for Position {
    /// The [`board_diagram`] followed by the Zobrist key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", board_diagram(self))?;
        write!(f, "Key: {:016x}", self.key)
    }
}

/// "White" or "Black".
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Plural English name of a role ("bishops").
pub fn role_plural(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawns",
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Rook => "rooks",
        Role::Queen => "queens",
        Role::King => "kings",
    }
}

/// Parse a UCI move (`e2e4`, `e7e8q`, `e1g1` or king-takes-rook `e1h1` for castling) and
/// check that it is legal in `pos`.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let b = t.as_bytes();
    if !(b.len() == 4 || b.len() == 5) || !t.is_ascii() {
        return Err(MoveError::Unparsable(shown(t)));
    }
    let from = Square::from_ascii(&b[0..2]).map_err(|_| MoveError::Unparsable(shown(t)))?;
    let to = Square::from_ascii(&b[2..4]).map_err(|_| MoveError::Unparsable(shown(t)))?;
    let promo = if b.len() == 5 {
        match Role::from_char(char::from(b[4]).to_ascii_lowercase()) {
            Some(r) if r != Role::Pawn => Some(r),
            _ => return Err(MoveError::Unparsable(shown(t))),
        }
    } else {
        None
    };
    if pos.is_finished() {
        return Err(MoveError::GameOver(shown(t)));
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);
    list.iter()
        .copied()
        .find(|m| {
            m.from() == from
                && m.promotion() == promo
                && (m.to() == to
                    || (m.is_castle() && m.castle_king_to() == to && from.file() == File::E))
        })
        .ok_or_else(|| MoveError::Illegal(shown(t)))
}

/// Standard algebraic notation: `Nf3`, `exd5`, `bxc8=K`, `O-O`; `#` marks an
/// extinction-winning move. No `+` (there is no check).
pub fn san(pos: &Position, m: Move) -> String {
    let mut s = String::new();
    if m.is_castle() {
        s.push_str(if m.to() > m.from() { "O-O" } else { "O-O-O" });
    } else {
        let role = pos.moved_role(m);
        let capture = pos.is_capture(m);
        if role == Role::Pawn {
            if capture {
                s.push(m.from().file().char());
                s.push('x');
            }
            s.push_str(&m.to().to_string());
            if let Some(p) = m.promotion() {
                s.push('=');
                s.push(p.upper_char());
            }
        } else {
            s.push(role.upper_char());
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            let others: Vec<Move> = list
                .iter()
                .copied()
                .filter(|&o| {
                    o != m && !o.is_castle() && o.to() == m.to() && pos.moved_role(o) == role
                })
                .collect();
            if !others.is_empty() {
                let same_file = others.iter().any(|o| o.from().file() == m.from().file());
                let same_rank = others.iter().any(|o| o.from().rank() == m.from().rank());
                if !same_file {
                    s.push(m.from().file().char());
                } else if !same_rank {
                    s.push(m.from().rank().char());
                } else {
                    s.push_str(&m.from().to_string());
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&m.to().to_string());
        }
    }
    let after = pos.after(m);
    if let Some(outcome) = after.extinction_outcome() {
        if outcome.winner == Some(pos.turn()) {
            s.push('#');
        }
    }
    s
}

/// Parse SAN (accepts `0-0`, `O-O-O`, `e8=Q`, `e8Q`, trailing `+#!?`) and check legality.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let original = text.trim();
    let t = original.trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() || !t.is_ascii() {
        return Err(MoveError::Unparsable(shown(original)));
    }
    if pos.is_finished() {
        return Err(MoveError::GameOver(shown(original)));
    }
    let mut list = MoveList::new();
    pos.generate_moves(&mut list);

    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return list
            .iter()
            .copied()
            .find(|m| m.is_castle() && (m.to() > m.from()) == king_side)
            .ok_or_else(|| MoveError::Illegal(shown(original)));
    }

    let b = t.as_bytes();
    let (role, mut rest) = match b[0] {
        b'N' => (Role::Knight, &b[1..]),
        b'B' => (Role::Bishop, &b[1..]),
        b'R' => (Role::Rook, &b[1..]),
        b'Q' => (Role::Queen, &b[1..]),
        b'K' => (Role::King, &b[1..]),
        b'P' => (Role::Pawn, &b[1..]),
        _ => (Role::Pawn, b),
    };
    // Promotion suffix: "=Q" or a bare trailing piece letter.
    let mut promotion = None;
    if let Some(&last) = rest.last() {
        if let Some(r) = Role::from_char(char::from(last).to_ascii_lowercase()) {
            if last.is_ascii_uppercase() && r != Role::Pawn && role == Role::Pawn {
                promotion = Some(r);
                rest = &rest[..rest.len() - 1];
                if rest.last() == Some(&b'=') {
                    rest = &rest[..rest.len() - 1];
                }
            }
        }
    }
    if rest.len() < 2 {
        return Err(MoveError::Unparsable(shown(original)));
    }
    let to = Square::from_ascii(&rest[rest.len() - 2..])
        .map_err(|_| MoveError::Unparsable(shown(original)))?;
    rest = &rest[..rest.len() - 2];
    let capture = rest.last() == Some(&b'x');
    if capture {
        rest = &rest[..rest.len() - 1];
    }
    let mut from_file = None;
    let mut from_rank = None;
    for &c in rest {
        match c {
            b'a'..=b'h' if from_file.is_none() => from_file = Some(File::new(u32::from(c - b'a'))),
            b'1'..=b'8' if from_rank.is_none() => from_rank = Some(Rank::new(u32::from(c - b'1'))),
            _ => return Err(MoveError::Unparsable(shown(original))),
        }
    }
    let candidates: Vec<Move> = list
        .iter()
        .copied()
        .filter(|&m| {
            !m.is_castle()
                && m.to() == to
                && pos.moved_role(m) == role
                && m.promotion() == promotion
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
                && (!capture || pos.is_capture(m))
        })
        .collect();
    match candidates.len() {
        1 => Ok(candidates[0]),
        0 => Err(MoveError::Illegal(shown(original))),
        _ => Err(MoveError::Ambiguous(shown(original))),
    }
}

/// UCI text of a move in `pos` (same as `Display`; kept for symmetry with [`san`]).
pub fn uci(m: Move) -> String {
    m.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_has_eight_ranks_then_side_and_fen() {
        let d = board_diagram(&Position::startpos());
        assert!(d.starts_with("8  r n b q k b n r\n7  p p p"));
        assert_eq!(d.lines().count(), 10);
        assert!(d.ends_with(
            "White to move; FEN rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
    }
}
