#!/usr/bin/env bash
# A keep / discard / crash loop on outerloop, in bash.
#
# Each proposal is committed on top of the best commit so far and measured against it.
# outerloop's exit code says what to do: 0 keep, 10 or 11 discard, 12 crash; anything else
# stops the loop (3 the run failed, 4 the scheduler, 2 bad input, 75 still parked). Each
# decided proposal appends its row of `outerloop runs RUNS_DIR --tsv` to results.tsv.
#
# Usage: bash loop.sh REPO CONTRACT RUNS_DIR [outerloop measure flags...]
set -uo pipefail
repo=$1 contract=$2 runs=$3
shift 3

# Your proposer goes here (an agent editing the code); this one applies scripted proposal $2 to $1.
# Prints the candidate's sha; fails when there is no proposal left.
propose() {
  git -C "$repo" rev-parse -q --verify "proposal/$2" >/dev/null || return 1
  git -C "$repo" checkout -q --detach "$1" &&
    git -C "$repo" cherry-pick "proposal/$2" >/dev/null &&
    git -C "$repo" rev-parse HEAD
}

best=$(git -C "$repo" rev-parse main) n=0
while candidate=$(propose "$best" $((n + 1))); do
  n=$((n + 1))
  outerloop measure --repo "$repo" --base "$best" --candidate "$candidate" --contract "$contract" \
    --run-dir "$runs/r$n" --wait "$@"
  code=$?
  case $code in
    0) status=keep ;;
    10 | 11) status=discard ;;
    12) status=crash ;;
    *)
      echo "$runs/r$n: exit $code (see: outerloop show $runs/r$n)" >&2
      exit 1
      ;;
  esac
  # the header and the baseline's row with the first run, then this candidate's row
  outerloop runs "$runs" --tsv |
    awk -F'\t' -v first=$((n == 1)) -v c="${candidate:0:7}" '(first && NR <= 2) || (NR > 2 && $1 == c)' >>results.tsv
  echo "r$n: $status"
  if [[ $status == keep ]]; then
    best=$candidate
    git -C "$repo" branch -f main "$best"
  fi
done
