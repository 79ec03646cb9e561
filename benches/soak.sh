#!/usr/bin/env bash
# Soak test: the release engine against Fairy-Stockfish master under cutechess-cli, in both
# protocols, at two fast time controls (issue #11):
#
#   long   1000 games at 1+0.01
#   short   200 games at 0.5+0.005, cutechess-cli allowing 50 ms past the clock (timemargin)
#
# Every line to and from the engines is watched (cutechess-cli -debug all) and counted by
# benches/soak_count.awk: forfeits of either engine (time losses, illegal moves, disconnects,
# stalled connections, anything else not decided on the board) and our unsearched moves (a move
# with no `info ... depth` / XBoard thinking line since the command that started its search).
# A table of the counts closes the run; the exit status is 1 if our engine had any of them.
#
#   benches/soak.sh [--games 1000] [--short-games 200] [--protocols "uci xboard"]
#                   [--concurrency 1] [--out DIR]
#
# Per run DIR (default target/soak/DATE) keeps SETTING-PROTO.pgn, .debug.gz (the whole
# transcript) and .counts. The games are played by scripts/match.sh, so cutechess-cli and
# Fairy-Stockfish master come from PATH (cutechess-cli, fairy-stockfish-master) or from the
# CUTECHESS and FSF_MASTER variables; neither ships with this project. The full soak takes about
# an hour at concurrency 1 (30 minutes at 2); run it on an otherwise idle machine, or the clock
# losses measure the load rather than the engine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
games=1000 short_games=200 protocols="uci xboard" concurrency=1
out="$root/target/soak/$(date +%Y%m%d-%H%M%S)"
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games="$2"; shift 2 ;;
    --short-games) short_games="$2"; shift 2 ;;
    --protocols) protocols="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
    *) echo "soak.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"

# name, time control, time margin (ms, empty for none), games
settings=("long 1+0.01 - $games" "short 0.5+0.005 50 $short_games")
runs=()
for setting in "${settings[@]}"; do
  read -r name tc margin count <<<"$setting"
  [ "$count" -gt 0 ] || continue
  for proto in $protocols; do
    run="$name-$proto"
    margin_args=() margin_note=""
    [ "$margin" != - ] && margin_args=(--margin "$margin") margin_note=", margin $margin ms"
    echo "== $run: $count games at $tc$margin_note ($(date +%H:%M:%S))" >&2
    # The transcript is kept compressed; the counter reads it as it streams.
    "$root/scripts/match.sh" --opponent fsf-master --proto "$proto" --tc "$tc" \
        --games "$count" --concurrency "$concurrency" --pgn "$out/$run.pgn" --debug \
        "${margin_args[@]}" \
      | tee >(gzip -1 >"$out/$run.debug.gz") \
      | awk -v engine=Extinction -v opponent=Fairy-Stockfish-master \
            -f "$root/benches/soak_count.awk" >"$out/$run.counts"
    runs+=("$run $tc")
  done
done

value() { grep -o "\b$2=[0-9]*" "$1" | head -1 | cut -d= -f2; }
echo
echo "Soak results ($out)"
printf '%-13s %-10s %5s %-11s | %8s %4s %7s %10s %5s %5s | %-12s | %s\n' \
  run tc games W-L-D forfeits time illegal disconnect stall other unsearched "FSF forfeits"
failed=0
for entry in "${runs[@]}"; do
  read -r run tc <<<"$entry"
  c="$out/$run.counts"
  ours=$(( $(value "$c" ours_forfeits) + $(value "$c" either_forfeits) ))
  unsearched=$(value "$c" unsearched)
  printf '%-13s %-10s %5s %-11s | %8s %4s %7s %10s %5s %5s | %-12s | %s\n' \
    "$run" "$tc" "$(value "$c" games)" \
    "$(value "$c" wins)-$(value "$c" losses)-$(value "$c" draws)" \
    "$ours" "$(value "$c" ours_time)" "$(value "$c" ours_illegal)" \
    "$(value "$c" ours_disconnect)" "$(value "$c" ours_stall)" "$(value "$c" ours_other)" \
    "$unsearched/$(value "$c" moves)" "$(value "$c" theirs_forfeits)"
  [ "$ours" -eq 0 ] && [ "$unsearched" -eq 0 ] || failed=1
done
echo "(forfeits .. other: our engine's; a forfeit the transcript cannot pin on one side counts as ours)"
for entry in "${runs[@]}"; do
  read -r run _ <<<"$entry"
  if grep -q '^unsearched: ' "$out/$run.counts"; then
    echo "$run, first unsearched moves:"
    grep '^unsearched: ' "$out/$run.counts" | head -5 | sed 's/^/  /'
  fi
done
exit "$failed"
