#!/usr/bin/env bash
# The whole suite under Deno, then under Bun. Prints one summary line per
# runtime and a closing `N passed, N failed` over both. Exits non-zero when
# either runtime fails, or when the suite leaves files in the temp dir.
# Extra arguments narrow the files (e.g. tests/compute/). OUTERLOOP_TEST_RUNTIMES
# (default "deno bun") narrows the runtimes (CI's root part, when time is short).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
reports=$(mktemp -d)
# the suite's own temp dir: whatever a test leaves behind is found, reported and removed.
# Under /var/tmp, not /tmp, unless TMPDIR says otherwise: the Slurm testbed's nodes
# each have their own /tmp (scripts/slurm-testbed), and the run dirs and repos a
# live test makes here must be seen by its jobs on every node, as a cluster's
# shared file system is (TMPDIR also reaches the jobs, which make their
# checkouts under it).
suite_tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/outerloop-suite.XXXXXX")
trap 'rm -rf "$reports" "$suite_tmp"' EXIT
# what tests keep for people to look at (screenshots), outside the suite's temp dir
export OUTERLOOP_ARTIFACTS=${OUTERLOOP_ARTIFACTS:-${TMPDIR:-/tmp}/outerloop-artifacts}
paths=("${@:-tests/}")

runtimes=${OUTERLOOP_TEST_RUNTIMES:-deno bun}
deno_rc=0 bun_rc=0
if [[ " $runtimes " == *" deno "* ]]; then
  echo "== deno test (${DENO[*]})" >&2
  TMPDIR=$suite_tmp "${DENO[@]}" test -A --junit-path="$reports/deno.xml" "${paths[@]}"
  deno_rc=$?
fi
if [[ " $runtimes " == *" bun "* ]]; then
  echo "== bun test (${BUN[*]})" >&2
  TMPDIR=$suite_tmp "${BUN[@]}" test --timeout 600000 --reporter=junit --reporter-outfile="$reports/bun.xml" "${paths[@]}"
  bun_rc=$?
fi

total_pass=0 total_fail=0 total_skip=0
for rt in $runtimes; do
  if [[ -s "$reports/$rt.xml" ]]; then
    line=$("${DENO[@]}" run -A scripts/count_junit.ts "$reports/$rt.xml")
  else
    line="0 passed, 1 failed, 0 skipped" # the runner died before reporting
  fi
  echo "$rt: $(head -1 <<<"$line")"
  sed -n 's/^failed: /'"$rt"' failed: /p' <<<"$line"
  read -r p _ f _ s _ <<<"$(head -1 <<<"$line")"
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
done
# a runner that failed without a failing test (a crash, a type error) still fails the run
if [[ $deno_rc -ne 0 && $total_fail -eq 0 ]] || [[ $bun_rc -ne 0 && $total_fail -eq 0 ]]; then
  total_fail=$((total_fail + 1))
fi
leftovers=$(find "$suite_tmp" -mindepth 1 -maxdepth 1 | head -20)
if [[ -n "$leftovers" ]]; then
  echo "the suite left files in its temp dir (every test must remove what it makes):" >&2
  echo "$leftovers" >&2
  # when each file was last written, and by whom: a job still writing after its test ended shows here
  echo "the files in them, oldest write first (the suite's runners ended at $(date +%T)):" >&2
  find "$suite_tmp" -mindepth 1 -printf '%TT %u %p\n' | sort | head -40 >&2
  total_fail=$((total_fail + 1))
fi
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[[ $deno_rc -eq 0 && $bun_rc -eq 0 && $total_fail -eq 0 ]]
