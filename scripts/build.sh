#!/usr/bin/env bash
# Builds the single executables into dist/: the native one (dist/outerloop),
# linux-arm64, and an x64 "baseline" build for CPUs without AVX2.
# The two --no-compile-autoload-* flags stop the binary from reading .env and
# bunfig.toml from whatever directory it runs in. --splitting (which needs
# --format=esm) keeps each lazily imported module (a command, a backend) in a
# chunk of its own inside the binary, loaded on first import: one bundle of
# everything costs every start-up about 30% over an empty binary, even for
# modules that never run. --compile-jit-policy=100 makes JavaScriptCore a
# hundred times more reluctant to JIT-compile (Bun.unsafe.setJITPolicy): a
# pass is run-once code, and over a thousand measures every function it
# calls per measure crosses the normal tier-up thresholds after ~70 calls,
# so the JIT threads compiled what ran once and cost a resume pass about a
# third of its CPU (bench/pass.json); a loop that does run long still
# tiers up, a hundred times later. `deno compile` is not used:
# it downloads a runtime, which fails offline.
# Usage: scripts/build.sh [--native-only]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
mkdir -p dist
flags=(--compile --splitting --format=esm --minify --bytecode --no-compile-autoload-dotenv --no-compile-autoload-bunfig
  --compile-jit-policy=100)
build() { # outfile [target]
  local out=$1 target=${2:-}
  # built beside and renamed into place: a test running the binary meanwhile never meets half of one
  "${BUN[@]}" build "${flags[@]}" ${target:+--target="$target"} src/main.ts --outfile "$out.$$.tmp" >&2
  mv -f "$out.$$.tmp" "$out"
  echo "built $out ($(du -m "$out" | cut -f1) MB)" >&2
}
build dist/outerloop
if [[ "${1:-}" != "--native-only" ]]; then
  build dist/outerloop-linux-arm64 bun-linux-arm64
  build dist/outerloop-linux-x64-baseline bun-linux-x64-baseline
fi
