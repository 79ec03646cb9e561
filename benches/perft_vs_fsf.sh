#!/usr/bin/env bash
# Perft speed of `extinction perft` (1 and 2 threads) against Fairy-Stockfish 11.1's
# `go perft`, measured in the same run with hyperfine; prints medians and ratios.
#
# Usage: benches/perft_vs_fsf.sh [DEPTH=6] [RUNS=5]     (env FSF=path overrides the reference)
set -euo pipefail
cd "$(dirname "$0")/.."

DEPTH=${1:-6}
RUNS=${2:-5}
FSF=${FSF:-/usr/games/fairy-stockfish}
ENGINE=target/release/extinction

command -v hyperfine >/dev/null || { echo "hyperfine is required (apt-get install hyperfine)" >&2; exit 2; }
[ -x "$FSF" ] || { echo "Fairy-Stockfish not found at $FSF" >&2; exit 2; }
cargo build --release --quiet

fsf_cmd="printf 'uci\nsetoption name UCI_Variant value extinction\nposition startpos\ngo perft $DEPTH\nquit\n' | $FSF"

# Both must agree on the node count before timing means anything.
ours=$($ENGINE perft --depth "$DEPTH" | sed -n 's/^Nodes searched: //p')
theirs=$(sh -c "$fsf_cmd" | sed -n 's/^Nodes searched: //p')
echo "perft($DEPTH) from the start: extinction $ours, Fairy-Stockfish $theirs"
[ "$ours" = "$theirs" ] || { echo "node counts differ" >&2; exit 1; }

json=$(mktemp)
trap 'rm -f "$json"' EXIT
nice hyperfine --warmup 1 --runs "$RUNS" --export-json "$json" \
    -n "fairy-stockfish" "$fsf_cmd" \
    -n "extinction-1t" "$ENGINE perft --depth $DEPTH --threads 1" \
    -n "extinction-2t" "$ENGINE perft --depth $DEPTH --threads 2" >/dev/null

python3 - "$json" <<'PY'
import json, statistics, sys
res = {r["command"]: statistics.median(r["times"]) for r in json.load(open(sys.argv[1]))["results"]}
fsf, one, two = res["fairy-stockfish"], res["extinction-1t"], res["extinction-2t"]
print(f"median fairy-stockfish   {fsf:8.3f} s")
print(f"median extinction 1 thr  {one:8.3f} s   {fsf / one:5.1f}x faster than Fairy-Stockfish")
print(f"median extinction 2 thr  {two:8.3f} s   {one / two:5.2f}x faster than 1 thread")
PY
