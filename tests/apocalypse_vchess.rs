//! The vchess reading of the rules (`--rules vchess`): each of its three differences from the
//! classic rules (speculative steps, a speculation beats the plain move it meets, the last
//! footman may advance), worked out by hand on small positions, against the classic result
//! where the two differ.

use variant_engines::apocalypse::rules::board::{square, Piece, Position, Side};
use variant_engines::apocalypse::rules::moves::{declarable_moves, legal_moves, to_action, Move};
use variant_engines::apocalypse::rules::notation::{
    format_move, format_position, parse_joint_move, parse_move, parse_position,
};
use variant_engines::apocalypse::rules::outcome::{outcome, Outcome, Reason};
use variant_engines::apocalypse::rules::report::describe_turn;
use variant_engines::apocalypse::rules::resolve::{resolve_declared, Turn, TurnEvents};
use variant_engines::apocalypse::rules::ruleset::RuleSet;

const V: RuleSet = RuleSet::Vchess;
const C: RuleSet = RuleSet::Classic;

fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    square(b[0] - b'a', b[1] - b'1')
}

/// Declare a joint move under `rules` (undeclarable moves become the forfeit) and resolve it.
fn turn(rules: RuleSet, text: &str, joint: &str) -> Turn {
    resolve_declared(&pos(text), parse_joint_move(joint).unwrap(), rules)
}

/// The position after the turn and what happened in it.
fn play(rules: RuleSet, text: &str, joint: &str) -> (Position, TurnEvents) {
    let turn = turn(rules, text, joint);
    (turn.next, turn.events)
}

fn after(rules: RuleSet, text: &str, joint: &str) -> String {
    format_position(&play(rules, text, joint).0)
}

fn names(moves: Vec<Move>) -> Vec<String> {
    moves.into_iter().map(format_move).collect()
}

#[test]
fn speculative_steps_are_declarable_only_under_vchess() {
    // Start: every footman diagonal onto an empty square (b1c2 c1b2 c1d2 d1c2 a2b3 e2d3);
    // a1/a2 and e1/e2 are occupied by White's own pieces. They are no legal moves.
    let p = Position::start();
    let white = names(declarable_moves(&p, Side::White, V));
    assert_eq!(
        white.join(" "),
        "a1c2 a1b3 b1b2 c1c2 d1d2 e1c2 e1d3 a2a3 e2e3 b1c2 c1b2 c1d2 d1c2 a2b3 e2d3 0000"
    );
    assert_eq!(declarable_moves(&p, Side::White, C).len(), 10);
    assert_eq!(
        legal_moves(&p, Side::White, V),
        legal_moves(&p, Side::White, C)
    );
    let axb3 = parse_move("a2b3").unwrap();
    assert_eq!(to_action(&p, Side::White, V, axb3), axb3);
    assert!(to_action(&p, Side::White, C, axb3).is_forfeit());
    // The other side's mirror image, move for move.
    let black: Vec<Move> = declarable_moves(&p.mirrored(), Side::Black, V)
        .into_iter()
        .map(Move::mirrored)
        .collect();
    assert_eq!(black, declarable_moves(&p, Side::White, V));
}

#[test]
fn the_rules_example_axb3_against_nb3_beats_the_horseman() {
    // 1.axb3 comes true against 1...Nb3: the horseman arriving on b3 is removed (a horseman
    // would beat a footman in a plain collision).
    let (p, ev) = play(V, "start", "a2b3 a5b3");
    assert_eq!(format_position(&p), "1pppn/p3p/1P3/4P/NPPPN 00 0 2");
    assert_eq!(ev.speculation, [Some(true), None]);
    assert_eq!(ev.captured[0], Some((sq("b3"), Piece::Horseman)));
    assert_eq!(ev.collision, None);
    let lines = describe_turn(&turn(V, "start", "a2b3 a5b3"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("speculative step comes true")),
        "{lines:?}"
    );
    // Classic: a2b3 is illegal, void; the horseman lands.
    assert_eq!(
        after(C, "start", "a2b3 a5b3"),
        "1pppn/p3p/1n3/P3P/NPPPN 10 0 2"
    );
}

#[test]
fn a_speculation_nobody_arrives_at_is_void_with_a_penalty() {
    // Black's horseman goes to d3, not b3: White's step is void (one point), Black's is played.
    let (p, ev) = play(V, "start", "a2b3 e5d3");
    assert_eq!(format_position(&p), "nppp1/p3p/3n1/P3P/NPPPN 10 0 2");
    assert_eq!(ev.speculation, [Some(false), None]);
    assert_eq!(ev.void, [true, false]);
    // Against a forfeit there is no arrival either; at one point already that loses.
    let (p, _) = play(V, "5/p4/5/1P3/5 10", "b2c3 0000");
    assert_eq!(format_position(&p), "5/p4/5/1P3/5 21 0 2");
    assert_eq!(outcome(&p, V), Outcome::Win(Side::Black, Reason::Penalties));
}

#[test]
fn a_speculation_beats_a_footman_arriving_plainly() {
    // Black c4c3 meets White's b2xc3: classic collision of footmen would remove both; the
    // speculation wins, Black loses its last footman.
    let (p, ev) = play(V, "5/2p2/5/1P3/5", "b2c3 c4c3");
    assert_eq!(format_position(&p), "5/5/2P2/5/5 00 0 2");
    assert_eq!(ev.captured[0], Some((sq("c3"), Piece::Footman)));
    assert_eq!(outcome(&p, V), Outcome::Win(Side::White, Reason::NoFootmen));
    // Classic: b2c3 is void and Black's footman steps to c3.
    assert_eq!(
        after(C, "5/2p2/5/1P3/5", "b2c3 c4c3"),
        "5/5/2p2/1P3/5 10 0 2"
    );
}

#[test]
fn two_speculations_never_make_each_other_come_true() {
    // b2xc3 and d4xc3 each wait for a plain arrival on c3; neither is one: both are void.
    let (p, ev) = play(V, "5/3p1/5/1P3/5", "b2c3 d4c3");
    assert_eq!(format_position(&p), "5/3p1/5/1P3/5 11 0 2");
    assert_eq!(ev.speculation, [Some(false), Some(false)]);
    assert_eq!(ev.collision, None);
}

#[test]
fn a_void_speculation_leaves_the_footman_where_a_capture_finds_it() {
    // White speculates b2xc3, Black's horseman takes on b2 instead: the footman did not move
    // (its step was void), so the capture removes it.
    let (p, ev) = play(V, "5/p4/3n1/1P2P/5", "b2c3 d3b2");
    assert_eq!(format_position(&p), "5/p4/5/1n2P/5 10 0 2");
    assert_eq!(ev.void, [true, false]);
    assert_eq!(ev.captured[1], Some((sq("b2"), Piece::Footman)));
    assert_eq!(ev.target_moved, [false, false]);
}

#[test]
fn a_speculation_onto_the_last_rank_promotes() {
    // d4xe5 against ...Nd3-e5 with no White horseman: the footman beats the horseman on e5 and
    // becomes a horseman there.
    let (p, ev) = play(V, "5/p2P1/3n1/P4/5", "d4e5 d3e5");
    assert_eq!(format_position(&p), "4N/p4/5/P4/5 00 0 2");
    assert_eq!(ev.promoted[0], Some(sq("e5")));
    assert_eq!(ev.captured[0], Some((sq("e5"), Piece::Horseman)));
}

#[test]
fn a_speculation_onto_the_last_rank_with_two_horsemen_redeploys() {
    // Two White horsemen: d4's diagonal steps to the empty c5 and e5 each need a redeploy
    // square (empty on B, not on rank 5: 20 - 5 occupied = 15), as a plain step there would.
    let text = "5/p2P1/3n1/5/N3N";
    let p = pos(text);
    let speculative: Vec<Move> = declarable_moves(&p, Side::White, V)
        .into_iter()
        .filter(|m| m.from == sq("d4") && m.to != sq("d5"))
        .collect();
    assert_eq!(speculative.len(), 2 * 15);
    assert!(speculative.contains(&Move::with_redeploy(sq("d4"), sq("e5"), sq("b2"))));
    assert!(!speculative.iter().any(|m| m.redeploy == sq("d3")));
    // It comes true against ...Nd3-e5: the horseman is beaten on e5, the footman lands on b2.
    let (q, ev) = play(V, text, "d4e5@b2 d3e5");
    assert_eq!(format_position(&q), "5/p4/5/1P3/N3N 00 0 2");
    assert_eq!(ev.captured[0], Some((sq("e5"), Piece::Horseman)));
    assert_eq!(ev.redeployed[0], Some(sq("b2")));
}

#[test]
fn a_redeploying_footman_arriving_on_the_square_is_beaten_too() {
    // Black's b2b1@c3 arrives on c3 (its destination); White's d2xc3 comes true and removes
    // it. Black still has e4.
    let (p, ev) = play(V, "n3n/4p/5/Pp1P1/5", "d2c3 b2b1@c3");
    assert_eq!(format_position(&p), "n3n/4p/2P2/P4/5 00 0 2");
    assert_eq!(ev.speculation, [Some(true), None]);
    assert_eq!(ev.captured[0], Some((sq("c3"), Piece::Footman)));
    assert_eq!(ev.redeployed[1], None);
}

#[test]
fn the_last_footman_may_advance_and_then_its_side_loses() {
    // Classic: d4d5 with one horseman is illegal (void). vchess: it promotes, and White has no
    // footman left.
    let text = "1p3/p2P1/5/5/N4";
    assert!(legal_moves(&pos(text), Side::White, V).contains(&Move::new(sq("d4"), sq("d5"))));
    let (p, _) = play(V, text, "d4d5 a4a3");
    assert_eq!(format_position(&p), "1p1N1/5/p4/5/N4 00 0 2");
    assert_eq!(outcome(&p, V), Outcome::Win(Side::Black, Reason::NoFootmen));
    assert_eq!(after(C, text, "d4d5 a4a3"), "1p3/3P1/p4/5/N4 10 0 2");
    // Both last footmen promote on the same turn: nobody has footmen, a draw.
    let (p, _) = play(V, "5/3P1/5/1p3/5", "d4d5 b2b1");
    assert_eq!(format_position(&p), "3N1/5/5/5/1n3 00 0 2");
    assert_eq!(outcome(&p, V), Outcome::Draw(Reason::NoFootmen));
}

#[test]
fn rule_4_3_counts_the_last_footman_advance_but_not_speculations() {
    // Classic: the last-footman advance is White's only move and is not legal, so White has
    // no legal move, a draw. Under vchess it is a legal move and the game goes on.
    let p = pos("5/3P1/5/p4/5");
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::NoLegalMove));
    assert_eq!(outcome(&p, V), Outcome::Ongoing);
    // Blocked footmen with only speculative steps (a1b2, a2b1): no legal move in either.
    let p = pos("5/5/5/p4/P4");
    assert_eq!(
        names(declarable_moves(&p, Side::White, V)),
        vec!["a1b2", "0000"]
    );
    assert_eq!(outcome(&p, V), Outcome::Draw(Reason::NoLegalMove));
    assert_eq!(outcome(&p, C), Outcome::Draw(Reason::NoLegalMove));
}

#[test]
fn plain_moves_resolve_alike_under_both_rule_sets() {
    // Nothing speculative: collisions, captures of moved pieces, redeploys as in the classic
    // rules.
    for (text, joint) in [
        ("1n3/p4/5/P1P2/5", "c2c3 b5c3"),
        ("5/p1p2/5/P1P2/5", "c2c3 c4c3"),
        ("5/p4/2p2/P4/1N3", "b1c3 c3c2"),
        ("1p2n/p2P1/5/P4/N3N", "d4e5@c1 a4a3"),
        ("start", "c1c2 c5c4"),
    ] {
        assert_eq!(
            after(V, text, joint),
            after(C, text, joint),
            "{text} {joint}"
        );
    }
}
