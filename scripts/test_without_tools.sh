#!/usr/bin/env bash
# Run the test suite as a machine without the optional outside programs would: Fairy-Stockfish,
# XBoard, Xvfb, python-chess, Chromium and chromedriver are hidden in a private mount namespace
# (nothing outside it changes), then `cargo test --release` runs with any arguments given. The
# tests that need those programs must print a "skipped ..." line and pass, or fail when CI is set:
#
#   scripts/test_without_tools.sh                                # the whole suite, skips listed
#   CI=true scripts/test_without_tools.sh --test extinction_uci   # must fail
#
# Needs unshare(1) with mount namespaces (root, or unprivileged user namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."
python_chess="$(python3 -c 'import chess, os; print(os.path.dirname(chess.__file__))' 2>/dev/null || true)"
export python_chess
exec unshare --mount --map-root-user --propagation private bash -c '
  set -euo pipefail
  mount -t tmpfs hidden /usr/games                       # fairy-stockfish, xboard
  # A program found elsewhere on PATH is covered by an empty, non-executable file.
  stand_in="$(mktemp)"; chmod 644 "$stand_in"
  for tool in xvfb-run xboard fairy-stockfish chromium chromedriver; do
    if path="$(command -v "$tool")"; then mount --bind "$stand_in" "$path"; fi
  done
  if [ -n "$python_chess" ]; then mount -t tmpfs hidden "$python_chess"; fi
  echo "hidden: /usr/games, xvfb-run, chromium, chromedriver, python-chess${python_chess:+ ($python_chess)}" >&2
  exec cargo test --release "$@"
' bash "$@"
