//! Rules of Apocalypse (classic reading): one test per rule, worked out by hand from the written
//! rules of the game, plus a scripted game.

use variant_engines::apocalypse::rules::board::{square, Piece, Position, Side, NO_SQUARE};
use variant_engines::apocalypse::rules::board::{squares_of, KNIGHT_ATTACKS};
use variant_engines::apocalypse::rules::moves::{
    attacked_squares, declarable_moves, legal_move_count, legal_moves, to_action, Move,
};
use variant_engines::apocalypse::rules::notation::{
    format_move, format_position, parse_joint_move, parse_move, parse_position,
};
use variant_engines::apocalypse::rules::outcome::{outcome, Outcome, Reason};
use variant_engines::apocalypse::rules::resolve::{resolve, resolve_declared, TurnEvents};
use variant_engines::apocalypse::rules::ruleset::RuleSet;
use variant_engines::rng::Rng;

const C: RuleSet = RuleSet::Classic;

fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Declare a joint move (illegal declarations become the forfeit) and resolve it.
fn play(text: &str, joint: &str) -> (Position, TurnEvents) {
    let turn = resolve_declared(&pos(text), parse_joint_move(joint).unwrap(), C);
    (turn.next, turn.events)
}

fn after(text: &str, joint: &str) -> String {
    format_position(&play(text, joint).0)
}

fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    square(b[0] - b'a', b[1] - b'1')
}

fn move_names(p: &Position, side: Side) -> Vec<String> {
    declarable_moves(p, side, C)
        .into_iter()
        .map(format_move)
        .collect()
}

#[test]
fn start_position_round_trips_and_lists_moves() {
    let p = pos("start");
    assert_eq!(format_position(&p), "npppn/p3p/5/P3P/NPPPN 00 0 1");
    assert_eq!(p, pos("npppn/p3p/5/P3P/NPPPN"));
    let mut white = move_names(&p, Side::White);
    white.sort();
    let mut expected = vec![
        "a1b3", "a1c2", "e1c2", "e1d3", "b1b2", "c1c2", "d1d2", "a2a3", "e2e3", "0000",
    ];
    expected.sort();
    assert_eq!(white, expected);
    let mut black = move_names(&p, Side::Black);
    black.sort();
    let mut expected = vec![
        "a5b3", "a5c4", "e5c4", "e5d3", "b5b4", "c5c4", "d5d4", "a4a3", "e4e3", "0000",
    ];
    expected.sort();
    assert_eq!(black, expected);
}

#[test]
fn notation_fields_are_optional_and_validated() {
    assert_eq!(
        format_position(&pos("5/p4/5/P4/5 10")),
        "5/p4/5/P4/5 10 0 1"
    );
    assert_eq!(
        format_position(&pos("5/p4/5/P4/5 01 7 12")),
        "5/p4/5/P4/5 01 7 12"
    );
    for bad in [
        "P4/5/5/5/5",        // White footman on its last rank
        "5/p4/5/5/p4",       // Black footman on rank 1
        "5/p4/5/P4",         // four ranks
        "6/p4/5/P4/5",       // six squares
        "5/p3/5/P4/5",       // four squares
        "5/p4/5/P4/5 3",     // one digit
        "5/p4/5/P4/5 03",    // penalty out of range
        "5/p4/5/P4/5 00 x",  // quiet not a number
        "5/p4/5/P4/5 00 51", // quiet beyond the limit
        "5/p4/5/P4/5 00 0 0",
        "5/p4/5/Q4/5",
        "",
    ] {
        assert!(parse_position(bad).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn move_notation_is_case_insensitive_and_ignores_x_and_dash() {
    assert_eq!(parse_move("C1-C2").unwrap(), Move::new(sq("c1"), sq("c2")));
    assert_eq!(parse_move("b3xc4").unwrap(), Move::new(sq("b3"), sq("c4")));
    assert_eq!(
        parse_move("D4xE5@B2").unwrap(),
        Move::with_redeploy(sq("d4"), sq("e5"), sq("b2"))
    );
    assert!(parse_move("0000").unwrap().is_forfeit());
    assert_eq!(format_move(parse_move("d4d5@b2").unwrap()), "d4d5@b2");
    for bad in ["c1", "c1c6", "f1f2", "c1c2@", "c1c2@z9", "hello"] {
        assert!(parse_move(bad).is_err(), "accepted {bad:?}");
    }
    assert!(parse_joint_move("c1c2").is_err());
    assert!(parse_joint_move("c1c2 e4e3 a1a2").is_err());
}

#[test]
fn same_destination_horsemen_both_die() {
    // White N b1, Black n b5 both jump to c3.
    let (p, ev) = play("1n3/p4/5/P4/1N3", "b1c3 b5c3");
    assert_eq!(format_position(&p), "5/p4/5/P4/5 00 0 2");
    assert_eq!(ev.collision, Some((sq("c3"), [true, true])));
}

#[test]
fn same_destination_horseman_beats_footman() {
    assert_eq!(
        after("1n3/p4/5/P1P2/5", "c2c3 b5c3"),
        "5/p4/2n2/P4/5 00 0 2"
    );
    // And the other way round.
    assert_eq!(
        after("5/p1p2/5/P4/1N3", "b1c3 c4c3"),
        "5/p4/2N2/P4/5 00 0 2"
    );
}

#[test]
fn same_destination_footmen_both_die() {
    assert_eq!(after("5/p1p2/5/P1P2/5", "c2c3 c4c3"), "5/p4/5/P4/5 00 0 2");
}

#[test]
fn swapping_pieces_capture_nothing() {
    let (p, ev) = play("5/p4/2n2/P4/1N3", "b1c3 c3b1");
    assert_eq!(format_position(&p), "5/p4/2N2/P4/1n3 00 1 2");
    assert_eq!(ev.captured, [None, None]);
    assert_eq!(ev.target_moved, [true, true]);
}

#[test]
fn capture_of_a_piece_that_moved_away_is_a_plain_move() {
    // White N b1 takes on c3, but the Black footman there steps to c2.
    assert_eq!(
        after("5/p4/2p2/P4/1N3", "b1c3 c3c2"),
        "5/p4/2N2/P1p2/5 00 0 2"
    );
}

#[test]
fn footman_capture_of_a_piece_that_moved_away_becomes_a_diagonal_step() {
    // White b2 takes on c3; the Black horseman there jumps to e4.
    let (p, ev) = play("5/p4/2n2/1P3/5", "b2c3 c3e4");
    assert_eq!(format_position(&p), "5/p3n/2P2/5/5 00 0 2");
    assert!(ev.target_moved[0]);
}

#[test]
fn captures_of_pieces_that_stay_remove_them() {
    // Both capture a piece that does not move: both are removed.
    assert_eq!(
        after("5/p1p2/1n3/P4/2N2", "c1b3 c4c3"),
        "5/p4/1Np2/P4/5 00 0 2"
    );
    assert_eq!(
        after("5/p3p/3n1/P3P/2N2", "c1d3 d3c1"),
        "5/p3p/3N1/P3P/2n2 00 1 2"
    );
    // Mutual captures of stationary pieces.
    assert_eq!(
        after("5/p3p/n1N2/P1P1P/5", "c3a4 a3c2"),
        "5/N3p/5/P1n1P/5 00 0 2"
    );
}

#[test]
fn redeploy_moves_and_their_resolution() {
    // White: N a1, N e1 (two horsemen), P d4, P a2. Black: n e5, p a4, p b5.
    let text = "1p2n/p2P1/5/P4/N3N";
    let p = pos(text);
    let w = legal_moves(&p, Side::White, C);
    let redeploys: Vec<_> = w.iter().filter(|m| m.from == sq("d4")).collect();
    // d4d5 needs a redeploy square: empty on B, not on rank 5 (and d4 itself is not empty).
    let empty_not_last = 20 - 5; // 20 squares off rank 5, 5 occupied (a1 e1 a2 d4 a4)
                                 // d4xe5 is a capture onto the last rank: also one move per redeploy square.
    assert_eq!(redeploys.len(), 2 * empty_not_last);
    assert!(!w.contains(&Move::new(sq("d4"), sq("d5"))));
    assert!(!w.contains(&Move::with_redeploy(sq("d4"), sq("d5"), sq("d4"))));
    assert!(w.contains(&Move::with_redeploy(sq("d4"), sq("d5"), sq("b2"))));
    // Plain redeploy.
    let (q, ev) = play(text, "d4d5@b2 a4a3");
    assert_eq!(format_position(&q), "1p2n/5/p4/PP3/N3N 00 0 2");
    assert_eq!(ev.redeployed[0], Some(sq("b2")));
    assert_eq!(ev.promoted, [None, None]);
    // Capture onto the last rank with a redeploy: e5 is removed, the footman lands on c1.
    assert_eq!(after(text, "d4e5@c1 a4a3"), "1p3/5/p4/P4/N1P1N 00 0 2");
    // Plain d4d5 is void when a redeploy square is required: only an exact legal move counts.
    let (q, ev) = play(text, "d4d5 a4a3");
    assert!(ev.void[0]);
    assert_eq!(format_position(&q), "1p2n/3P1/p4/P4/N3N 10 0 2");
    // A redeploy onto an occupied square, or onto the last rank, is void too.
    assert!(play(text, "d4d5@a2 a4a3").1.void[0]);
    assert!(play(text, "d4d5@c5 a4a3").1.void[0]);
    // A redeploy onto the mover's own first rank is allowed.
    assert!(!play(text, "d4d5@b1 a4a3").1.void[0]);
}

#[test]
fn redeploy_square_vacated_this_turn_is_not_empty() {
    // a4 is vacated by Black this turn but was occupied on B.
    let text = "1p2n/p2P1/5/P4/N3N";
    assert!(play(text, "d4d5@a4 a4a3").1.void[0]);
}

#[test]
fn redeploy_capture_happens_even_if_the_footman_dies_at_its_redeploy_square() {
    // White d4xe5@c3 while Black c4 steps to c3: both footmen die, e5 is still captured.
    let (p, ev) = play("1p2n/p1pP1/5/P4/N3N", "d4e5@c3 c4c3");
    assert_eq!(format_position(&p), "1p3/p4/5/P4/N3N 00 0 2");
    assert_eq!(ev.captured[0], Some((sq("e5"), Piece::Horseman)));
    assert_eq!(ev.collision, Some((sq("c3"), [true, true])));
}

#[test]
fn promotion_with_fewer_than_two_horsemen() {
    let text = "1p3/p2P1/5/P4/N4";
    let p = pos(text);
    let w = legal_moves(&p, Side::White, C);
    assert!(w.contains(&Move::new(sq("d4"), sq("d5"))));
    assert!(!w.iter().any(|m| m.redeploy != NO_SQUARE));
    let (q, ev) = play(text, "d4d5 a4a3");
    assert_eq!(format_position(&q), "1p1N1/5/p4/P4/N4 00 0 2");
    assert_eq!(ev.promoted[0], Some(sq("d5")));
    // A redeploy when the footman promotes is void: only an exact legal move counts.
    assert!(play(text, "d4d5@b2 a4a3").1.void[0]);
    // Black promotes on rank 1 the same way.
    assert_eq!(
        after("5/p3P/5/2p2/P4", "e4e5 c2c1"),
        "4N/p4/5/5/P1n2 00 0 2"
    );
}

#[test]
fn promotion_is_decided_by_horsemen_on_b() {
    // White has two horsemen on B; Black captures one of them this turn. The footman still
    // must redeploy: plain d4d5 is void, d4d5@b2 redeploys.
    let text = "1p3/p2P1/5/P1n2/N3N";
    let (q, ev) = play(text, "d4d5 c2a1");
    assert!(ev.void[0]);
    assert_eq!(format_position(&q), "1p3/p2P1/5/P4/n3N 10 0 2");
    let (q, ev) = play(text, "d4d5@b2 c2a1");
    assert!(!ev.void[0]);
    assert_eq!(ev.captured[1], Some((sq("a1"), Piece::Horseman)));
    assert_eq!(format_position(&q), "1p3/p4/5/PP3/n3N 00 0 2");
}

#[test]
fn promoting_footman_collides_as_a_footman() {
    // White d4d5 (promotion) against Black's horseman jumping e3-d5: the horseman wins.
    let (p, ev) = play("1p3/p2P1/4n/P4/N4", "d4d5 e3d5");
    assert_eq!(format_position(&p), "1p1n1/p4/5/P4/N4 00 0 2");
    assert_eq!(ev.promoted, [None, None]);
    assert_eq!(ev.collision, Some((sq("d5"), [true, false])));
}

#[test]
fn advancing_the_last_footman_is_illegal_without_two_horsemen() {
    let text = "1p3/p2P1/5/5/N4";
    let p = pos(text);
    assert!(!legal_moves(&p, Side::White, C).contains(&Move::new(sq("d4"), sq("d5"))));
    let (q, ev) = play(text, "d4d5 a4a3");
    assert!(ev.void[0]);
    assert_eq!(format_position(&q), "1p3/3P1/p4/5/N4 10 0 2");
    // With two horsemen the only footman may redeploy.
    let p = pos("1p3/p2P1/5/5/N3N");
    assert!(
        legal_moves(&p, Side::White, C).contains(&Move::with_redeploy(
            sq("d4"),
            sq("d5"),
            sq("c3")
        ))
    );
}

#[test]
fn penalties_and_the_both_illegal_turn() {
    // One illegal declaration: that side stays, gets a point; the other move is played alone.
    let (p, ev) = play("5/p4/5/P4/5", "a2a4 a4a3");
    assert_eq!(ev.void, [true, false]);
    assert_eq!(format_position(&p), "5/5/p4/P4/5 10 0 2");
    // Both illegal: nothing moves, both get a point.
    let (p, ev) = play("5/p4/5/P4/5 01", "0000 a4a2");
    assert_eq!(ev.void, [true, true]);
    assert_eq!(format_position(&p), "5/p4/5/P4/5 12 0 2");
    assert_eq!(outcome(&p, C), Outcome::Win(Side::White, Reason::Penalties));
    // A forfeit may be declared at one point, and loses; both reaching two is a draw.
    let (p, _) = play("5/p4/5/P4/5 10", "0000 a4a3");
    assert_eq!(outcome(&p, C), Outcome::Win(Side::Black, Reason::Penalties));
    let (p, _) = play("5/p4/5/P4/5 11", "0000 0000");
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::Penalties));
}

#[test]
fn end_of_game_no_footmen() {
    // White captures Black's last footman.
    let (p, _) = play("n4/5/1p3/P4/5", "a2b3 b3b2");
    // Black's footman stepped away: no capture, game goes on.
    assert_eq!(outcome(&p, C), Outcome::Ongoing);
    let (p, _) = play("5/5/1p3/P4/2N2", "a2b3 0000");
    assert_eq!(outcome(&p, C), Outcome::Win(Side::White, Reason::NoFootmen));
    // Both lose their last footmen in a collision: draw.
    let (p, _) = play("5/2p2/5/2P2/5", "c2c3 c4c3");
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::NoFootmen));
}

#[test]
fn end_of_game_checks_run_in_order() {
    // Rule 4.1 before 4.2: White has no footmen, Black has two points -> White loses.
    assert_eq!(
        outcome(&pos("5/p4/5/5/N4 02"), C),
        Outcome::Win(Side::Black, Reason::NoFootmen)
    );
    // Rule 4.2 before 4.3: Black has no legal move, White has two points -> White loses.
    // Black's footman a2 is blocked by White's footman a1 (and White's by it).
    let blocked = "5/5/5/p4/P4 20";
    assert!(legal_moves(&pos("5/5/5/p4/P4"), Side::Black, C).is_empty());
    assert_eq!(
        outcome(&pos(blocked), C),
        Outcome::Win(Side::Black, Reason::Penalties)
    );
    // Rule 4.3 before 4.4.
    assert_eq!(
        outcome(&pos("5/5/5/p4/P4 00 50"), C),
        Outcome::Draw(Reason::NoLegalMove)
    );
    // Rule 4.3 alone: blocked footmen.
    assert_eq!(
        outcome(&pos("5/p4/P4/5/5"), C),
        Outcome::Draw(Reason::NoLegalMove)
    );
    // The only move is the illegal last-footman advance -> no legal move (rule 4.3).
    let p = pos("5/3P1/5/p4/5");
    assert!(legal_moves(&p, Side::White, C).is_empty());
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::NoLegalMove));
    // Rule 4.4.
    assert_eq!(
        outcome(&pos("n4/p4/5/P4/N4 00 50"), C),
        Outcome::Draw(Reason::QuietTurns)
    );
    assert_eq!(outcome(&pos("n4/p4/5/P4/N4 00 49"), C), Outcome::Ongoing);
}

#[test]
fn quiet_turn_counter() {
    // Horseman moves only: counter goes up; the 50th quiet turn draws.
    let (p, ev) = play("n4/p4/5/P4/N4 00 49", "a1b3 a5c4");
    assert!(!ev.reset_quiet);
    assert_eq!(p.quiet, 50);
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::QuietTurns));
    // A footman move resets it, so does a penalty, so does a capture.
    assert_eq!(play("n4/p4/5/P4/N4 00 30", "a2a3 a5c4").0.quiet, 0);
    assert_eq!(play("n4/p4/5/P4/N4 00 30", "0000 a5c4").0.quiet, 0);
    assert_eq!(play("n4/p4/1N3/P4/5 00 30", "b3a5 a5c4").0.quiet, 31);
    assert_eq!(play("5/p1n2/1N3/P4/5 00 30", "b3a5 c4a5").0.quiet, 0); // collision
    assert_eq!(play("n3n/p4/1N3/P4/5 00 30", "b3a5 e5d3").0.quiet, 0); // capture
}

#[test]
fn illegal_declarations_are_one_forfeit_action() {
    let p = pos("start");
    for text in ["c1c3", "a1a2", "e4e3", "0000", "b1b2@c3"] {
        let m = parse_move(text).unwrap();
        assert!(to_action(&p, Side::White, C, m).is_forfeit(), "{text}");
    }
    assert!(!to_action(&p, Side::White, C, parse_move("C1C2").unwrap()).is_forfeit());
}

#[test]
fn mirrored_positions_have_mirrored_move_lists() {
    let p = pos("1p2n/p1pP1/2N2/P3n/N4 10 3 5");
    let m = p.mirrored();
    assert_eq!(format_position(&m), "n4/p3N/2n2/P1Pp1/1P2N 01 3 5");
    let white: Vec<Move> = declarable_moves(&p, Side::White, C);
    let black_of_mirror: Vec<Move> = declarable_moves(&m, Side::Black, C)
        .into_iter()
        .map(Move::mirrored)
        .collect();
    assert_eq!(white, black_of_mirror);
}

#[test]
fn scripted_game() {
    // Each position below was worked out by hand from the rules.
    let script = [
        ("c1c2 c5c4", "np1pn/p1p1p/5/P1P1P/NP1PN 00 0 2"),
        ("e1d3 a5b3", "1p1pn/p1p1p/1n1N1/P1P1P/NP1P1 00 1 3"),
        // Swap: d3xe5 against e5xd3, both pieces moved, nothing captured.
        ("d3e5 e5d3", "1p1pN/p1p1p/1n1n1/P1P1P/NP1P1 00 2 4"),
        // Footman takes the horseman that stayed on b3.
        ("c2b3 d3c1", "1p1pN/p1p1p/1P3/P3P/NPnP1 00 0 5"),
        // White's declaration is illegal (no piece on c2): void, one point; Black takes a2.
        ("c2c3 c1a2", "1p1pN/p1p1p/1P3/n3P/NP1P1 10 0 6"),
        // b3xc4 takes the footman that stayed; a4xb3 finds b3 empty: a diagonal step.
        ("b3c4 a4b3", "1p1pN/2P1p/1p3/n3P/NP1P1 10 0 7"),
        // Two White horsemen: c4c5 redeploys to c3, where Black's horseman also lands.
        ("c4c5@c3 a2c3", "1p1pN/4p/1pn2/4P/NP1P1 10 0 8"),
        // Both declarations void: both get a point; White has two and loses.
        ("0000 e5e4", "1p1pN/4p/1pn2/4P/NP1P1 21 0 9"),
    ];
    let mut current = format_position(&Position::start());
    for (i, (joint, expected)) in script.iter().enumerate() {
        assert_eq!(
            outcome(&pos(&current), C),
            Outcome::Ongoing,
            "turn {}",
            i + 1
        );
        current = after(&current, joint);
        assert_eq!(&current, expected, "after turn {} ({joint})", i + 1);
    }
    assert_eq!(
        outcome(&pos(&current), C),
        Outcome::Win(Side::Black, Reason::Penalties)
    );
}

/// Squares attacked by `side`, one piece at a time from the definitions: knight jumps, and a
/// footman's two forward diagonals.
fn attacked_one_by_one(p: &Position, side: Side) -> u32 {
    let s = side.index();
    let mut out = 0;
    for sq in squares_of(p.horsemen[s]) {
        out |= KNIGHT_ATTACKS[sq as usize];
    }
    for sq in squares_of(p.footmen[s]) {
        let (file, rank) = ((sq % 5) as i32, (sq / 5) as i32);
        let ahead = if side == Side::White {
            rank + 1
        } else {
            rank - 1
        };
        for f in [file - 1, file + 1] {
            if (0..5).contains(&f) && (0..5).contains(&ahead) {
                out |= 1 << (ahead * 5 + f);
            }
        }
    }
    out
}

/// The counted moves and attacked squares agree with the generated moves and the piece by
/// piece attacks on the positions of random games, under both rule sets.
#[test]
fn counted_moves_and_attacks_match_generation_in_random_games() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for rules in [C, RuleSet::Vchess] {
        for _ in 0..400 {
            let mut p = Position::start();
            while !outcome(&p, rules).is_over() {
                for side in Side::BOTH {
                    assert_eq!(
                        legal_move_count(&p, side, rules) as usize,
                        legal_moves(&p, side, rules).len(),
                        "{} {side:?}",
                        format_position(&p)
                    );
                    assert_eq!(
                        attacked_squares(&p, side),
                        attacked_one_by_one(&p, side),
                        "{} {side:?}",
                        format_position(&p)
                    );
                    checked += 1;
                }
                let actions = Side::BOTH.map(|side| {
                    let moves = declarable_moves(&p, side, rules);
                    moves[rng.below(moves.len())]
                });
                p = resolve(&p, actions).0;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} positions");
}
