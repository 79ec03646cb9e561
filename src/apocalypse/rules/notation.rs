//! Position strings `BOARD PENALTIES QUIET TURN`, move strings, and the board diagram.

use super::board::{square, square_name, Piece, Position, Side, Square};
use super::moves::Move;
use super::outcome::QUIET_LIMIT;

/// The start position string.
pub const START: &str = "npppn/p3p/5/P3P/NPPPN 00 0 1";

/// Parse a position string; `start` is accepted as a shorthand.
pub fn parse_position(text: &str) -> Result<Position, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(Position::start());
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() || fields.len() > 4 {
        return Err(format!(
            "invalid position '{text}': expected BOARD [PENALTIES [QUIET [TURN]]]"
        ));
    }
    let mut pos = parse_board(fields[0])?;
    if let Some(p) = fields.get(1) {
        let digits: Vec<u32> = p.chars().filter_map(|c| c.to_digit(10)).collect();
        if p.len() != 2 || digits.len() != 2 || digits.iter().any(|&d| d > 2) {
            return Err(format!(
                "invalid penalties '{p}': expected two digits 0-2 (White's, Black's)"
            ));
        }
        pos.penalties = [digits[0] as u8, digits[1] as u8];
    }
    if let Some(q) = fields.get(2) {
        pos.quiet = match q.parse::<u32>() {
            Ok(n) if n <= QUIET_LIMIT => n as u8,
            _ => {
                return Err(format!(
                    "invalid quiet-turn counter '{q}': expected 0-{QUIET_LIMIT}"
                ))
            }
        };
    }
    if let Some(t) = fields.get(3) {
        pos.turn = match t.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(format!("invalid turn number '{t}': expected a number >= 1")),
        };
    }
    pos.refresh_key();
    Ok(pos)
}

fn parse_board(board: &str) -> Result<Position, String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 5 {
        return Err(format!(
            "invalid board '{board}': expected 5 ranks separated by '/'"
        ));
    }
    let mut pos = Position::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 4 - i as u8;
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(format!("invalid board '{board}': empty run of 0 squares"));
                }
                file += d as u8;
            } else {
                let (side, piece) = match c {
                    'P' => (Side::White, Piece::Footman),
                    'N' => (Side::White, Piece::Horseman),
                    'p' => (Side::Black, Piece::Footman),
                    'n' => (Side::Black, Piece::Horseman),
                    _ => return Err(format!("invalid board '{board}': unknown piece '{c}'")),
                };
                if file >= 5 {
                    return Err(format!(
                        "invalid board '{board}': rank {} has more than 5 squares",
                        rank + 1
                    ));
                }
                if piece == Piece::Footman && rank == side.last_rank() {
                    return Err(format!(
                        "invalid board '{board}': {} footman on its last rank ({})",
                        side.name(),
                        square_name(square(file, rank))
                    ));
                }
                pos.put(side, piece, square(file, rank));
                file += 1;
            }
            if file > 5 {
                break;
            }
        }
        if file != 5 {
            return Err(format!(
                "invalid board '{board}': rank {} has {} squares, expected 5",
                rank + 1,
                file
            ));
        }
    }
    Ok(pos)
}

/// The position string, all four fields.
pub fn format_position(pos: &Position) -> String {
    let mut board = String::new();
    for rank in (0..5u8).rev() {
        let mut empty = 0;
        for file in 0..5u8 {
            match pos.piece_at(square(file, rank)) {
                None => empty += 1,
                Some((side, piece)) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push(piece_char(side, piece));
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    format!(
        "{} {}{} {} {}",
        board, pos.penalties[0], pos.penalties[1], pos.quiet, pos.turn
    )
}

fn piece_char(side: Side, piece: Piece) -> char {
    match (side, piece) {
        (Side::White, Piece::Footman) => 'P',
        (Side::White, Piece::Horseman) => 'N',
        (Side::Black, Piece::Footman) => 'p',
        (Side::Black, Piece::Horseman) => 'n',
    }
}

/// A board diagram (rank 5 at the top) with penalties and counters.
pub fn diagram(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..5u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..5u8 {
            let c = pos
                .piece_at(square(file, rank))
                .map_or('.', |(side, piece)| piece_char(side, piece));
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   a b c d e\n");
    out.push_str(&format!(
        "penalties: White {} Black {}; quiet turns: {}; turn: {}\n",
        pos.penalties[0], pos.penalties[1], pos.quiet, pos.turn
    ));
    out
}

fn parse_square(text: &[u8]) -> Option<Square> {
    match text {
        [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Some(square(f - b'a', r - b'1')),
        _ => None,
    }
}

/// Parse a declaration (`c1c2`, `d4d5@b2`, `0000`); case-insensitive, `x` and `-` ignored.
/// The result may be an illegal move: see `moves::to_action`.
pub fn parse_move(text: &str) -> Result<Move, String> {
    let cleaned: String = text
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .filter(|&c| c != 'x' && c != '-')
        .collect();
    if cleaned == "0000" {
        return Ok(Move::FORFEIT);
    }
    let bytes = cleaned.as_bytes();
    let bad = || format!("invalid move '{text}': expected e.g. c1c2, d4d5@b2 or 0000");
    let (main, redeploy) = match cleaned.split_once('@') {
        Some((m, r)) => (m.as_bytes(), Some(r.as_bytes())),
        None => (bytes, None),
    };
    if main.len() != 4 {
        return Err(bad());
    }
    let from = parse_square(&main[..2]).ok_or_else(bad)?;
    let to = parse_square(&main[2..]).ok_or_else(bad)?;
    match redeploy {
        None => Ok(Move::new(from, to)),
        Some(r) => Ok(Move::with_redeploy(
            from,
            to,
            parse_square(r).ok_or_else(bad)?,
        )),
    }
}

/// Parse a joint move `WHITE BLACK`, e.g. `c1c2 e4e3`.
pub fn parse_joint_move(text: &str) -> Result<[Move; 2], String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.len() != 2 {
        return Err(format!(
            "invalid joint move '{text}': expected White's move then Black's, e.g. 'c1c2 e4e3'"
        ));
    }
    Ok([parse_move(parts[0])?, parse_move(parts[1])?])
}

/// A move in notation; the forfeit is `0000`.
pub fn format_move(m: Move) -> String {
    if m.is_forfeit() {
        return "0000".to_string();
    }
    let mut s = format!("{}{}", square_name(m.from), square_name(m.to));
    if m.redeploy != super::board::NO_SQUARE {
        s.push('@');
        s.push_str(&square_name(m.redeploy));
    }
    s
}
