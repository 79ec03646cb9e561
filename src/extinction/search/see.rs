//! Static exchange evaluation, aware of extinction: capturing the last piece of a type ends
//! the exchange (and the game) in the capturer's favour. Also the exchange values of the
//! pieces, which move ordering uses too.

use shakmaty::{Color, Role};

use crate::extinction::rules::position::{role_index, Position, ROLES};
use crate::extinction::rules::types::Move;

/// Piece values used for move ordering and SEE (pawn..king), in centipawns.
pub const SEE_VALUE: [i32; 6] = [100, 310, 320, 480, 900, 280];

/// Value used by SEE/ordering for a piece; the king is a minor-piece-strength fighter.
#[inline]
pub fn see_value(role: Role) -> i32 {
    SEE_VALUE[role_index(role)]
}

/// Value standing for "this exchange wins the game" (far above any material swing).
pub const SEE_WIN: i32 = 20_000;

fn counts(pos: &Position) -> [[i32; 6]; 2] {
    let mut c = [[0; 6]; 2];
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            c[color as usize][role_index(role)] = pos.count(color, role) as i32;
        }
    }
    c
}

/// Expected material gain of `m` for the mover if both sides keep recapturing on the target
/// square with their least valuable piece; `SEE_WIN`-sized values mean the game is decided.
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let us = pos.turn();
    let them = us.other();
    let to = m.to();
    let from = m.from();
    let mut counts = counts(pos);
    let mut gain = [0i32; 34];

    let captured = pos.captured_role(m);
    let mut on_square = m.promotion().unwrap_or_else(|| pos.moved_role(m));
    gain[0] = match captured {
        Some(role) if counts[them as usize][role_index(role)] == 1 => return SEE_WIN,
        Some(role) => see_value(role),
        None => 0,
    };
    if let Some(promo) = m.promotion() {
        if counts[us as usize][role_index(Role::Pawn)] == 1 {
            // Promoting the last pawn without winning outright makes our pawns extinct.
            return -SEE_WIN;
        }
        counts[us as usize][role_index(Role::Pawn)] -= 1;
        counts[us as usize][role_index(promo)] += 1;
        gain[0] += see_value(promo) - see_value(Role::Pawn);
    }
    if let Some(role) = captured {
        counts[them as usize][role_index(role)] -= 1;
    }

    let mut occupied = pos.occupied();
    occupied.discard(from);
    if m.is_en_passant() {
        if let Some(victim) = to.offset(if us == Color::White { -8 } else { 8 }) {
            occupied.discard(victim);
        }
    }
    occupied.add(to);
    let mut on_square_color = us;
    let mut side = them;
    let mut d = 0usize;
    while d + 1 < gain.len() {
        let attackers = pos.attackers_to(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        let Some((attacker_sq, attacker_role)) = ROLES.iter().find_map(|&role| {
            (attackers & pos.pieces(side, role))
                .first()
                .map(|sq| (sq, role))
        }) else {
            break;
        };
        d += 1;
        let victim_count = &mut counts[on_square_color as usize][role_index(on_square)];
        if *victim_count == 1 {
            gain[d] = SEE_WIN - gain[d - 1];
            break;
        }
        *victim_count -= 1;
        gain[d] = see_value(on_square) - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occupied.discard(attacker_sq);
        on_square = attacker_role;
        on_square_color = side;
        side = side.other();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extinction::rules::notation::parse_uci;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let m = parse_uci(&pos, uci).expect("move");
        see(&pos, m)
    }

    #[test]
    fn undefended_knight() {
        // Both sides have two knights, so the capture is plain material.
        let fen = "r1bqkbnr/pppppppp/8/4n3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(see_of(fen, "d4e5"), see_value(Role::Knight));
    }

    #[test]
    fn queen_takes_defended_pawn_loses_the_game() {
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/8/5Q2/PPPPPPPP/RNB1KBNR w KQkq - 0 1";
        // Qxd5 Qxd5: the recapture takes White's only queen, which decides the game.
        assert_eq!(see_of(fen, "f3d5"), -SEE_WIN + see_value(Role::Pawn));
    }

    #[test]
    fn capturing_last_of_type_is_a_win() {
        // Black has a single bishop left.
        let fen = "rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(see_of(fen, "e4d5"), SEE_WIN);
    }
}
