import { join } from "node:path";
import { quoteWord } from "../compute/quote.ts";
import { EVAL_FILES } from "./eval_files.ts";

/**
 * The variables a job's command gets from the job's own environment (when
 * set), besides the measure's env and `OUTERLOOP_RESULT`. The job starts its
 * git and its command with `env -i`: the submitter's environment holds live
 * keys, `GIT_DIR`-like variables that would misdirect the checkout, and any
 * `APPTAINERENV_*` that would cross `--cleanenv`. The reference's local list,
 * plus what a job needs to use its allocation as Slurm granted it: the GPUs it
 * may see (`CUDA_VISIBLE_DEVICES`, `ROCR_VISIBLE_DEVICES`) and its CPU count
 * and id (`SLURM_CPUS_PER_TASK`, `SLURM_JOB_ID`). Nothing secret-shaped.
 */
export const DEFAULT_ALLOWED_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "TMPDIR",
  "USER",
  "LOGNAME",
  "SLURM_TMPDIR",
  "CUDA_VISIBLE_DEVICES",
  "ROCR_VISIBLE_DEVICES",
  "SLURM_JOB_ID",
  "SLURM_CPUS_PER_TASK",
];

/**
 * Host paths and the host's PATH mean nothing inside a container (apptainer
 * sets its own PATH and HOME, and binds /tmp): these stay outside it.
 */
const HOST_ONLY = new Set(["PATH", "HOME", "TMPDIR", "SLURM_TMPDIR"]);

/** Everything the script embeds; validated by `writeEvalJob`. */
export interface EvalScriptInput {
  /** Absolute. */
  readonly evalDir: string;
  /** Absolute. */
  readonly repoRoot: string;
  readonly sha: string;
  readonly command: string;
  /** "" runs the command on the host. */
  readonly image: string;
  readonly gpus: number;
  /** Absolute, or "" for none. */
  readonly seedCache: string;
  /** The measure's env, in the order to set it. */
  readonly env: readonly (readonly [string, string])[];
  readonly allowedEnv: readonly string[];
}

/**
 * The POSIX `sh` eval job. Every user value is assigned once, quoted, at the
 * top; the body reads them only as "$variables", so no value is ever parsed
 * as shell code — except the command, which `sh -c` runs on purpose.
 *
 * Choices a reader of the run dir relies on:
 * - the checkout is `mktemp -d` under `$SLURM_TMPDIR`, else `$TMPDIR`, else
 *   `$TMP`, else /tmp (node-local, never the user's working tree) — a variable
 *   naming a directory the job's node does not have (a login node's own
 *   TMPDIR, exported by sbatch) is dropped with a line in output.log — cloned
 *   `--shared` so any object the repo holds is readable in place without
 *   copying. Grid Engine 8.1.9 gives a job only `$TMP`, its own directory
 *   that execd removes when the job ends: `qdel` kills a job outright, with
 *   no signal it could clean up on, and a checkout under /tmp would stay;
 * - git and the command start from `env -i` plus the allowed variables; in a
 *   container the measure env crosses `--cleanenv` as `APPTAINERENV_*` (any
 *   value byte for byte, which `--env`'s comma-separated list cannot promise),
 *   the eval dir and checkout are bound at their host paths;
 * - setup failures (no checkout, no seed cache) record exit code 125 and say
 *   why in output.log; TERM and HUP record 143 ("told to stop": walltime,
 *   scancel, preemption), which the measurer explains from the scheduler's end
 *   state; INT means the submitter itself was interrupted (the local backend
 *   forwards outerloop's own Ctrl-C or TERM as INT, and `cancel` of a local
 *   run sends it; Slurm never sends it on its own): not a result, so nothing
 *   is recorded and the next `resume` measures again — unless the command had
 *   already ended, whose code stands;
 * - a job the scheduler runs again (`SLURM_RESTART_COUNT` > 0: requeued on
 *   preemption, after its node was lost, by `scontrol requeue`) moves its
 *   earlier attempt's files into `attempt-<n>/` with `job`, `restart` and a
 *   `why` naming the host it ran on, so the earlier attempt is kept and its
 *   result can never be read as this one's;
 * - the command runs in its own session: on a signal its group gets TERM, and
 *   a watchdog outside the job's group KILLs it 5 s later and removes the
 *   checkout even if the job script itself is killed first.
 */
export function renderEvalScript(i: EvalScriptInput): string {
  const q = quoteWord;
  const container = i.image !== "";
  const prefix = container ? "APPTAINERENV_" : "";
  const keep = (name: string, as: string) => `if [ "\${${name}+x}" = x ]; then set -- "$@" "${as}=$${name}"; fi`;
  const allowed = i.allowedEnv.map((n) => keep(n, n));
  const intoContainer = container ? i.allowedEnv.filter((n) => !HOST_ONLY.has(n)).map((n) => keep(n, prefix + n)) : [];
  const measureEnv = [...i.env, ["OUTERLOOP_RESULT", join(i.evalDir, EVAL_FILES.result)] as const]
    .map(([k, v]) => `set -- "$@" ${q(`${prefix}${k}=${v}`)}`);
  // the job the command runs in, the same for both measures of a pair job: Slurm's id, or the local backend's
  measureEnv.push(`set -- "$@" "${prefix}OUTERLOOP_JOB_ID=$ol_job_id"`);
  const launch = container
    ? `apptainer exec --cleanenv${
      i.gpus > 0 ? " --nv" : ""
    } --bind "$ol_dir" --bind "$ol_tree" --pwd "$ol_tree" "$ol_image" sh -c "$ol_cmd"`
    : `sh -c "$ol_cmd"`;
  const bindCheck = container
    ? `case $ol_tree in *[,:]*) ol_fail "Cannot bind $ol_tree into the container: the path holds ',' or ':' (set TMPDIR elsewhere)";; esac`
    : "";
  const parts: Record<string, string> = {
    VALUES: [
      `ol_dir=${q(i.evalDir)}`,
      `ol_repo=${q(i.repoRoot)}`,
      `ol_sha=${q(i.sha)}`,
      `ol_cmd=${q(i.command)}`,
      `ol_image=${q(i.image)}`,
      `ol_seed=${q(i.seedCache)}`,
      `ol_gpus=${i.gpus}`,
    ].join("\n"),
    ALLOWED: allowed.join("\n"),
    MEASURE_ENV: [...intoContainer, ...measureEnv].join("\n"),
    BIND_CHECK: bindCheck,
    LAUNCH: launch,
  };
  // one pass with a replacer function: inserted values are never rescanned for
  // placeholders, and "$&"-like patterns in them are not expanded
  return TEMPLATE.replace(/@([A-Z_]+)@/g, (_, key: string) => {
    const part = parts[key];
    if (part === undefined) throw new Error(`Eval script template has an unknown placeholder "@${key}@"`);
    return part;
  });
}

const TEMPLATE = `#!/bin/sh
# outerloop eval job (written by writeEvalJob): check out the sealed sha into a
# fresh directory, run the contract command there, record its output, then
# exit-code LAST and atomically, then remove the checkout.
@VALUES@

ol_work= ol_tree= ol_pid= ol_rc= ol_done= ol_setsid=
# an array task's own id is A_T (its SLURM_JOB_ID is a raw id that names no task to the other verbs)
if [ -n "\${SLURM_ARRAY_JOB_ID:-}" ] && [ -n "\${SLURM_ARRAY_TASK_ID:-}" ]; then
  ol_job_id="\${SLURM_ARRAY_JOB_ID}_\${SLURM_ARRAY_TASK_ID}"
else
  ol_job_id=\${SLURM_JOB_ID:-\${OUTERLOOP_JOB_ID:-}}
fi
# the command runs in its own session, so a TERM can reach its whole group
if command -v setsid >/dev/null 2>&1; then ol_setsid=setsid; fi

ol_log() {
  printf 'outerloop-job: %s\\n' "$*" >>"$ol_dir/output.log"
  printf 'outerloop-job: %s\\n' "$*" >&2
}
# exit-code is the "job over" mark: after the output and the result, once, by rename
ol_record() {
  [ -n "$ol_done" ] && return 0
  ol_done=1
  printf %s "$1" >"$ol_dir/exit-code.tmp" && mv -f "$ol_dir/exit-code.tmp" "$ol_dir/exit-code"
}
ol_cleanup() {
  [ -n "$ol_work" ] || return 0
  chmod -R u+w "$ol_work" 2>/dev/null
  rm -rf "$ol_work"
}
ol_finish() { ol_record "$1"; ol_cleanup; exit "$1"; }
# where and when the command ran (dispatch/provenance.ts reads it): one "key=value" per line,
# control characters dropped; written before exit-code, so a finished measure has it
ol_kv() { printf '%s=%s\\n' "$1" "$(printf '%s' "$2" | tr -d '\\000-\\037\\177')"; }
ol_provenance() {
  {
    ol_kv host "$(uname -n)"
    ol_kv started_at "$ol_started_at"
    ol_kv ended_at "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    ol_kv job_id "$ol_job_id"
    ol_kv node_list "\${SLURM_JOB_NODELIST:-}"
    ol_kv cpu_model "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
    ol_kv cpus "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null)"
    if [ "$ol_gpus" -gt 0 ] && command -v nvidia-smi >/dev/null 2>&1; then
      nvidia-smi -L 2>/dev/null | sed -n 's/.*(UUID: *\\([^)]*\\)).*/\\1/p' | while read -r ol_u; do ol_kv gpu "$ol_u"; done
    fi
  } >"$ol_dir/provenance.tmp" 2>/dev/null && mv -f "$ol_dir/provenance.tmp" "$ol_dir/provenance"
}
ol_fail() { ol_log "$1"; ol_finish 125; }
# stops the command's group and removes the checkout; a watchdog in its own
# session KILLs the group and removes the checkout 5 s on, even when this script
# is killed first (a local walltime, or a stopping outerloop, KILLs our group)
ol_watchdog=
# TERMs the command's group and starts the watchdog: the first thing on a signal, since a KILL of this
# script may follow at once (a local walltime's grace) and the command, in its own session, would outlive it
ol_stop_begin() {
  [ -n "$ol_pid" ] && [ -z "$ol_watchdog" ] || return 0
  kill -s TERM -- "-$ol_pid" 2>/dev/null || kill -s TERM "$ol_pid" 2>/dev/null
  $ol_setsid sh -c ': >"$2/.watchdog"; sleep 5; kill -s KILL -- "-$1" 2>/dev/null || kill -s KILL "$1"; chmod -R u+w "$2"; rm -rf "$2"' \
    sh "$ol_pid" "$ol_work" </dev/null >/dev/null 2>&1 &
  ol_watchdog=$!
  # until the watchdog runs in its own session (2 s at most), a KILL of this script's group would take it too
  ol_i=0
  while [ ! -e "$ol_work/.watchdog" ] && [ "$ol_i" -lt 40 ]; do sleep 0.05 2>/dev/null || sleep 1; ol_i=$((ol_i + 1)); done
}
ol_stop() {
  ol_stop_begin
  if [ -n "$ol_pid" ]; then
    wait "$ol_pid"
    kill -s TERM -- "-$ol_watchdog" 2>/dev/null || kill -s TERM "$ol_watchdog" 2>/dev/null
  fi
  ol_cleanup
}
# walltime, scancel and preemption all send TERM: record 143 (or the command's
# code when it already ended), then stop the command and remove the checkout
ol_on_signal() {
  trap '' TERM INT HUP USR1
  ol_stop_begin
  if [ -n "$ol_rc" ]; then ol_record "$ol_rc"; else ol_log "terminated by a signal: exit code 143"; ol_record 143; fi
  ol_stop
  exit 143
}
# INT: outerloop, which ran this job, was itself interrupted (or the run cancelled). Not a result:
# record nothing (the next resume measures again), stop the command, clean up.
# USR1 means the same from a pair job (dispatch/pair_job.ts), which starts
# this script in the background, where INT is ignored and cannot be trapped
ol_on_abandon() {
  trap '' TERM INT HUP USR1
  if [ -n "$ol_rc" ]; then ol_finish "$ol_rc"; fi
  ol_log "outerloop was interrupted: nothing recorded; a resume measures this again (unless the run was cancelled)"
  ol_stop
  exit 130
}
trap ol_on_signal TERM HUP
trap ol_on_abandon INT USR1

cd "$ol_dir" || { echo "outerloop-job: cannot enter the eval dir $ol_dir" >&2; exit 125; }
# a job the scheduler runs again (requeued: preempted, its node lost, scontrol requeue) finds its earlier
# attempt's files here: they are kept in attempt-<n>/ (measure/attempts.ts) and never read as this one's
if [ "\${SLURM_RESTART_COUNT:-0}" -gt 0 ] 2>/dev/null && [ -e started ]; then
  ol_n=1
  while [ -e "attempt-$ol_n" ]; do ol_n=$((ol_n + 1)); done
  ol_host=$(cut -d' ' -f2 started 2>/dev/null)
  if [ -e exit-code ]; then
    ol_how="was stopped (exit $(cat exit-code))"
  else
    ol_how="left no exit code: its node was lost, or it was killed outright"
  fi
  if mkdir "attempt-$ol_n"; then
    printf '%s\n' "$ol_job_id" >"attempt-$ol_n/job"
    printf '%s\n' "$SLURM_RESTART_COUNT" >"attempt-$ol_n/restart"
    printf 'the scheduler requeued job %s and ran it again (restart %s); its attempt on %s %s\n' \
      "$ol_job_id" "$SLURM_RESTART_COUNT" "\${ol_host:-an unknown host}" "$ol_how" >"attempt-$ol_n/why"
    for ol_f in started output.log stdout.log result.json provenance exit-code; do
      [ -e "$ol_f" ] && mv -f "$ol_f" "attempt-$ol_n/$ol_f"
    done
  fi
fi
rm -f exit-code exit-code.tmp result.json provenance
: >output.log
: >stdout.log
printf '%s %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(uname -n)" >started

# a temp dir named by the submitting machine (a login node's TMPDIR) may not exist on the node the job runs on:
# such a variable is dropped (the command then gets none) and the checkout goes under the next one that is here
for ol_v in SLURM_TMPDIR TMPDIR TMP; do
  eval "ol_d=\\\${$ol_v:-}"
  if [ -n "$ol_d" ] && { [ ! -d "$ol_d" ] || [ ! -w "$ol_d" ]; }; then
    ol_log "$ol_v=$ol_d is not a writable directory on $(uname -n) (a path of the machine that submitted the job?): unset for this job"
    unset "$ol_v"
  fi
done

# git and the command start from env -i plus these (when set)
set --
@ALLOWED@

ol_base=\${SLURM_TMPDIR:-\${TMPDIR:-\${TMP:-/tmp}}}
ol_work=$(mktemp -d "$ol_base/outerloop-eval.XXXXXX") || ol_fail "Cannot create a checkout directory under $ol_base"
ol_tree=$ol_work/tree
@BIND_CHECK@
# --shared: objects are read in place, so any sha the repo holds (pinned under
# refs/dispatch/) checks out, and nothing is copied
env -i "$@" git clone --quiet --shared --no-checkout -- "$ol_repo" "$ol_tree" >>"$ol_dir/output.log" 2>&1 ||
  ol_fail "Cannot clone $ol_repo into $ol_tree"
env -i "$@" git -C "$ol_tree" -c advice.detachedHead=false checkout --quiet --detach "$ol_sha" >>"$ol_dir/output.log" 2>&1 ||
  ol_fail "Cannot check out $ol_sha from $ol_repo (is it pinned as refs/dispatch/$ol_sha?)"
if [ -n "$ol_seed" ]; then
  # merged into the checkout; the committed tree wins any clash
  [ -d "$ol_seed" ] || ol_fail "Seed cache $ol_seed is not a directory"
  cp -pR "$ol_seed/." "$ol_tree/" >>"$ol_dir/output.log" 2>&1 || ol_fail "Cannot copy the seed cache $ol_seed into the checkout"
  env -i "$@" git -C "$ol_tree" reset --quiet --hard >>"$ol_dir/output.log" 2>&1 ||
    ol_fail "Cannot restore the committed tree over the seed cache"
fi

@MEASURE_ENV@
mkfifo "$ol_work/stdout" || ol_fail "Cannot create a fifo in $ol_work"
cd "$ol_tree" || ol_fail "Cannot enter the checkout $ol_tree"
ol_started_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)
tee -a "$ol_dir/stdout.log" <"$ol_work/stdout" >>"$ol_dir/output.log" &
ol_tee=$!
$ol_setsid env -i "$@" @LAUNCH@ >"$ol_work/stdout" 2>>"$ol_dir/output.log" &
ol_pid=$!
wait "$ol_pid"
ol_rc=$?
# whatever the command left running would hold its stdout open: the job is over
kill -s KILL -- "-$ol_pid" 2>/dev/null
wait "$ol_tee"
ol_provenance
ol_finish "$ol_rc"
`;
