#!/usr/bin/env python3
"""Build a set of Extinction tactical positions from cutechess-cli PGN files (issue #12).

A position qualifies when, in a played game, an engine announced a forced win for the first
time in that game (its move comment reads "+M<n>/<depth>" with n <= --max-mate), our engine
does not see the win at --trivial-depth (no one-move captures of a last piece), and searching
it for --verify-ms it does find a forced win. Such positions have a short forced
extinction that a good search must find; they measure what a short `movetime` buys.

The FEN before each move comes from `extinction analyze --pgn --json` (so the variant's own
rules replay the game). One position per game at most, so the set is not dominated by one game.

    benches/tactics_from_pgn.py --count 80 --out benches/data/tactics-80.epd GAMES.pgn ...

Output: EPD lines `FEN bm SAN; id "file game G ply P";` where bm is the move the announcing
engine played (one winning move, not necessarily the only one).
"""
import argparse
import json
import os
import re
import subprocess
import sys

from movetime_tactics import RELEASE as ENGINE, Engine, wins

TOKEN = re.compile(r"\{[^}]*\}|\[[^\]]*\]|\S+")
MATE = re.compile(r"^\{\+M(\d+)/")


def comments_per_ply(pgn_text):
    """For each game, the comment following each move, in ply order."""
    games, current, last_was_move = [], None, False
    for tok in TOKEN.findall(pgn_text):
        if tok.startswith("[Event "):
            current = []
            games.append(current)
        elif tok.startswith("[") or current is None:
            continue
        elif tok.startswith("{"):
            if last_was_move:
                current[-1] = tok
            last_was_move = False
        elif re.match(r"^\d+\.+$", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            last_was_move = False
        else:
            current.append("")
            last_was_move = True
    return games


def fens_per_ply(path):
    out = subprocess.run(
        [ENGINE, "analyze", "--pgn", path, "--depth", "1", "--json"],
        capture_output=True, text=True, check=True).stdout
    games = {}
    for line in out.splitlines():
        obj = json.loads(line)
        if obj.get("type") == "move":
            games.setdefault(obj["game"], []).append((obj["fen_before"], obj["move"]))
    return [games[g] for g in sorted(games)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgns", nargs="+")
    ap.add_argument("--count", type=int, default=80)
    ap.add_argument("--max-mate", type=int, default=8)
    ap.add_argument("--verify-ms", type=int, default=1000)
    ap.add_argument("--trivial-depth", type=int, default=4,
                    help="leave out positions whose win a search of this depth already finds")
    ap.add_argument("--out", default="-")
    args = ap.parse_args()

    candidates = []
    for path in args.pgns:
        comments = comments_per_ply(open(path, encoding="utf-8", errors="replace").read())
        fens = fens_per_ply(path)
        for g, (game_comments, game_fens) in enumerate(zip(comments, fens), start=1):
            seen_side = set()
            for ply, (comment, (fen, san)) in enumerate(zip(game_comments, game_fens), start=1):
                m = MATE.match(comment)
                side = ply % 2
                if not m or side in seen_side:
                    continue
                seen_side.add(side)
                if int(m.group(1)) <= args.max_mate:
                    candidates.append((fen, san, f"{os.path.basename(path)} game {g} ply {ply}"))
                    break  # one position per game
    print(f"{len(candidates)} candidates", file=sys.stderr)

    chosen = []
    engine = Engine(ENGINE, [])
    for fen, san, ident in candidates:
        if wins(engine.search(fen, f"depth {args.trivial_depth}")[0]):
            continue
        score = engine.search(fen, f"movetime {args.verify_ms}")[0]
        if wins(score):
            chosen.append(f'{fen} bm {san}; id "{ident}";')
            print(f"  {len(chosen)}: {ident} (mate {score[1]})", file=sys.stderr)
            if len(chosen) == args.count:
                break
    engine.close()
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    out.write("\n".join(chosen) + "\n")
    if len(chosen) < args.count:
        print(f"only {len(chosen)} of {args.count} positions found", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
