//! SAN, PGN and game-outcome behaviour.

use shakmaty::Color;
use variant_engines::extinction::{
    parse_pgn, parse_pgn_games, parse_san, san, Game, MoveError, MoveList, PgnError, Position,
};
use variant_engines::rng::Rng;

const SAMPLE_PGN: &str = r#"[Event "Messigny"]
[Site "Messigny"]
[Date "1998.??.??"]
[White "N.N."]
[Black "Fabrice Liardet"]
[Result "0-1"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. a3 e5 5. b4 Bxb4 6. axb4 Qxa1 7. Bc4 Nf6 8. Ba2 0-0
9. Nge2 Rd8 10. Bc4 Nc6 11. b5 Nd4 12. 0-0 Nxe2 13. Nxe2 Rd4 0-1
"#;

#[test]
fn sample_game_replays_from_san() {
    let pgn = parse_pgn(SAMPLE_PGN).unwrap();
    assert_eq!(pgn.header("Black"), Some("Fabrice Liardet"));
    assert_eq!(pgn.result.as_deref(), Some("0-1"));
    assert_eq!(pgn.moves.len(), 26);
    let game = pgn.replay().unwrap();
    assert_eq!(game.moves().len(), 26);
    // Final position as printed by Fairy-Stockfish 11.1 after the same UCI moves.
    assert_eq!(
        game.position().fen(),
        "r1b3k1/ppp2ppp/5n2/1P2p3/2Br4/8/2PPNPPP/q1BQ1RK1 w - - 1 14"
    );
    assert!(
        game.outcome().is_none(),
        "the final position is not finished"
    );
    // Every move prints back to the same SAN (with O-O for castling).
    let mut pos = Position::startpos();
    for (text, &m) in pgn.moves.iter().zip(game.moves()) {
        assert_eq!(san(&pos, m), text.replace('0', "O"));
        pos.do_move(m);
    }
}

#[test]
fn san_round_trips_on_random_lines() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    for _ in 0..200 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let mut list = MoveList::new();
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            for &m in list.iter() {
                let text = san(&pos, m);
                assert_eq!(parse_san(&pos, &text), Ok(m), "{text} in {}", pos.fen());
            }
            let m = list[rng.below(list.len())];
            pos.do_move(m);
        }
    }
}

#[test]
fn san_forms() {
    let pos =
        Position::from_fen("r3k2r/pPppqpb1/1n2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPp/R3K2R w KQkq - 0 1")
            .unwrap();
    for (text, uci) in [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0-0", "e1c1"),
        ("bxa8=K", "b7a8k"),
        ("bxa8K", "b7a8k"),
        ("b8=Q", "b7b8q"),
        ("b8Q+", "b7b8q"),
        ("Nxf7!?", "e5f7"),
        ("Ncd1", "c3d1"),
        ("Ba6", "e2a6"),
    ] {
        assert_eq!(
            parse_san(&pos, text).map(|m| m.to_string()),
            Ok(uci.to_string()),
            "{text}"
        );
    }
    let two_knights =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1").unwrap();
    assert!(matches!(
        parse_san(&two_knights, "Nd2"),
        Err(MoveError::Ambiguous(_))
    ));
    let m = parse_san(&two_knights, "Nbd2").unwrap();
    assert_eq!(
        (m.to_string(), san(&two_knights, m)),
        ("b1d2".to_string(), "Nbd2".to_string())
    );
    assert!(matches!(parse_san(&pos, "Qh8"), Err(MoveError::Illegal(_))));
    assert!(matches!(
        parse_san(&pos, "Zz9"),
        Err(MoveError::Unparsable(_))
    ));
    // King promotion in SAN, and '#' for an extinction-winning move.
    let rule5 = Position::from_fen("rnbqk1nr/1P3ppp/8/8/8/1Q6/8/RNB1KBNR w KQkq - 0 1").unwrap();
    let m = parse_san(&rule5, "bxc8=K").unwrap();
    assert_eq!(san(&rule5, m), "bxc8=K#");
}

#[test]
fn game_outcomes() {
    // Stalemate with every type on the board: White's pieces are walled in by their own
    // pawns, which are blocked by Black's (Fairy-Stockfish 11.1 also gives perft(1) = 0).
    let stalemate =
        Position::from_fen("rnbqkbnr/8/8/8/1p1p1p1p/pPpPpPpP/PRPRP1P1/KBNQN3 w - - 0 1").unwrap();
    assert!(stalemate.extinction_outcome().is_none());
    let o = Game::new(stalemate).outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason.as_str(), o.result_str()),
        (None, "stalemate", "1/2-1/2")
    );

    // Fifty-move rule.
    let fifty =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 80").unwrap();
    let o = Game::new(fifty).outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason.as_str(), o.result_str()),
        (None, "fifty-move rule", "1/2-1/2")
    );

    // Threefold repetition by knight shuffles; undo takes it back.
    let mut game = Game::default();
    for m in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        assert!(game.outcome().is_none());
        game.play_uci(m).unwrap();
    }
    assert_eq!(game.outcome().unwrap().reason, "threefold repetition");
    assert!(game.undo());
    assert!(game.outcome().is_none());

    // Extinction reasons.
    let mut game = Game::new(
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR b KQkq - 0 1").unwrap(),
    );
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason.as_str()),
        (Some(Color::Black), "White's bishops are extinct")
    );
    assert!(!game.undo());
}

/// Three games as cutechess-cli's `-pgnout` writes them (tags, clock comments, a blank line
/// between games), the second without a termination marker and with a variation and a comment
/// holding brackets.
const CUTECHESS_PGN: &str = r#"[Event "soak"]
[White "Extinction"]
[Black "Fairy-Stockfish"]
[Result "1-0"]
[FEN "rn1qk1nr/pppppppp/8/3b4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"]
[SetUp "1"]
[Variant "extinction"]

1. a3 {+0.52/7 0.012s} e6 {-9.80/8 0.011s} 2. exd5 {+99.99/1 0.001s, Black's bishops are extinct} 1-0

[Event "soak"]
[White "Fairy-Stockfish"]
[Black "Extinction"]

1. e4 d5 (1... e5 2. Nf3) 2. exd5
{ [%clk 0:00:58] } Qxd5

[Event "soak"]
[Result "*"]

1. Nf3 *
"#;

#[test]
fn pgn_files_hold_several_games() {
    let games: Vec<_> = parse_pgn_games(CUTECHESS_PGN)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves, ["a3", "e6", "exd5"]);
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    assert_eq!(games[0].header("Variant"), Some("extinction"));
    assert_eq!(games[1].header("White"), Some("Fairy-Stockfish"));
    assert_eq!(games[1].moves, ["e4", "d5", "exd5", "Qxd5"]);
    // Each main-line move keeps the comment after it (the engines' scores in cutechess files);
    // a variation's moves give none.
    assert_eq!(
        games[0].comments,
        [
            Some("+0.52/7 0.012s".to_string()),
            Some("-9.80/8 0.011s".to_string()),
            Some("+99.99/1 0.001s, Black's bishops are extinct".to_string()),
        ]
    );
    assert_eq!(
        games[1].comments,
        [None, None, Some("[%clk 0:00:58]".to_string()), None]
    );
    assert_eq!(games[1].result, None);
    assert_eq!(games[2].moves, ["Nf3"]);
    assert_eq!(games[2].result.as_deref(), Some("*"));
    let end = games[0].replay().unwrap().outcome().unwrap();
    assert_eq!(end.reason, "Black's bishops are extinct");
    games[1].replay().unwrap();
    // One game at a time: parse_pgn refuses a file of several.
    assert!(matches!(
        parse_pgn(CUTECHESS_PGN),
        Err(PgnError::Syntax(s)) if s.contains("more than one game")
    ));
    assert_eq!(parse_pgn_games(" \n{ just a comment }\n").len(), 0);
}

#[test]
fn a_broken_game_does_not_hide_the_next_one() {
    let text = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 d5 1/2-1/2\n\n\
                [Event \"c\"]\n\n1. c4 ) 1-0\n\n[Event \"d\"]\n\n1. b3 0-1\n";
    let games = parse_pgn_games(text);
    assert_eq!(games.len(), 4, "{games:?}");
    assert!(matches!(&games[0], Err(PgnError::Syntax(s)) if s.contains("comment")));
    assert_eq!(games[1].as_ref().unwrap().moves, ["d4", "d5"]);
    assert!(matches!(&games[2], Err(PgnError::Syntax(s)) if s.contains("')'")));
    assert_eq!(games[3].as_ref().unwrap().moves, ["b3"]);
}
