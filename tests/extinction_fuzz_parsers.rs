//! Property tests: parsers never panic on arbitrary input, and make/unmake, move counting
//! and pseudo-legality checks agree with move generation along random lines.

use proptest::prelude::*;
use variant_engines::extinction::{parse_pgn, parse_san, parse_uci, Move, MoveList, Position};

const SEED_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/pbppqpb1/1pn2np1/4p2p/4P2P/1PN2NP1/PBPPQPB1/R3K2R w HAha - 0 1",
    "k1k1k1k1/p1p1p1pp/1q1r1b1n/8/8/1Q1R1B1N/P1P1P1PP/K1K1K1K1 w - - 0 1",
    "nbrqk3/PPPPPPPP/8/8/8/8/pppppppp/NBRQK3 w - - 0 1",
];

/// Characters that make FEN-like noise.
fn fen_chars() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('/'),
            Just(' '),
            Just('-'),
            proptest::char::range('0', '9'),
            proptest::sample::select(vec![
                'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'w', 'x', 'a', 'h',
                'A', 'H'
            ]),
            any::<char>(),
        ],
        0..90,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(text in fen_chars()) {
        if let Ok(pos) = Position::from_fen(&text) {
            let again = Position::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(again.fen(), pos.fen());
            prop_assert_eq!(again.key(), pos.key());
        }
    }

    #[test]
    fn mutated_fens_never_panic(idx in 0..SEED_FENS.len(), at in 0usize..90, ch in any::<char>(), cut in 0usize..100) {
        let mut chars: Vec<char> = SEED_FENS[idx].chars().collect();
        if at < chars.len() {
            chars[at] = ch;
        }
        let text: String = chars.into_iter().take(cut.max(1)).collect();
        if let Ok(pos) = Position::from_fen(&text) {
            let again = Position::from_fen(&pos.fen()).map(|p| p.fen()).unwrap_or_default();
            prop_assert_eq!(again, pos.fen());
            prop_assert!(pos.by_color(shakmaty::Color::White).count() <= 16);
        } else if let Err(e) = Position::from_fen(&text) {
            let shown = e.to_string();
            prop_assert!(!shown.contains('\n'), "error is one line");
        }
    }

    #[test]
    fn move_parsers_never_panic(idx in 0..SEED_FENS.len(), text in "\\PC{0,12}") {
        let pos = Position::from_fen(SEED_FENS[idx]).unwrap();
        if let Ok(m) = parse_uci(&pos, &text) {
            prop_assert!(pos.is_pseudo_legal(m));
        }
        if let Ok(m) = parse_san(&pos, &text) {
            prop_assert!(pos.is_pseudo_legal(m));
        }
        let _ = parse_pgn(&text);
    }

    #[test]
    fn random_lines_are_consistent(idx in 0..SEED_FENS.len(), choices in proptest::collection::vec(any::<u16>(), 1..60), raws in proptest::collection::vec(any::<u16>(), 8)) {
        let mut pos = Position::from_fen(SEED_FENS[idx]).unwrap();
        let mut line = Vec::new();
        let mut previous = MoveList::new();
        let mut before_previous = MoveList::new();
        for c in choices {
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            prop_assert_eq!(pos.count_moves(), list.len() as u64);
            for &m in list.iter() {
                prop_assert!(pos.is_pseudo_legal(m), "{} in {}", m, pos.fen());
                prop_assert_eq!(parse_uci(&pos, &m.to_string()), Ok(m));
            }
            for &raw in &raws {
                let m = Move::from_u16(raw);
                prop_assert_eq!(pos.is_pseudo_legal(m), list.contains(m), "{} in {}", m, pos.fen());
            }
            // Moves of earlier positions stand in for killer and hash moves.
            for &m in previous.iter().chain(before_previous.iter()) {
                prop_assert_eq!(pos.is_pseudo_legal(m), list.contains(m), "{} in {}", m, pos.fen());
            }
            before_previous = std::mem::replace(&mut previous, list.clone());
            let mut captures = MoveList::new();
            pos.generate_captures(&mut captures);
            for &m in captures.iter() {
                prop_assert!(list.contains(m));
                prop_assert!(pos.is_capture(m) || m.promotion().is_some());
            }
            let n_caps = list.iter().filter(|&&m| pos.is_capture(m) || m.promotion().is_some()).count();
            prop_assert_eq!(captures.len(), n_caps);
            if list.is_empty() {
                break;
            }
            let m = list[c as usize % list.len()];
            let before = pos.clone();
            let predicted = pos.winner_after(m);
            let undo = pos.do_move(m);
            prop_assert_eq!(predicted, pos.extinction_outcome().and_then(|o| o.winner));
            prop_assert_eq!(pos.key(), pos.compute_key());
            let fen_key = Position::from_fen(&pos.fen()).unwrap().key();
            prop_assert_eq!(pos.key(), fen_key);
            line.push((m, undo, before));
        }
        while let Some((m, undo, before)) = line.pop() {
            pos.undo_move(m, undo);
            prop_assert!(pos == before, "undo of {} restores {}", m, before.fen());
        }
    }
}
