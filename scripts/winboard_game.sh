#!/usr/bin/env bash
# One WinBoard engine-engine game under Wine, from Linux: WinBoard plays `extinction.exe xboard`
# (first engine) against `extinction.exe` as a UCI engine through UCI2WB (second engine), saves
# the PGN, optionally takes screenshots, and checks the PGN's result with the engine's own
# `analyze --pgn` (a replay by the engine's rules). Fails if the game has no result or the two
# results differ.
#
#   scripts/winboard_game.sh --winboard PATH/winboard.exe --uci2wb PATH/UCI2WB.exe \
#       [--engine PATH/extinction.exe] [--second uci|xboard] [--tc 1] [--dir DIR] \
#       [--shot FILE.png --shot-after 30] [--end-shot FILE.png]
#
# WinBoard and UCI2WB are not part of this repository: build or install them first (see
# docs/winboard.md). Without --engine the script cross-compiles extinction.exe as
# scripts/wine_match.sh does. --tc is WinBoard's /timeControl (minutes for 40 moves, its default
# /movesPerSession). --second xboard plays the XBoard line on both sides instead. Everything
# runs in DIR (default target/winboard-game) with its own Wine prefix; the PGN is DIR/game.pgn
# and WinBoard's debug log DIR/debug.txt.
#
# Without DISPLAY the script starts its own Xvfb (screen 1280x1024x24) and stops it at the end.
# Screenshots need ImageMagick's `import`. --shot is taken --shot-after seconds after the start,
# --end-shot when the PGN has been saved (WinBoard then shows its match-result box).
#
# Needs (Debian/Ubuntu names): wine wine64, gcc-mingw-w64-x86-64 (for the bcryptprimitives.dll
# stand-in that Debian's Wine 8.0 lacks, as in scripts/wine_match.sh), xvfb without a display,
# imagemagick for screenshots.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
winboard="" uci2wb="" engine="" second=uci tc=1 dir="$root/target/winboard-game"
shot="" shot_after=30 end_shot=""
while [ $# -gt 0 ]; do
  case "$1" in
    --winboard) winboard="$2"; shift 2 ;;
    --uci2wb) uci2wb="$2"; shift 2 ;;
    --engine) engine="$2"; shift 2 ;;
    --second) second="$2"; shift 2 ;;
    --tc) tc="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --shot) shot="$2"; shift 2 ;;
    --shot-after) shot_after="$2"; shift 2 ;;
    --end-shot) end_shot="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
    *) echo "winboard_game.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -f "$winboard" ] || { echo "winboard_game.sh: give --winboard PATH/winboard.exe" >&2; exit 2; }
[ "$second" = xboard ] || [ -f "$uci2wb" ] \
  || { echo "winboard_game.sh: give --uci2wb PATH/UCI2WB.exe (or --second xboard)" >&2; exit 2; }
for tool in wine x86_64-w64-mingw32-gcc; do
  command -v "$tool" >/dev/null || { echo "winboard_game.sh: $tool not found (see --help)" >&2; exit 2; }
done
if [ -n "$shot$end_shot" ]; then
  command -v import >/dev/null || { echo "winboard_game.sh: import (ImageMagick) not found" >&2; exit 2; }
fi

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
if [ -z "$engine" ]; then
  target=x86_64-pc-windows-gnu
  cargo build --release --quiet --target "$target" --bin extinction --manifest-path "$root/Cargo.toml"
  engine="${CARGO_TARGET_DIR:-$root/target}/$target/release/extinction.exe"
fi
cp "$engine" "$dir/extinction.exe"
[ "$second" = xboard ] || cp "$uci2wb" "$dir/UCI2WB.exe"
x86_64-w64-mingw32-gcc -shared -O2 -o "$dir/bcryptprimitives.dll" \
  "$root/scripts/wine/bcryptprimitives.c" -ladvapi32
rm -f "$dir/game.pgn" "$dir/debug.txt"

export WINEPREFIX="$dir/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
xvfb_pid=""
cleanup() {
  wineserver -k 2>/dev/null || true            # this prefix's processes only
  [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
}
trap cleanup EXIT
if [ -z "${DISPLAY:-}" ]; then
  command -v Xvfb >/dev/null || { echo "winboard_game.sh: no DISPLAY and no Xvfb" >&2; exit 2; }
  display=:$((90 + RANDOM % 9))
  Xvfb "$display" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  export DISPLAY="$display"
  sleep 1
fi
wineboot --init >/dev/null 2>&1 || true
windir="$(winepath -w "$dir")"

# Wine quotes every argument that holds a space, so each option whose value has one is given
# as the bare option followed by its value (/fcp 'extinction.exe xboard', not /fcp="...").
# WinBoard works in its own folder, so the files it writes get full paths.
if [ "$second" = xboard ]; then
  second_args=(/scp 'extinction.exe xboard' /sd "$windir" /sn=Extinction-XBoard-2)
else
  second_args=(/scp "UCI2WB -var extinction extinction.exe $windir" /sd "$windir" /sn=Extinction-UCI2WB)
fi
cd "$dir"
wine "$winboard" /cp /fcp 'extinction.exe xboard' /fd "$windir" /fn=Extinction-XBoard \
  "${second_args[@]}" \
  /variant=extinction /testLegality=false /matchMode=true /matchGames=1 "/timeControl=$tc" \
  /saveGameFile "$windir\\game.pgn" /debugMode=true /nameOfDebugFile "$windir\\debug.txt" \
  /settingsFile "$windir\\winboard-game.ini" /saveSettingsOnExit=false \
  /x=0 /y=0 /boardSize=middling /engineOutputUp=true /engineOutputX=420 /engineOutputY=20 \
  /engineOutputW=600 /engineOutputH=450 /moveHistoryUp=false /evalGraphUp=false \
  >"$dir/winboard.out" 2>&1 &
wb_pid=$!

start=$SECONDS
limit=$((tc * 60 * 3 + 120))   # both clocks, Wine start-up, and room to spare
while ! grep -q '^\[Result' "$dir/game.pgn" 2>/dev/null; do
  if [ -n "$shot" ] && [ $((SECONDS - start)) -ge "$shot_after" ]; then
    import -window root "$shot" && echo "screenshot: $shot"
    shot=""
  fi
  kill -0 "$wb_pid" 2>/dev/null || { echo "winboard_game.sh: WinBoard stopped without a PGN" >&2; exit 1; }
  [ $((SECONDS - start)) -lt "$limit" ] || { echo "winboard_game.sh: no result after ${limit}s" >&2; exit 1; }
  sleep 1
done
sleep 3   # the result box and the engines' last words
[ -z "$end_shot" ] || { import -window root "$end_shot" && echo "screenshot: $end_shot"; }
kill "$wb_pid" 2>/dev/null || true

pgn_result="$(tr -d '\r' <"$dir/game.pgn" | sed -n 's/^\[Result "\(.*\)"\]$/\1/p')"
replay="$(wine "$dir/extinction.exe" analyze --pgn "$(winepath -w "$dir/game.pgn")" --depth 4 2>&1 | tr -d '\r')"
replay_result="$(sed -n 's/^Result: \([^ ]*\).*/\1/p' <<<"$replay" | head -1)"
echo "PGN result: $pgn_result"
echo "engine replay: $(grep -E '^Game 1: [0-9]+ moves' <<<"$replay" | head -1); $(grep '^Result:' <<<"$replay" | head -1)"
[ -n "$pgn_result" ] && [ "$pgn_result" != "*" ] || { echo "winboard_game.sh: no result in the PGN" >&2; exit 1; }
[ "$pgn_result" = "$replay_result" ] || { echo "winboard_game.sh: results differ" >&2; exit 1; }
