#!/usr/bin/env python3
"""`go movetime` on tactical positions (issue #12): how many forced wins the engine finds
and how long it takes to answer, under several configurations, measured in one run.

Each configuration is one engine process (UCI) given `position fen ...` and `go movetime MS`
for every position of the EPD file; the time from sending `go` to reading `bestmove` is
measured here, on the client's side, as a GUI sees it. A position counts as solved when the
last score reported before `bestmove` is a forced win (`score mate N`, N > 0).

    benches/movetime_tactics.py [--movetime 50] [--positions benches/data/tactics-80.epd]
        [--config NAME=BINARY[,Option Name=value...]]...

Default configurations: the release build with its default options, and the same with
`Move Overhead` 0. Prints one line per configuration: solved, median / 95th percentile /
maximum reply time in ms, how often the reply came later than movetime + 10 ms, and on how
many positions the solved/unsolved verdict differs from the first configuration's.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, "target", "release", "extinction")


def wins(score):
    """Whether a reported score is a forced win for the side to move."""
    return bool(score and score[0] == "mate" and score[1] > 0)


class Engine:
    """One UCI engine process, kept for many searches."""

    def __init__(self, binary, options):
        args = [binary, "uci"] if binary.endswith("extinction") else [binary]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"engine closed before {prefix!r}")

    def go(self, fen, go):
        """Search `fen` afresh with `go GO`: (the engine's lines up to `bestmove`, reply time in
        ms, from `go` to `bestmove` as a GUI sees it)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait_for("readyok")
        start = time.perf_counter()
        self.send(f"go {go}")
        lines = self.wait_for("bestmove")
        return lines, (time.perf_counter() - start) * 1000

    def search(self, fen, go):
        """Search `fen` with `go GO` (e.g. "movetime 50"): (last score, reply time in ms)."""
        lines, elapsed_ms = self.go(fen, go)
        score = None
        for line in lines:
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                score = (m.group(1), int(m.group(2)))
        return score, elapsed_ms

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def parse_config(text):
    name, _, rest = text.partition("=")
    parts = rest.split(",")
    options = [tuple(p.split("=", 1)) for p in parts[1:]]
    return name, parts[0], options


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--positions", default=os.path.join(ROOT, "benches", "data", "tactics-80.epd"))
    ap.add_argument("--config", action="append", type=parse_config)
    args = ap.parse_args()
    configs = args.config or [("default", RELEASE, []),
                              ("overhead0", RELEASE, [("Move Overhead", "0")])]
    fens = [line.split(" bm ")[0].strip() for line in open(args.positions) if line.strip()]

    print(f"{len(fens)} positions, go movetime {args.movetime}")
    print(f"{'config':14} {'solved':>7} {'median':>7} {'p95':>7} {'max':>7} {'late>+10ms':>10} "
          f"{'differs from ' + configs[0][0]:>20}")
    first = None
    for name, binary, options in configs:
        engine = Engine(binary, options)
        solved, times = [], []
        for fen in fens:
            score, ms = engine.search(fen, f"movetime {args.movetime}")
            times.append(ms)
            solved.append(wins(score))
        engine.close()
        first = first or solved
        differs = sum(a != b for a, b in zip(first, solved))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        late = sum(t > args.movetime + 10 for t in times)
        print(f"{name:14} {sum(solved):>4}/{len(fens):<2} {statistics.median(times):7.1f} "
              f"{p95:7.1f} {times[-1]:7.1f} {late:>10} {differs:>20}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
