#!/usr/bin/env bash
# Builds the binary and runs the benchmarks; results land in bench/startup.json (start-up against an
# empty compiled binary, scripts/bench_startup.ts) and bench/results.json.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
"${DENO[@]}" run -A scripts/bench_startup.ts "$@"
"${DENO[@]}" run -A scripts/bench.ts "$@"
