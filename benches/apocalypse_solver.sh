#!/usr/bin/env bash
# Apocalypse solver benchmark: plain backward induction vs the pruned solver on one core.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin apocalypse
RAYON_NUM_THREADS=1 nice target/release/apocalypse bench --file benches/apocalypse-positions.txt "$@"
