import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { quoteWord } from "../compute/quote.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { hexDigest } from "../runtime/digest.ts";
import { EVAL_FILES } from "./eval_files.ts";

/**
 * A look's job array: one `sbatch --array` runs several units' job scripts
 * (measure/dispatch_unit.ts: a measure's eval script, or a pair job's), task T
 * the script on line T + 1 of the array's manifest. The manifest is written
 * BEFORE the sbatch, in a dir named by the hash of its content
 * (`<run dir>/array-<sha1>/`): a pass that died between the write and the
 * sbatch, or after the sbatch and before the markers, leaves the manifest, and
 * the next pass finds its array by the name derived from it (or learns it was
 * never submitted) instead of submitting a second one.
 *
 * ```text
 * array-<sha1 of the manifest>/
 * ├── manifest     one absolute job script per line, task T on line T + 1
 * ├── job.sh       what every task runs: its line of the manifest, its output
 * │                appended to the slurm.out beside that script, as a job's is
 * ├── submitted    the array's id, written once the scheduler accepted it
 * └── task-<T>.out the scheduler's own messages about task T
 * ```
 */
export const ARRAY_FILES = {
  manifest: "manifest",
  script: "job.sh",
  submitted: "submitted",
} as const;

/** The scheduler's log of each task (sbatch's `%a` is the task index). */
export const ARRAY_OUTPUT = "task-%a.out";

/** An array's dir on disk: its manifest's scripts and, once submitted, its id. */
export interface ArrayManifest {
  /** `<run dir>/array-<sha1>`. */
  readonly dir: string;
  /** The hex of its name: the sha1 of the manifest. */
  readonly hash: string;
  /** The job scripts, task 0 first. */
  readonly scripts: readonly string[];
  /** The array id, or null when no sbatch was recorded (never submitted, or a pass died before the record). */
  readonly submitted: string | null;
  /** When the manifest was written (epoch ms): a lookup by name reaches back from it. */
  readonly writtenMs: number;
}

const DIR = /^array-([0-9a-f]{40})$/;

/**
 * The manifest text of `scripts`: one per line; then, for an array that sends
 * measures again, a last line `# after <job ids>` naming the jobs they died
 * in — past every task's line, so no task reads it, and a manifest (and a
 * name) of its own even when it holds the scripts of an earlier array.
 */
function manifestText(scripts: readonly string[], after: readonly string[]): string {
  return scripts.map((s) => `${s}\n`).join("") + (after.length > 0 ? `# after ${after.join(" ")}\n` : "");
}

/** The script every task runs: its line of the manifest, `exec`ed so signals reach it as they would a job of its own. */
function renderArrayScript(manifest: string): string {
  return `#!/bin/sh
# outerloop job array (written by writeArrayJob): task T runs the job script
# on line T + 1 of its manifest, as that script would run as a job of its own
ol_manifest=${quoteWord(manifest)}
ol_task=\${SLURM_ARRAY_TASK_ID:-} ol_array=\${SLURM_ARRAY_JOB_ID:-?}
# Grid Engine numbers tasks from 1 and cannot name a file by T: the task's log is ours to open
if [ -z "$ol_task" ] && [ -n "\${SGE_TASK_ID:-}" ] && [ "$SGE_TASK_ID" != undefined ]; then
  ol_task=$((SGE_TASK_ID - 1)) ol_array=$JOB_ID
  exec >>"\${ol_manifest%/*}/task-$ol_task.out" 2>&1
fi
ol_line=$(( \${ol_task:?not an array task} + 1 ))
ol_script=$(sed -n "\${ol_line}p" "$ol_manifest")
if [ -z "$ol_script" ]; then
  echo "outerloop-array: no line $ol_line in $ol_manifest" >&2
  exit 125
fi
# the job script's output goes where it would as a job of its own (slurm.out beside it); the scheduler's
# own messages about the task (a cancel, a time limit) stay in this dir's task-<T>.out
ol_log="\${ol_script%/*}/${EVAL_FILES.slurmOut}"
echo "outerloop-array: task \${ol_array}_\${ol_task} (the scheduler's log: \${ol_manifest%/*}/task-\${ol_task}.out)" >>"$ol_log"
exec sh "$ol_script" >>"$ol_log" 2>&1
`;
}

/**
 * Writes an array's manifest and script (atomically; an existing dir of the
 * same content is kept as it is, with its `submitted`) and returns them.
 */
export function writeArrayJob(
  runDir: string,
  scripts: readonly string[],
  after: readonly string[] = [],
): ArrayManifest {
  if (scripts.length === 0) throw new TypeError("An array needs one or more job scripts");
  for (const s of scripts) {
    if (!isAbsolute(s) || s.includes("\n")) throw new TypeError(`Not a job script path: ${JSON.stringify(s)}`);
  }
  if (after.some((id) => /\s/.test(id))) throw new TypeError(`Not job ids: ${JSON.stringify(after)}`);
  const text = manifestText(scripts, after);
  const hash = hexDigest("sha1", text);
  const dir = join(runDir, `array-${hash}`);
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, ARRAY_FILES.manifest);
  if (!existsSync(manifest)) atomicWriteFile(manifest, text);
  const script = join(dir, ARRAY_FILES.script);
  if (!existsSync(script)) {
    atomicWriteFile(script, renderArrayScript(manifest));
    chmodSync(script, 0o755);
  }
  return readArrayJob(dir)!;
}

/** Records the array's id once the scheduler accepted it. */
export function markArrayJob(a: ArrayManifest, arrayId: string): ArrayManifest {
  atomicWriteFile(join(a.dir, ARRAY_FILES.submitted), arrayId);
  return { ...a, submitted: arrayId };
}

/** The array dir at `dir`, or null when it holds no readable manifest (a write cut short: nothing was submitted). */
export function readArrayJob(dir: string): ArrayManifest | null {
  const m = DIR.exec(dir.split("/").at(-1) ?? "");
  if (m === null) return null;
  let text: string;
  let writtenMs: number;
  try {
    text = readFileSync(join(dir, ARRAY_FILES.manifest), "utf8");
    writtenMs = statSync(join(dir, ARRAY_FILES.manifest)).mtimeMs;
  } catch {
    return null;
  }
  if (hexDigest("sha1", text) !== m[1]) return null;
  let submitted: string | null = null;
  try {
    submitted = readFileSync(join(dir, ARRAY_FILES.submitted), "utf8").trim() || null;
  } catch {
    // not submitted, or not recorded
  }
  const scripts = text.split("\n").filter((l) => l !== "" && !l.startsWith("#"));
  return { dir, hash: m[1]!, scripts, submitted, writtenMs };
}

/** Every array of the run dir, oldest first. */
export function readArrayJobs(runDir: string): ArrayManifest[] {
  let names: string[];
  try {
    names = readdirSync(runDir).filter((n) => DIR.test(n));
  } catch {
    return [];
  }
  return names.map((n) => readArrayJob(join(runDir, n))).filter((a): a is ArrayManifest => a !== null)
    .sort((a, b) => a.writtenMs - b.writtenMs);
}
