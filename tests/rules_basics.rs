//! Basic rule checks: Polyglot keys, FEN round trips, outcome rule, UCI parsing.

use shakmaty::Color;
use variant_engines::extinction::{parse_uci, MoveError, MoveList, Position};

#[test]
fn start_key_is_polyglot() {
    // Published Polyglot key of the start position.
    assert_eq!(Position::startpos().key(), 0x463b96181691fc9c);
}

#[test]
fn polyglot_keys_after_moves() {
    // Reference keys from the Polyglot book format specification.
    let mut pos = Position::startpos();
    let seq = [
        ("e2e4", 0x823c9b50fd114196u64),
        ("d7d5", 0x0756b94461c50fb0),
        ("e4e5", 0x662fafb965db29d4),
        ("f7f5", 0x22a48b5a8e47ff78),
        ("e1e2", 0x652a607ca3f242c1),
        ("e8f7", 0x00fdd303c946bdd9),
    ];
    for (uci, key) in seq {
        let m = parse_uci(&pos, uci).unwrap();
        pos.do_move(m);
        assert_eq!(pos.key(), key, "after {uci}");
        assert_eq!(pos.compute_key(), key);
    }
}

#[test]
fn fen_round_trip() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/pbnq4/8/8/8/8/PBNQ4/R3K2R b Kq - 5 40",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
    }
}

#[test]
fn rule_five_mover_wins() {
    let pos = Position::from_fen("rnbqk1nr/1P3ppp/8/8/8/1Q6/8/RNB1KBNR w KQkq - 0 1").unwrap();
    let m = parse_uci(&pos, "b7c8q").unwrap();
    let after = pos.after(m);
    let outcome = after.extinction_outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.result_str(), "1-0");
    let mut list = MoveList::new();
    after.generate_moves(&mut list);
    assert!(list.is_empty());
}

#[test]
fn uci_errors() {
    let pos = Position::startpos();
    assert!(matches!(
        parse_uci(&pos, "e2e5"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        parse_uci(&pos, "zz"),
        Err(MoveError::Unparsable(_))
    ));
    let done = Position::from_fen("4k3/1P4p1/8/8/8/8/1p4P1/4K3 w - - 0 1").unwrap();
    assert!(matches!(
        parse_uci(&done, "e1e2"),
        Err(MoveError::GameOver(_))
    ));
}
