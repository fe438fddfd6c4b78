#!/bin/sh
# Builds the repository the loop examples climb: the benchmark (bench.sh) on
# `main`, and one branch per scripted proposal, proposal/1 … proposal/N, each a
# commit on main that adds a tweak: better, no change, a crash, worse.
# Usage: sh make_repo.sh DIR [N]   (N proposals, 1 to 6; default 6)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 n=${2:-6}
git init --quiet --initial-branch=main "$dir"
cd "$dir"
git config user.name "outerloop example"
git config user.email example@example.invalid
cp "$here/bench.sh" bench.sh
git add bench.sh
git commit --quiet -m "The benchmark: 10 s plus each tweak's effect"
i=0
while read -r effect subject; do
  i=$((i + 1))
  [ "$i" -le "$n" ] || break
  git checkout --quiet -b "proposal/$i" main
  mkdir -p tweaks
  echo "$effect" >"tweaks/$i"
  git add "tweaks/$i"
  git commit --quiet -m "$subject"
done <<'PROPOSALS'
-0.5 Cache the parsed input
0 Rename the loop variable
crash Switch to the streaming parser
+0.5 Unroll the inner loop
-0.6 Vectorise the hot loop
+0.3 Inline the helper
PROPOSALS
git checkout --quiet main
