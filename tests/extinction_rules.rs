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

#[test]
fn fen_errors_are_one_line_and_specific() {
    for (fen, needle) in [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "count",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "unknown piece",
        ),
        (
            "rnbqkbnp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "pawn on rank 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "wrong rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
            "fullmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "extra",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "two empty-square counts in a row on rank 4",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQQ - 0 1",
            "castling field 'KKQQ' repeats 'K'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "fullmove number 0",
        ),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no pieces"),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w - - 0 1",
            "24 pieces",
        ),
    ] {
        let err = Position::from_fen(fen).unwrap_err().to_string();
        assert!(err.contains(needle), "{fen}: {err}");
        assert!(!err.contains('\n'));
    }
    // Missing counters default to 0 1.
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -").unwrap();
    assert_eq!(
        (pos.halfmove_clock(), pos.fullmoves(), pos.turn()),
        (0, 1, Color::Black)
    );
}

#[test]
fn castling_notations() {
    // Shredder-FEN and X-FEN give the same rights; FEN output uses KQkq.
    let shredder = Position::from_fen("r3k2r/pbnq4/8/8/8/8/PBNQ4/R3K2R w HAha - 0 1").unwrap();
    assert_eq!(
        shredder.fen(),
        "r3k2r/pbnq4/8/8/8/8/PBNQ4/R3K2R w KQkq - 0 1"
    );
    // An inner rook needs its file letter; K means the outermost rook.
    let inner = Position::from_fen("rr2k2r/pbnq4/8/8/8/8/PBNQ4/RR2K2R w Bb - 0 1").unwrap();
    assert_eq!(inner.fen(), "rr2k2r/pbnq4/8/8/8/8/PBNQ4/RR2K2R w Bb - 0 1");
    let m = parse_uci(&inner, "e1c1").unwrap();
    assert!(m.is_castle());
    assert_eq!(
        inner.after(m).fen(),
        "rr2k2r/pbnq4/8/8/8/8/PBNQ4/R1KR3R b b - 1 1"
    );
    // Chess960-style king on f1: printed and parsed as king takes rook.
    let f1 = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w H - 0 1").unwrap();
    let empty_g1 =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/6N1/PPPPPPPP/RNBQ1K1R w H - 0 1").unwrap();
    assert!(parse_uci(&f1, "f1h1").is_err(), "g1 is occupied");
    let castle = parse_uci(&empty_g1, "f1h1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(castle.to_string(), "f1h1");
    assert!(!parse_uci(&empty_g1, "f1g1").unwrap().is_castle());
    assert_eq!(
        empty_g1.after(castle).fen(),
        "rnbqkbnr/pppppppp/8/8/8/6N1/PPPPPPPP/RNBQ1RK1 b - - 1 1"
    );
    // Rights without a matching king or rook are dropped.
    let no_rook =
        Position::from_fen("rnbqkbn1/pppppppr/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1").unwrap();
    assert_eq!(
        no_rook.fen(),
        "rnbqkbn1/pppppppr/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qq - 0 1"
    );
}
