#!/usr/bin/env bash
# Play a cutechess-cli match of our engine against Fairy-Stockfish (master, the yardstick, or
# the Debian 11.1 package) or against an older build of ours, from
# ../shared/data/openings-6ply.epd with each opening played by both colours, and print the score
# and Elo with its error bars (cutechess-cli's own estimate), optionally under an SPRT.
#
#   scripts/match.sh [--opponent fsf-master|fsf|PATH] [--engine PATH] [--proto uci|xboard] [--tc 5+0.05]
#                    [--games 200] [--concurrency 1] [--threads 1] [--hash 32]
#                    [--opp-threads 1] [--sprt "elo0=0 elo1=10 alpha=0.05 beta=0.05"]
#                    [--pgn FILE] [--openings FILE] [--nodes N] [--margin MS] [--debug]
#                    [--opp-option "NAME=VALUE"]... [--start N]
#
# --margin MS lets engines overstep their clock by MS milliseconds before cutechess-cli calls a
# time loss (its timemargin); --debug adds every line to and from the engines to the output
# (cutechess-cli -debug all), which benches/soak.sh reads. --opp-option sets a UCI/XBoard
# option of the opponent only (repeatable), e.g. "Move Overhead=300" for Fairy-Stockfish, which
# otherwise loses on time when the machine is loaded.
# --start N begins at the Nth opening of the file (1-based), so a long match can be played in
# parts (e.g. openings 1-60 one day, --start 61 the next) and the parts' scores added.
# --nodes N plays tc=inf with N nodes per move: a screen that the machine's load cannot skew
# (it ignores speed, so a change is accepted only by a time-control SPRT).
#
# cutechess-cli and Fairy-Stockfish master are not shipped with this project: build them from
# their public sources, then put them on PATH (as cutechess-cli and fairy-stockfish-master) or
# point CUTECHESS and FSF_MASTER at them. `fsf` is the Debian package's /usr/games/fairy-stockfish.
# PATH as opponent is another build of this engine (e.g. `git worktree add /tmp/base REV &&
# cargo build --release --manifest-path /tmp/base/Cargo.toml`), for testing a change.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cutechess="${CUTECHESS:-cutechess-cli}"
engine="$root/target/release/extinction"
opponent=fsf-master proto=uci tc=5+0.05 games=200 concurrency=1 threads=1 hash=32 opp_threads=1
start=1 sprt="" pgn="" nodes="" margin="" debug="" opp_options=() openings="$root/../shared/data/openings-6ply.epd"
while [ $# -gt 0 ]; do
  case "$1" in
    --opponent) opponent="$2"; shift 2 ;;
    --engine) engine="$2"; shift 2 ;;
    --proto) proto="$2"; shift 2 ;;
    --tc) tc="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --opp-threads) opp_threads="$2"; shift 2 ;;
    --hash) hash="$2"; shift 2 ;;
    --sprt) sprt="$2"; shift 2 ;;
    --pgn) pgn="$2"; shift 2 ;;
    --openings) openings="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --margin) margin="$2"; shift 2 ;;
    --debug) debug=1; shift ;;
    --opp-option) opp_options+=("option.$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
    *) echo "match.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
command -v "$cutechess" >/dev/null || { echo "match.sh: cutechess-cli not found (set CUTECHESS)" >&2; exit 2; }
[ -x "$engine" ] || { echo "match.sh: $engine missing: run cargo build --release" >&2; exit 2; }
[ -f "$openings" ] || { echo "match.sh: openings file $openings not found" >&2; exit 2; }

ours=(-engine name=Extinction cmd="$engine" arg="$proto" proto="$proto" option.Hash="$hash" option.Threads="$threads")
if [ "$opponent" = fsf-master ]; then
  master="${FSF_MASTER:-$(command -v fairy-stockfish-master || true)}"
  [ -x "$master" ] || { echo "match.sh: Fairy-Stockfish master not found (set FSF_MASTER)" >&2; exit 2; }
  theirs=(-engine name=Fairy-Stockfish-master cmd="$master" proto=uci
          option.Hash="$hash" option.Threads="$opp_threads")
elif [ "$opponent" = fsf ]; then
  theirs=(-engine name=Fairy-Stockfish-11.1 cmd=/usr/games/fairy-stockfish proto=uci
          option.Hash="$hash" option.Threads="$opp_threads")
else
  theirs=(-engine name=Baseline cmd="$opponent" arg="$proto" proto="$proto"
          option.Hash="$hash" option.Threads="$opp_threads")
fi
theirs+=("${opp_options[@]}")
extra=()
[ -n "$sprt" ] && extra+=(-sprt $sprt)
[ -n "$pgn" ] && extra+=(-pgnout "$pgn")
[ -n "$debug" ] && extra+=(-debug all)
rounds=$(( (games + 1) / 2 ))
each=(tc="$tc")
[ -n "$nodes" ] && each=(tc=inf nodes="$nodes")
[ -n "$margin" ] && each+=(timemargin="$margin")
exec "$cutechess" "${ours[@]}" "${theirs[@]}" -variant extinction -each "${each[@]}" \
  -openings file="$openings" format=epd order=sequential start="$start" -repeat -games 2 -rounds "$rounds" \
  -concurrency "$concurrency" -recover -ratinginterval 20 "${extra[@]}"
