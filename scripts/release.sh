#!/usr/bin/env bash
# Release archives: builds both binaries (`extinction`, `apocalypse`) for Linux (the host,
# x86_64-unknown-linux-gnu) and for Windows (x86_64-pc-windows-gnu, cross-compiled with
# mingw-w64), and packs each with README.md, engines.json and LICENSE into
# target/release-archives/: a .tar.gz for Linux, a .zip for Windows, plus SHA256SUMS over both.
#
#   scripts/release.sh [--linux-only]
#
# Needs: cargo, tar, zip (`apt-get install zip`), sha256sum; for Windows the Rust target
# (`rustup target add x86_64-pc-windows-gnu`) and mingw-w64 (`apt-get install
# gcc-mingw-w64-x86-64`). Fails with a message naming what is missing, LICENSE included:
# an archive without its licence is not released.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
linux_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --linux-only) linux_only=1; shift ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#'; exit 0 ;;
    *) echo "release.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
fail() { echo "release.sh: $*" >&2; exit 1; }

for file in README.md engines.json LICENSE Cargo.toml; do
  [ -f "$root/$file" ] || fail "$root/$file is missing"
done
for tool in cargo tar zip sha256sum; do
  command -v "$tool" >/dev/null || fail "$tool not found (see --help)"
done
windows_target=x86_64-pc-windows-gnu
if [ "$linux_only" -eq 0 ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null \
    || fail "x86_64-w64-mingw32-gcc not found: apt-get install gcc-mingw-w64-x86-64 (or --linux-only)"
  rustup target list --installed 2>/dev/null | grep -qx "$windows_target" \
    || fail "Rust target missing: rustup target add $windows_target (or --linux-only)"
fi

version="$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)"
[ -n "$version" ] || fail "no version in Cargo.toml"
out="$root/target/release-archives"
rm -rf "$out"
mkdir -p "$out"

# stage NAME BINARY_DIR EXT: copies the binaries and documents into $out/NAME/.
stage() {
  local name="$1" bin_dir="$2" ext="$3"
  mkdir -p "$out/$name"
  for bin in extinction apocalypse; do
    cp "$bin_dir/$bin$ext" "$out/$name/"
  done
  cp "$root/README.md" "$root/engines.json" "$root/LICENSE" "$out/$name/"
}

cargo build --release --quiet --bin extinction --bin apocalypse --manifest-path "$root/Cargo.toml"
linux_name="extinction-$version-x86_64-linux"
stage "$linux_name" "$root/target/release" ""
# engines.json names target/release/extinction (for the repository); in the archive the binary
# sits next to it.
sed -i 's#"target/release/extinction"#"./extinction"#' "$out/$linux_name/engines.json"
tar -C "$out" -czf "$out/$linux_name.tar.gz" "$linux_name"
archives=("$linux_name.tar.gz")

if [ "$linux_only" -eq 0 ]; then
  cargo build --release --quiet --target "$windows_target" --bin extinction --bin apocalypse \
    --manifest-path "$root/Cargo.toml"
  windows_name="extinction-$version-x86_64-windows"
  stage "$windows_name" "$root/target/$windows_target/release" ".exe"
  sed -i 's#"target/release/extinction"#"extinction.exe"#' "$out/$windows_name/engines.json"
  (cd "$out" && zip -qr "$windows_name.zip" "$windows_name")
  archives+=("$windows_name.zip")
fi

(cd "$out" && sha256sum "${archives[@]}" >SHA256SUMS)
for name in "$linux_name" ${windows_name:+"$windows_name"}; do rm -rf "${out:?}/$name"; done
echo "release.sh: wrote to $out:"
(cd "$out" && ls -l "${archives[@]}" SHA256SUMS | awk '{print "  " $NF " (" $5 " bytes)"}')
