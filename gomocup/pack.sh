#!/usr/bin/env bash
# Builds the Gomocup submission from this checkout: the brain alone (no board, no manager side) for
# Windows on Gomocup's baseline CPUs (SSE4.2, POPCNT, AVX2), packed with gomocup/README.txt as
# pbrain-quincunx.zip at the repository's top. One build only: an AVX-512 one searched no faster
# (bench 11, best of 12 interleaved runs: 481 ms against 485). Needs rustup's
# x86_64-pc-windows-gnu target (added here when missing) and mingw-w64 (Debian: apt install mingw-w64).
# Usage: gomocup/pack.sh [OUT.zip]
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
out=$(realpath -m "${1:-pbrain-quincunx.zip}")
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
stage=target/gomocup-zip
rm -rf "$stage" && mkdir -p "$stage"
# Its own target folder: other RUSTFLAGS would rebuild the ordinary one.
RUSTFLAGS="-C target-feature=+sse4.2,+popcnt,+avx2" cargo build --quiet --profile gomocup \
    --target "$target" --no-default-features --target-dir target/gomocup
cp "target/gomocup/$target/gomocup/pbrain-quincunx.exe" "$stage/"
cp gomocup/README.txt "$stage/"
rm -f "$out"
if command -v zip >/dev/null; then
    (cd "$stage" && zip -q -X "$out" pbrain-quincunx.exe README.txt)
else
    (cd "$stage" && python3 -m zipfile -c "$out" pbrain-quincunx.exe README.txt)
fi
ls -l "$stage/pbrain-quincunx.exe" "$out"
