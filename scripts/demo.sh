#!/usr/bin/env bash
# The main job on the built-in example, local backend, no cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
exec "${DENO[@]}" run -A scripts/demo.ts "$@"
