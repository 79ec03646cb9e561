#!/usr/bin/env python3
"""Lazy SMP's time to depth (issue #36): how much sooner `Threads` 2 (or more) reaches a fixed
depth than `Threads` 1, on the same positions, measured in one run on an idle machine.

Each thread count is one engine process (UCI, Hash 32 unless told) given `ucinewgame`,
`position fen ...` and `go depth D` for every position, each searched `--repeats` times (the
threads make the search nondeterministic); the time from `go` to `bestmove` is measured on the
client's side. Prints per thread count the median time, the total nodes per second, and the
median and geometric mean over positions of the speed-up against the first count.

    benches/smp_time_to_depth.py [--engine target/release/extinction] [--depth 14]
        [--positions benches/data/tactics-80.epd] [--count 20] [--threads 1,2] [--repeats 3]
        [--hash 32]

The default positions are the tactics file's; `../shared/data/openings-6ply.epd` (balanced
openings, as matches play) is a quieter choice.
"""
import argparse
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from movetime_tactics import ROOT, RELEASE, Engine  # noqa: E402


def time_to_depth(engine, fen, depth):
    """Seconds from `go depth DEPTH` to `bestmove` on `fen`, and the nodes last reported."""
    lines, elapsed_ms = engine.go(fen, f"depth {depth}")
    nodes = 0
    for line in lines:
        m = re.search(r" nodes (\d+)", line)
        if m:
            nodes = int(m.group(1))
    return elapsed_ms / 1000, nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=RELEASE)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--positions", default=os.path.join(ROOT, "benches", "data", "tactics-80.epd"))
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--hash", type=int, default=32)
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    fens = [line.split(" bm ")[0].split(";")[0].strip()
            for line in open(args.positions) if line.strip()][:args.count]

    print(f"{len(fens)} positions, go depth {args.depth}, {args.repeats} repeats, "
          f"Hash {args.hash}, load {os.getloadavg()[0]:.2f}")
    # times[threads][position] = median seconds of the repeats
    times, rates = {}, {}
    for threads in counts:
        engine = Engine(args.engine, [("Threads", str(threads)), ("Hash", str(args.hash))])
        per_position, total_time, total_nodes = [], 0.0, 0
        for fen in fens:
            runs = []
            for _ in range(args.repeats):
                seconds, nodes = time_to_depth(engine, fen, args.depth)
                runs.append(seconds)
                total_time += seconds
                total_nodes += nodes
            per_position.append(statistics.median(runs))
        engine.close()
        times[threads] = per_position
        rates[threads] = total_nodes / total_time if total_time > 0 else 0.0

    base = counts[0]
    print(f"{'threads':>7} {'median s':>9} {'nps':>10} {'speed-up median':>16} {'geo mean':>9}")
    for threads in counts:
        ratios = [a / b for a, b in zip(times[base], times[threads]) if b > 0]
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else 0.0
        print(f"{threads:>7} {statistics.median(times[threads]):9.3f} {rates[threads]:10.0f} "
              f"{statistics.median(ratios):16.2f} {geo:9.2f}")
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
