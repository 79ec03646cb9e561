#!/usr/bin/env bash
# Search speed of `extinction` vs Fairy-Stockfish 11.1 (UCI_Variant extinction) on the bench
# positions: each engine searches every position for MOVETIME ms (one thread, Hash 16); the
# script prints each engine's median nodes/second and the ratio. Nodes are counted differently
# by the two engines (and they search different trees), so the ratio is a rough speed measure.
# Usage: benches/extinction_nps_vs_fsf.sh [MOVETIME_MS] [POSITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
MOVETIME=${1:-500}
COUNT=${2:-12}
FSF=${FSF:-/usr/games/fairy-stockfish}
cargo build --release --quiet
ENGINE=target/release/extinction
mapfile -t FENS < <(grep -oE '^    "[^"]+",$' src/extinction/tools/bench.rs | sed -E 's/^    "(.*)",$/\1/' | head -n "$COUNT")

nps_of() { # engine-command setup-lines fen -> last nps reported
    local setup=$2 fen=$3
    { echo uci; printf '%b' "$setup"; echo "setoption name Hash value 16"; echo "isready";
      echo "position fen $fen"; echo "go movetime $MOVETIME"; sleep "$(echo "scale=3; $MOVETIME/1000 + 0.5" | bc)"; echo quit; } |
        $1 2>/dev/null | grep -oE ' nps [0-9]+' | tail -1 | awk '{print $2}'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

ours=(); theirs=()
for fen in "${FENS[@]}"; do
    ours+=("$(nps_of "$ENGINE uci" "" "$fen")")
    theirs+=("$(nps_of "$FSF" "setoption name UCI_Variant value extinction\n" "$fen")")
done
m_ours=$(printf '%s\n' "${ours[@]}" | median)
m_theirs=$(printf '%s\n' "${theirs[@]}" | median)
echo "positions: ${#FENS[@]}, movetime ${MOVETIME} ms"
echo "extinction      median nps: $m_ours"
echo "fairy-stockfish median nps: $m_theirs"
echo "ratio (extinction / fairy-stockfish): $(echo "scale=2; $m_ours / $m_theirs" | bc)"
