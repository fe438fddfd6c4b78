#!/usr/bin/env bash
# Builds the binary if needed and runs the benchmarks; results land in bench/results.json.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x dist/outerloop ]] || bash scripts/build.sh
deno run -A scripts/bench.ts "$@"
