#!/usr/bin/env bash
# The whole suite under Deno, then under Bun. Prints one summary line per
# runtime and a closing `N passed, N failed` over both. Exits non-zero when
# either runtime fails. Extra arguments narrow the files (e.g. tests/compute_).
set -uo pipefail
cd "$(dirname "$0")/.."
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
paths=("${@:-tests/}")

echo "== deno test" >&2
deno test -A --junit-path="$reports/deno.xml" "${paths[@]}"
deno_rc=$?
echo "== bun test" >&2
bun test --timeout 600000 --reporter=junit --reporter-outfile="$reports/bun.xml" "${paths[@]}"
bun_rc=$?

total_pass=0 total_fail=0 total_skip=0
for rt in deno bun; do
  if [[ -s "$reports/$rt.xml" ]]; then
    line=$(deno run -A scripts/count_junit.ts "$reports/$rt.xml")
  else
    line="0 passed, 1 failed, 0 skipped" # the runner died before reporting
  fi
  echo "$rt: $line"
  read -r p _ f _ s _ <<<"$line"
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
done
# a runner that failed without a failing test (a crash, a type error) still fails the run
if [[ $deno_rc -ne 0 && $total_fail -eq 0 ]] || [[ $bun_rc -ne 0 && $total_fail -eq 0 ]]; then
  total_fail=$((total_fail + 1))
fi
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[[ $deno_rc -eq 0 && $bun_rc -eq 0 && $total_fail -eq 0 ]]
