#!/usr/bin/env bash
# The suite under Deno, then under Bun (scripts/test_plan.ts says which files
# each runs: Deno all of them, Bun those where a runtime can differ). The unit
# files run OUTERLOOP_TEST_JOBS at a time (default: a core each), the live ones
# OUTERLOOP_LIVE_JOBS (default 4: most of their time is waiting on a
# scheduler), then those marked `// test.sh: alone` one by one.
# Prints one summary line per runtime, the slowest files, and a closing
# `N passed, N failed` over both. Exits non-zero when either runtime fails, or
# when the suite leaves files in the temp dir.
# Extra arguments narrow the files (e.g. tests/compute/). OUTERLOOP_TEST_RUNTIMES
# (default "deno bun") narrows the runtimes; OUTERLOOP_LIVE_RUNTIMES those the
# live suites run under; OUTERLOOP_TEST_BOTH=all runs every file under both.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/toolchain.sh
reports=$(mktemp -d)
# The suite's own temp dir, under TMPDIR as the user has it (unset, /tmp, long,
# another file system): whatever a test leaves behind is found, reported and
# removed. A live suite's dirs must be seen by its jobs on every node, as a
# cluster's shared file system is, and the Slurm testbed's nodes each have their
# own /tmp: when TMPDIR is node-local there, the live tests get a second dir
# under /var/tmp as their TMPDIR, checked the same way.
tmp_root=${TMPDIR:-/tmp}
suite_tmp=$(mktemp -d "$tmp_root/outerloop-suite.XXXXXX")
shared_tmp=""
case "$tmp_root/" in
/tmp/* | /dev/shm/*)
  if [[ -n "${OUTERLOOP_SLURM_TESTBED:-}${OUTERLOOP_GE_TESTBED:-}" ]]; then
    shared_tmp=$(mktemp -d /var/tmp/outerloop-suite-shared.XXXXXX)
  fi
  ;;
esac
trap 'rm -rf "$reports" "$suite_tmp" ${shared_tmp:+"$shared_tmp"}' EXIT
# what tests keep for people to look at (screenshots), outside the suite's temp dir
export OUTERLOOP_ARTIFACTS=${OUTERLOOP_ARTIFACTS:-$tmp_root/outerloop-artifacts}
paths=("${@:-tests/}")
# files at a time: the unit tests use a core each; the live ones mostly wait on a scheduler
unit_jobs=${OUTERLOOP_TEST_JOBS:-$(nproc)}
live_jobs=${OUTERLOOP_LIVE_JOBS:-4}

runtimes=${OUTERLOOP_TEST_RUNTIMES:-deno bun}
# one build of the binary before files run side by side (each would otherwise build its own when src/ is newer)
if grep -rlq 'helpers/binary.ts' "${paths[@]}" 2>/dev/null; then
  "${DENO[@]}" eval 'import { ensureBinary } from "./tests/helpers/binary.ts"; await ensureBinary();' >&2 ||
    echo "building the binary failed: the tests that run it will say so" >&2
fi

# run RUNTIME GROUP FILE...: one runner over the files, its JUnit report in $reports/RUNTIME-GROUP.xml
run() {
  local rt=$1 group=$2 parallel=1 tmp=$suite_tmp
  shift 2
  [[ $# -gt 0 ]] || return 0
  case $group in
  unit-together) parallel=$unit_jobs ;;
  live-together) parallel=$live_jobs ;;
  esac
  [[ $group == live-* && -n $shared_tmp ]] && tmp=$shared_tmp
  echo "== $rt test, $group: $# file(s), $parallel at a time" >&2
  if [[ $rt == deno ]]; then
    # its output kept too: only there are the tests a helper declared (liveIt) named by their files
    TMPDIR=$tmp DENO_JOBS=$parallel "${DENO[@]}" test -A --parallel --junit-path="$reports/$rt-$group.xml" "$@" |
      tee "$reports/$rt-$group.log"
    return "${PIPESTATUS[0]}"
  else
    TMPDIR=$tmp "${BUN[@]}" test --timeout 600000 --parallel="$parallel" --reporter=junit \
      --reporter-outfile="$reports/$rt-$group.xml" "$@"
  fi
}

declare -A rc=([deno]=0 [bun]=0)
for rt in deno bun; do
  [[ " $runtimes " == *" $rt "* ]] || continue
  mapfile -t planned < <("${DENO[@]}" run -A scripts/test_plan.ts "$rt" "${paths[@]}")
  start=$(date +%s)
  for group in unit-together unit-alone live-together live-alone; do
    mapfile -t files < <(printf '%s\n' "${planned[@]}" | sed -n "s/^$group //p")
    run "$rt" "$group" "${files[@]}" || rc[$rt]=$?
  done
  echo "== $rt test took $(($(date +%s) - start)) s" >&2
done

total_pass=0 total_fail=0 total_skip=0
for rt in $runtimes; do
  shopt -s nullglob
  xmls=("$reports/$rt"-*.xml "$reports/$rt"-*.log)
  shopt -u nullglob
  if [[ ${#xmls[@]} -gt 0 ]]; then
    # every file's time in CI's log; the 20 slowest for a person
    line=$("${DENO[@]}" run -A scripts/count_junit.ts --slowest "$([[ ${CI:-} == true ]] && echo 10000 || echo 20)" "${xmls[@]}")
  else
    line="0 passed, 1 failed, 0 skipped" # the runner died before reporting
  fi
  echo "$rt: $(head -1 <<<"$line")"
  sed -n 's/^failed: /'"$rt"' failed: /p' <<<"$line"
  sed -n 's/^time: /'"$rt"' time: /p' <<<"$line"
  read -r p _ f _ s _ <<<"$(head -1 <<<"$line")"
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + s))
done
# a runner that failed without a failing test (a crash, a type error) still fails the run
if [[ ${rc[deno]} -ne 0 && $total_fail -eq 0 ]] || [[ ${rc[bun]} -ne 0 && $total_fail -eq 0 ]]; then
  total_fail=$((total_fail + 1))
fi
for dir in "$suite_tmp" ${shared_tmp:+"$shared_tmp"}; do
  leftovers=$(find "$dir" -mindepth 1 -maxdepth 1 | head -20)
  [[ -n "$leftovers" ]] || continue
  echo "the suite left files in its temp dir (every test must remove what it makes):" >&2
  echo "$leftovers" >&2
  # when each file was last written, and by whom: a job still writing after its test ended shows here
  echo "the files in them, oldest write first (the suite's runners ended at $(date +%T)):" >&2
  find "$dir" -mindepth 1 -printf '%TT %u %p\n' | sort | head -40 >&2
  total_fail=$((total_fail + 1))
done
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[[ ${rc[deno]} -eq 0 && ${rc[bun]} -eq 0 && $total_fail -eq 0 ]]
