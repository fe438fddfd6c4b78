#!/usr/bin/env bash
# The main job on the built-in example, local backend, no cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d node_modules/zod ]] || npm ci --no-audit --no-fund >&2
exec deno run -A scripts/demo.ts "$@"
