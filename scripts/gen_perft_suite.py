#!/usr/bin/env python3
"""Regenerate tests/data/perft-suite.epd from Fairy-Stockfish 11.1 (UCI_Variant extinction).

Every count in the suite comes from the reference engine, never from ours. Positions:
  * random playouts from the start position (legal moves taken from Fairy-Stockfish's divide),
  * random playouts from tactical middlegames,
  * hand-made positions for each rule of ../shared/specs/extinction-rules.md.
Depths go up while the deepest count stays under --max-nodes, so the test stays cheap.

Usage: scripts/gen_perft_suite.py [--engine /usr/games/fairy-stockfish] [--seed 2026]
                                   [--max-nodes 400000] [--out tests/data/perft-suite.epd]
"""
import argparse
import random
import subprocess
import sys

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Tactical middlegames (well-known perft positions, castling rights and all) used as playout roots.
MIDDLEGAMES = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
]

# Hand-made positions, one or more per rule, with the rule they exercise.
HAND_MADE = [
    ("double extinction by promotion capture (spec rule 5)", "rnbqk1nr/1P3ppp/8/8/8/1Q6/8/RNB1KBNR w KQkq - 0 1"),
    ("self-extinction: promoting the last pawn", "rnbqkbnr/pPpppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1"),
    ("self-extinction or not: last pawn promotes, captures possible", "r1bqkbnr/1P1ppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1"),
    ("king promotion available", "r1bqkbnr/1Ppppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("two white kings (promoted)", "rnbqkbnr/pppppppp/8/8/3K4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"),
    ("two kings each side", "rnbq1bnr/ppppkppp/8/4k3/4K3/8/PPPPKPPP/RNBQ1BNR w - - 0 1"),
    ("castling through attacked squares", "r3k2r/pppq1ppp/b1n2n2/4p1B1/4P1b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
    ("castling out of and into attack", "r3k2r/pppb1ppp/2n2n2/1q2Q3/8/2N2N2/PPPB1PPP/R3K2R b KQkq - 0 1"),
    ("castling blocked by a piece between", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1"),
    ("castling into attack, white queen on the g-file", "r3k2r/pbppqpb1/1pn2n2/4p1Qp/4P2P/1PN2NP1/PBPP1PB1/R3K2R b KQkq - 0 1"),
    ("en passant capture available", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("en passant capturing the last pawn", "rnbqkbnr/8/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1"),
    ("en passant by black", "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2"),
    ("capture of the last queen possible", "rnb1kbnr/pppppppp/8/8/4q3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("king may walk into attack", "rnbq1bnr/pppppppp/8/3k4/8/3K4/PPPPPPPP/RNBQ1BNR w - - 0 1"),
    ("finished: black has no kings", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
    ("finished: white has no bishops", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR b KQkq - 0 1"),
    ("finished: both sides lack a type", "rn1qk1nr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK1NR w KQkq - 0 1"),
    ("finished: side to move has no pawns", "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1"),
    ("promotion with captures on both sides of the pawn", "rnbqkbnr/pp1pPppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"),
    ("black promotions including king", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPpPP/RNBQK2R b KQkq - 0 1"),
    ("sparse endgame, one of each type", "4k3/p3b3/2n5/8/3q4/1r6/P2N4/R2QKB2 w - - 0 1"),
    ("castling rights in Shredder-FEN", "r3k2r/pbppqpb1/1pn2np1/4p2p/4P2P/1PN2NP1/PBPPQPB1/R3K2R w HAha - 0 1"),
    ("only one castling right each", "r3k2r/pbppqpb1/1pn2np1/4p2p/4P2P/1PN2NP1/PBPPQPB1/R3K2R w Qk - 0 1"),
    ("castling rights in X-FEN with a second rook", "r3k2r/pbppqpb1/1pn2np1/4p2p/4P3/1PN2NP1/PBPPQPB1/RR2K2R w Kkq - 0 1"),
    ("promotion race, one piece of most types", "1k6/1b5P/8/2n5/3q4/8/p5NB/1rQ1K2R w K - 0 1"),
    ("spec sample game, final position (White to move)", None),
]

SAMPLE_GAME = ("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 a2a3 e7e5 b2b4 f8b4 a3b4 a5a1 f1c4 g8f6 c4a2 e8g8 "
               "g1e2 f8d8 a2c4 b8c6 b4b5 c6d4 e1g1 d4e2 c3e2 d8d4")


class Engine:
    """A Fairy-Stockfish process in UCI mode with the extinction variant selected."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Variant value extinction")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish exited unexpectedly")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def fen(self, fen, moves=()):
        self.set_position(fen, moves)
        self.send("d")
        return next(l for l in self.wait_for("Fen:") if l.startswith("Fen:"))[5:].strip()

    def set_position(self, fen, moves=()):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def divide(self, fen, depth):
        """Returns ({move: count}, total) for `go perft depth`."""
        self.set_position(fen)
        self.send(f"go perft {depth}")
        counts = {}
        for line in self.wait_for("Nodes searched:"):
            if line.startswith("Nodes searched:"):
                return counts, int(line.split(":")[1])
            if ": " in line:
                mv, n = line.split(": ", 1)
                if n.strip().isdigit():
                    counts[mv.strip()] = int(n)

    def perft(self, fen, depth):
        return self.divide(fen, depth)[1]


def playout(engine, rng, root, plies):
    """A random legal line of up to `plies` moves from root, stopping before a finished position."""
    fen = root
    for _ in range(plies):
        moves, _ = engine.divide(fen, 1)
        if not moves:
            break
        nxt = engine.fen(fen, [rng.choice(sorted(moves))])
        if engine.perft(nxt, 1) == 0:
            break
        fen = nxt
    return fen


def depths_for(engine, fen, max_nodes, max_depth=6):
    counts = []
    for d in range(1, max_depth + 1):
        n = engine.perft(fen, d)
        if counts and n > max_nodes:
            break
        counts.append(n)
        if n == 0:
            break
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-nodes", type=int, default=3_000_000)
    ap.add_argument("--out", default="tests/data/perft-suite.epd")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = Engine(args.engine)

    entries = []
    entries.append(("start position", START))
    for i in range(24):
        entries.append((f"random playout from the start #{i + 1}", playout(engine, rng, START, rng.randint(6, 60))))
    for i in range(20):
        root = MIDDLEGAMES[i % len(MIDDLEGAMES)]
        entries.append((f"random playout from middlegame {i % len(MIDDLEGAMES) + 1}", playout(engine, rng, root, rng.randint(1, 30))))
    for name, fen in HAND_MADE:
        if fen is None:
            fen = engine.fen(START, SAMPLE_GAME.split())
        entries.append((name, fen))

    with open(args.out, "w") as out:
        out.write("# Extinction chess perft suite. Counts from Fairy-Stockfish 11.1 (Debian), UCI_Variant extinction.\n")
        out.write(f"# Regenerate: scripts/gen_perft_suite.py --seed {args.seed} --max-nodes {args.max_nodes}\n")
        out.write("# Format: <FEN> ;D1 <n> ;D2 <n> ... (a finished position has perft 0). The comment line above each\n")
        out.write("# entry says where the position comes from.\n")
        for name, fen in entries:
            counts = depths_for(engine, fen, args.max_nodes)
            out.write(f"# {name}\n{fen} " + " ".join(f";D{d} {n}" for d, n in enumerate(counts, 1)) + "\n")
            print(name, fen, counts, file=sys.stderr)
    engine.send("quit")


if __name__ == "__main__":
    main()
