#!/usr/bin/env bash
# The Windows build, checked from Linux: cross-compile `extinction.exe` for x86_64-pc-windows-gnu
# and play it under Wine through cutechess-cli against Fairy-Stockfish, GAMES games in each
# protocol (UCI and XBoard); fails if a single game is forfeited (time, illegal move,
# disconnect, stall, or anything else not decided on the board), by either engine, or if a game
# is missing.
#
#   scripts/wine_match.sh [--games 20] [--tc 10+0.1] [--opponent fsf-master|fsf] [--opp-overhead 300]
#
# The time control is generous on purpose: this checks that the Windows build plays correct,
# complete games (Wine adds start-up and pipe latency, and the machine may be loaded), it does
# not measure strength. Fairy-Stockfish keeps only 10 ms of move overhead and loses games on
# time on a loaded machine; --opp-overhead sets its `Move Overhead` (ms) so that its forfeits,
# which say nothing about our build, do not hide ours.
#
# Needs (Debian/Ubuntu names): the Rust target (`rustup target add x86_64-pc-windows-gnu`),
# mingw-w64 (`apt-get install gcc-mingw-w64-x86-64`), Wine (`apt-get install wine wine64`),
# cutechess-cli and Fairy-Stockfish as for scripts/match.sh.
#
# Debian's Wine 8.0 lacks bcryptprimitives.dll, whose ProcessPrng the Rust standard library
# imports, so the .exe would not start; the script builds a stand-in from
# scripts/wine/bcryptprimitives.c and puts it next to the .exe in its own test directory
# (target/wine-match), with its own Wine prefix. Real Windows has the DLL: nothing of this ships.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
games=20 tc=10+0.1 opponent=fsf-master opp_overhead=300
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games="$2"; shift 2 ;;
    --tc) tc="$2"; shift 2 ;;
    --opponent) opponent="$2"; shift 2 ;;
    --opp-overhead) opp_overhead="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
    *) echo "wine_match.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
target=x86_64-pc-windows-gnu
for tool in x86_64-w64-mingw32-gcc wine; do
  command -v "$tool" >/dev/null || { echo "wine_match.sh: $tool not found (see --help)" >&2; exit 2; }
done
rustup target list --installed 2>/dev/null | grep -qx "$target" \
  || { echo "wine_match.sh: run rustup target add $target" >&2; exit 2; }

cargo build --release --quiet --target "$target" --bin extinction --manifest-path "$root/Cargo.toml"
dir="$root/target/wine-match"
mkdir -p "$dir"
cp "$root/target/$target/release/extinction.exe" "$dir/"
x86_64-w64-mingw32-gcc -shared -O2 -o "$dir/bcryptprimitives.dll" \
  "$root/scripts/wine/bcryptprimitives.c" -ladvapi32

# cutechess-cli starts the engine through this wrapper: Wine quiet, its own prefix, no Mono or
# Gecko installer dialogs.
cat >"$dir/extinction-wine" <<EOF
#!/bin/sh
export WINEPREFIX="$dir/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
exec wine "$dir/extinction.exe" "\$@"
EOF
chmod +x "$dir/extinction-wine"
export WINEPREFIX="$dir/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wineboot --init >/dev/null 2>&1 || true
trap 'wineserver -k 2>/dev/null || true' EXIT   # leave no Wine server running

# Does the .exe run at all? (A missing DLL shows here, not as a forfeit.)
answer="$(printf 'uci\nisready\nquit\n' | timeout 60 "$dir/extinction-wine" uci 2>&1 || true)"
grep -q readyok <<<"$answer" || { echo "wine_match.sh: the .exe does not answer under Wine:" >&2; echo "$answer" >&2; exit 1; }
echo "$(grep '^id name' <<<"$answer") answers under $(wine --version)"

case "$opponent" in
  fsf-master) opponent_name=Fairy-Stockfish-master ;;
  fsf) opponent_name=Fairy-Stockfish-11.1 ;;
  *) opponent_name=Baseline ;;
esac
failed=0
for proto in uci xboard; do
  log="$dir/match-$proto.log"
  "$root/scripts/match.sh" --engine "$dir/extinction-wine" --opponent "$opponent" --proto "$proto" \
      --tc "$tc" --games "$games" --pgn "$dir/match-$proto.pgn" \
      --opp-option "Move Overhead=$opp_overhead" >"$log"
  counts="$(awk -v engine=Extinction -v opponent="$opponent_name" \
      -f "$root/benches/soak_count.awk" "$log")"
  value() { grep -o "\b$1=[0-9]*" <<<"$counts" | head -1 | cut -d= -f2; }
  forfeits=$(( $(value ours_forfeits) + $(value either_forfeits) ))
  echo "$proto: $(value games) games, W-L-D $(value wins)-$(value losses)-$(value draws)," \
       "forfeits by the Windows engine: $forfeits (time $(value ours_time), illegal $(value ours_illegal)," \
       "disconnect $(value ours_disconnect), stall $(value ours_stall), other $(value ours_other))," \
       "opponent forfeits: $(value theirs_forfeits)"
  [ "$forfeits" -eq 0 ] && [ "$(value theirs_forfeits)" -eq 0 ] && [ "$(value games)" -eq "$games" ] \
    || failed=1
done
exit "$failed"
