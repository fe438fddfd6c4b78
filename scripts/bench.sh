#!/usr/bin/env bash
# Builds the binary if needed and runs the benchmarks; results land in bench/results.json.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
[[ -x dist/outerloop ]] || bash scripts/build.sh --native-only
"${DENO[@]}" run -A scripts/bench.ts "$@"
