#!/bin/sh
# The scheduler of scripts/bench_pass.ts, scripted in sh: `fake_scheduler.sh VERB ARGS…`.
# State in $OUTERLOOP_FAKE_STATE: `jobs` (id|name|tasks|script, tasks 0 for a
# job of its own), `next` (the next id) and `calls.log` (one line per call).
# sbatch records a job or an array (--array=0-N) and prints its id; `squeue -r`
# lists every job and every task PENDING; `squeue --name N` prints N's ids;
# sacct knows nothing (nothing has run); `scontrol show config` gives
# MaxArraySize = $OUTERLOOP_FAKE_MAX_ARRAY_SIZE.
verb=$1
shift
state=$OUTERLOOP_FAKE_STATE
echo "$verb $*" >> "$state/calls.log"
us=$(printf '\037')
case $verb in
  sbatch)
    name="" tasks=0 script=""
    for a in "$@"; do
      case $a in
        --job-name=*) name=${a#--job-name=} ;;
        --array=*) spec=${a#--array=}; spec=${spec%%%*}; tasks=$((${spec#*-} + 1)) ;;
        --wrap=*) script=wrap ;;
        -*) ;;
        *) [ -z "$script" ] && script=$a ;;
      esac
    done
    id=$(cat "$state/next" 2>/dev/null || echo 5000)
    echo $((id + 1)) > "$state/next"
    echo "$id|$name|$tasks|$script" >> "$state/jobs"
    echo "$id"
    ;;
  squeue)
    listing=0 want=""
    prev=""
    for a in "$@"; do
      [ "$a" = -r ] && listing=1
      [ "$prev" = --name ] && want=$a
      prev=$a
    done
    [ -s "$state/jobs" ] || exit 0
    if [ $listing = 1 ]; then
      awk -F'|' -v us="$us" '{
        if ($3 == 0) print $1 us "PENDING" us "Dependency" us "cpu" us $4 us $2
        else for (t = 0; t < $3; t++) print $1 "_" t us "PENDING" us "Priority" us "cpu" us $4 us $2
      }' "$state/jobs"
    elif [ -n "$want" ]; then
      awk -F'|' -v n="$want" '$2 == n { print $1 }' "$state/jobs"
    fi
    ;;
  scontrol) [ "$1 $2" = "show config" ] && echo "MaxArraySize            = ${OUTERLOOP_FAKE_MAX_ARRAY_SIZE:-1001}" ;;
  sacct | scancel) ;;
esac
exit 0
