"""Drive the extinction engine with python-chess's chess.engine, over UCI and over XBoard.

Usage: python3 extinction_client.py ENGINE_PATH FEN_LOST_IN_4

python-chess's own board plays orthodox chess, so the script only uses positions where the
moves exchanged are legal in both games. Its Board subclass declares the variant so that
python-chess sends `UCI_Variant extinction` / `variant extinction`. Exits non-zero on failure.
"""

import sys
import time

import chess
import chess.engine


class ExtinctionBoard(chess.Board):
    """An orthodox board that announces itself as Extinction to engines."""

    uci_variant = "extinction"
    xboard_variant = "extinction"


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)


def exercise(engine, fen_lost_in_4, label):
    # Analysis of the sample game's final position: White is lost in 4 moves.
    board = ExtinctionBoard(fen_lost_in_4)
    started = time.monotonic()
    with engine.analysis(board, chess.engine.Limit(time=1.0)) as analysis:
        mate_at = None
        for info in analysis:
            score = info.get("score")
            if score is not None and score.relative == chess.engine.Mate(-4) and mate_at is None:
                mate_at = time.monotonic() - started
    check(mate_at is not None and mate_at <= 1.0, f"{label}: no Mate(-4) within 1 s (got {mate_at})")
    print(f"{label}: Mate(-4) after {mate_at:.3f} s")

    # A short game from the start position: every engine move must be legal for python-chess
    # too until the first move where the two games could differ (a capture of a king or a
    # move leaving a king en prise); stop well before that.
    board = ExtinctionBoard()
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(time=0.05))
        check(result.move is not None, f"{label}: no move")
        check(result.move in board.legal_moves, f"{label}: {result.move} illegal in orthodox terms")
        board.push(result.move)
        if board.is_check():
            break
    print(f"{label}: played {' '.join(m.uci() for m in board.move_stack)}")


def main():
    path, fen = sys.argv[1], sys.argv[2]
    engine = chess.engine.SimpleEngine.popen_uci([path, "uci"])
    try:
        check("UCI_Variant" in engine.options, "UCI_Variant option missing")
        check("extinction" in engine.options["UCI_Variant"].var, "extinction not in UCI_Variant")
        engine.configure({"Hash": 8, "Move Overhead": 10, "Threads": 1})
        exercise(engine, fen, "uci")
    finally:
        engine.quit()

    engine = chess.engine.SimpleEngine.popen_xboard([path, "xboard"])
    try:
        check("extinction" in str(engine.protocol.features.get("variants", "")), "variants feature")
        exercise(engine, fen, "xboard")
    finally:
        engine.quit()
    print("OK")


if __name__ == "__main__":
    main()
