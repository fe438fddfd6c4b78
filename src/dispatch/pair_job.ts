import { chmodSync, mkdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { quoteWord } from "../compute/quote.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { UNIT_FILES } from "./eval_files.ts";

/**
 * The job script of a pair unit (measure/dispatch_unit.ts): it runs the
 * pair's measures' own eval job scripts — each checks out its tree into a
 * fresh directory, runs the command, writes its result and exit code last,
 * and removes its checkout, exactly as when it is a job of its own — inside
 * one job, on one node:
 *
 * - `same-job`: one after the other, in the unit's order;
 * - `duet`: two at a time, the first of each two pinned to the first half of
 *   the CPUs this job may use (`Cpus_allowed_list`) and the second to the
 *   other half with `taskset`; with fewer than two CPUs or no `taskset`,
 *   both run unpinned and the job's log says so.
 *
 * Signals reach the measures as they would reach a job of their own: TERM or
 * HUP (walltime, scancel, preemption) is passed on as TERM, so each records
 * exit 143; INT (the local backend abandoning the job: outerloop itself was
 * interrupted) is passed on as USR1, the eval script's other "abandoned,
 * record nothing" signal — a non-interactive shell starts a background job
 * with INT ignored, beyond the reach of its trap. After a signal no further
 * measure starts; one that never started has no exit code, and the pass
 * reports it from the scheduler's end state (a walltime, a cancel).
 */
export function renderPairScript(mode: "same-job" | "duet", memberScripts: readonly string[]): string {
  if (memberScripts.length === 0 || (mode === "duet" && memberScripts.length % 2 !== 0)) {
    throw new TypeError(`A ${mode} job needs ${mode === "duet" ? "an even number of" : "some"} measures`);
  }
  for (const s of memberScripts) {
    if (!isAbsolute(s)) throw new TypeError(`A pair job's measure script must be absolute, got ${JSON.stringify(s)}`);
  }
  const steps = mode === "same-job"
    ? memberScripts.map((s) => `ol_one ${quoteWord(s)}`)
    : Array.from({ length: memberScripts.length / 2 }, (_, i) =>
      `ol_two ${quoteWord(memberScripts[2 * i]!)} ${quoteWord(memberScripts[2 * i + 1]!)}`);
  return PAIR_TEMPLATE.replace("@MODE@", mode).replace("@STEPS@", steps.join("\n"));
}

const PAIR_TEMPLATE = `#!/bin/sh
# outerloop pair job (@MODE@), written by writePairJob: runs the pair's
# measures' own job scripts in this one job, on this one node.
ol_stop= ol_pids=
ol_log() { printf 'outerloop-pair: %s\\n' "$*" >&2; }
ol_forward() { for ol_p in $ol_pids; do kill -s "$1" "$ol_p" 2>/dev/null; done; }
trap 'ol_stop=143; ol_forward TERM' TERM HUP
trap 'ol_stop=130; ol_forward USR1' INT
# waits for every started measure; a trap interrupts wait, so wait again while any lives
ol_wait() {
  for ol_p in $ol_pids; do
    while kill -0 "$ol_p" 2>/dev/null; do wait "$ol_p"; done
  done
  ol_pids=
}
ol_one() {
  [ -n "$ol_stop" ] && return 0
  sh "$1" & ol_pids=$!
  ol_wait
}
# the CPUs this job may use, one per line
ol_cpu_list() {
  sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null | tr ',' '\\n' |
    awk -F- 'NF == 2 { for (i = $1; i <= $2; i++) print i; next } NF == 1 && $1 != "" { print $1 }'
}
# ol_halves: 1 when the job's CPUs split in two halves ol_first / ol_second, "" when not; asked once
ol_halves=unknown
ol_split() {
  [ "$ol_halves" = unknown ] || return 0
  ol_halves=
  command -v taskset >/dev/null 2>&1 || return 0
  ol_all=$(ol_cpu_list)
  ol_n=$(printf '%s\\n' "$ol_all" | grep -c .)
  [ "$ol_n" -ge 2 ] || return 0
  ol_first=$(printf '%s\\n' "$ol_all" | head -n $((ol_n / 2)) | paste -sd, -)
  ol_second=$(printf '%s\\n' "$ol_all" | tail -n +$((ol_n / 2 + 1)) | paste -sd, -)
  ol_halves=1
  ol_log "duet CPUs: $ol_first beside $ol_second"
}
ol_two() {
  [ -n "$ol_stop" ] && return 0
  ol_split
  if [ -n "$ol_halves" ]; then
    taskset -c "$ol_first" sh "$1" & ol_pids=$!
    taskset -c "$ol_second" sh "$2" & ol_pids="$ol_pids $!"
  else
    ol_log "both measures run unpinned (taskset missing, or fewer than 2 CPUs): $1 $2"
    sh "$1" & ol_pids=$!
    sh "$2" & ol_pids="$ol_pids $!"
  fi
  ol_wait
}
@STEPS@
exit \${ol_stop:-0}
`;

/**
 * Writes a pair unit's job script as `<unit dir>/job.sh` (executable) and
 * returns its path. The measures' own scripts must be written already
 * (`writeEvalJob`); this one only runs them.
 */
export function writePairJob(unitDir: string, mode: "same-job" | "duet", memberScripts: readonly string[]): string {
  mkdirSync(unitDir, { recursive: true });
  const script = join(unitDir, UNIT_FILES.script);
  atomicWriteFile(script, renderPairScript(mode, memberScripts));
  chmodSync(script, 0o755);
  return script;
}
