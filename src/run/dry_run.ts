import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import type { DryRunJson } from "../output/job_outputs.ts";
import { ARRAY_FILES, readArrayJobs } from "../dispatch/array_job.ts";
import { hexDigest } from "../runtime/digest.ts";
import { setLogSink } from "../log.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arrayIndexSpec } from "../compute/array.ts";
import { withCluster } from "../compute/cluster.ts";
import type { Compute, LiveJob, SubmitRoom } from "../compute/compute.ts";
import { type JobSpec, toArgv } from "../compute/job_spec.ts";
import type { JobUsage } from "../compute/usage.ts";
import { log } from "../log.ts";
import { arrayJobName, slot, unitJobName } from "../measure/identity.ts";
import { dispatchUnits, unitResources } from "../measure/dispatch_unit.ts";
import { measureEnv } from "../measure/measure.ts";
import { advanceRun } from "../plan/advance.ts";
import { runPlan } from "../plan/run_plan.ts";
import { RunDir } from "../rundir/run_dir.ts";
import { type RunRecord, writeRunRecord } from "../rundir/run_record.ts";
import { wakeJobName } from "../rundir/wake_record.ts";
import { runPhase } from "./phase.ts";

/**
 * What a run's first pass submits, found by making that pass — the same
 * code, not a description of it — against a scheduler that records each
 * submission and runs nothing, in a scratch copy of the run dir that is
 * removed after: its job arrays (one per look per option set), pair jobs,
 * single jobs and the wake, each with the exact sbatch argv, paths and job
 * names as the real run dir gives them. What `measure --dry-run` prints:
 * the plan a user previews is the plan that runs (a real first pass differs
 * only in the job ids the scheduler hands out). The scratch copy's path
 * never shows: it is written back as the run dir's.
 */
export interface DrySubmission {
  /** `array` (one `sbatch --array`), `job` (one eval or pair job) or `wake`. */
  readonly kind: "array" | "job" | "wake";
  readonly jobName: string;
  /** The sbatch argv, `--array=0-N` included for an array. */
  readonly argv: readonly string[];
  /** An array's task count; 1 for a job. */
  readonly tasks: number;
}

/** What `measure --dry-run` shows: the first look's measures, the jobs that run them, and what is submitted. */
export interface DryRun {
  /** The first look's measures (a round: the screen's first batch), in plan order. */
  readonly measures: readonly {
    readonly name: string;
    readonly treeSha: string;
    readonly slot: string;
    readonly jobName: string;
    readonly gpus: number;
    readonly env: Readonly<Record<string, string>>;
  }[];
  /** The jobs that run them: one per measure, or per pair with `pairing`, with what each asks for. */
  readonly jobs: readonly {
    readonly jobName: string;
    readonly mode: string;
    readonly measures: readonly string[];
    readonly minutes: number;
    readonly mem: string;
    readonly cpus: number;
    readonly gpus: number;
  }[];
  /** Every sbatch of the first pass, in order (`dryFirstPass`); null on the local backend, which submits nothing. */
  readonly submissions: readonly DrySubmission[] | null;
}

/** The dry run of a prepared run: what its first pass measures and, on a scheduler, submits. */
export async function dryRun(
  record: RunRecord,
  runDir: RunDir,
  self: readonly string[],
  compute: Compute,
): Promise<DryRun> {
  const first = advanceRun(runPlan(record), {}).plan.plan;
  const units = dispatchUnits(first, record.contract.pairing);
  const jobOf = new Map(
    units.flatMap((u) => u.members.map((m) => [m.name, unitJobName(record.runTag, record.image, u)])),
  );
  let maxArray = 1001;
  if (record.compute !== "local") {
    try {
      maxArray = await compute.maxArraySize();
    } catch (err) {
      log.warn(`cannot read the site's MaxArraySize, taking ${maxArray}: ${(err as Error).message}`);
    }
  }
  return {
    measures: first.map((m) => ({
      name: m.name,
      treeSha: m.treeSha,
      slot: slot(record.image, m),
      jobName: jobOf.get(m.name)!,
      gpus: m.gpus,
      env: measureEnv(m),
    })),
    jobs: units.map((u) => ({
      jobName: unitJobName(record.runTag, record.image, u),
      mode: u.mode,
      measures: u.members.map((m) => m.name),
      ...unitResources(u, record.contract),
    })),
    submissions: record.compute === "local" ? null : await dryFirstPass(record, runDir, self, maxArray),
  };
}

/**
 * `measure --dry-run --json`: `measures` (name, tree_sha, slot, job_name,
 * gpus, env: the reference's keys), `jobs` (job_name, mode, measures,
 * minutes, mem, cpus, gpus), `submissions` (kind, job_name, tasks, argv;
 * null on the local backend), and the run's seed, run tag, backend and
 * pairing.
 */
export function dryRunJson(d: DryRun, r: RunRecord): DryRunJson {
  return {
    measures: d.measures.map((m) => ({
      name: m.name,
      tree_sha: m.treeSha,
      slot: m.slot,
      job_name: m.jobName,
      gpus: m.gpus,
      env: m.env,
    })),
    jobs: d.jobs.map(({ jobName, ...j }) => ({ job_name: jobName, ...j })),
    submissions: d.submissions &&
      d.submissions.map((s) => ({ kind: s.kind, job_name: s.jobName, tasks: s.tasks, argv: [...s.argv] })),
    seed: r.seed,
    run_tag: r.runTag,
    compute: r.compute,
    pairing: r.contract.pairing,
  };
}

/**
 * The first pass of `record` (a run not yet started in `runDir`), as
 * submissions. `maxArraySize` is the site's (the pass chunks arrays by it).
 */
async function dryFirstPass(
  record: RunRecord,
  runDir: RunDir,
  self: readonly string[],
  maxArraySize: number,
): Promise<DrySubmission[]> {
  const scratch = mkdtempSync(join(tmpdir(), "outerloop-dry-run-"));
  const dir = new RunDir(join(scratch, "run"));
  const recorder = new RecordingCompute(maxArraySize);
  // the pass logs what it dispatches as if it did: a dry run says it in its own words
  const restoreLog = setLogSink(() => {});
  try {
    dir.create("the dry run's scratch dir");
    // a cached baseline is looked up beside the run dir: the scratch copy sees the real cache (read only:
    // a first pass that parks stores nothing in it)
    if (existsSync(runDir.baselineCache)) symlinkSync(runDir.baselineCache, dir.baselineCache);
    writeRunRecord(dir, record);
    await runPhase(dir, { compute: recorder, self, now: Date.now, env: {} });
    const ownWake = wakeJobName(record.runTag, dir);
    // the scratch copy's path, and what it hashes into (an array's dir and name hash its manifest of paths),
    // written back as the run dir's
    const renames: [string, string][] = [[dir.path, runDir.path]];
    for (const a of readArrayJobs(dir.path)) {
      const text = readFileSync(join(a.dir, ARRAY_FILES.manifest), "utf8").split(dir.path).join(runDir.path);
      const hash = hexDigest("sha1", text);
      renames.push([a.hash, hash], [arrayJobName(record.runTag, a.hash), arrayJobName(record.runTag, hash)]);
    }
    const real = (text: string) => renames.reduce((t, [from, to]) => t.split(from).join(to), text);
    return recorder.sent.map((s) => {
      const jobName = s.spec.jobName === ownWake ? wakeJobName(record.runTag, runDir) : real(s.spec.jobName);
      const extra = s.tasks === null ? [] : [`--array=${arrayIndexSpec(s.tasks, s.throttle)}`];
      const sbatch = toArgv({ ...s.spec, jobName, extra: [...(s.spec.extra ?? []), ...extra] }).map(real);
      // the Slurm backend names the run's cluster on every command (`-M`): so does the argv shown
      const argv = record.compute === "slurm" ? withCluster(sbatch, record.cluster) : sbatch;
      const kind = s.spec.jobName === ownWake ? "wake" : s.tasks === null ? "job" : "array";
      return { kind, jobName, argv, tasks: s.tasks ?? 1 };
    });
  } finally {
    restoreLog();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A scheduler that lists nothing, knows of no job, and records what it is asked to submit. */
class RecordingCompute implements Compute {
  readonly sent: { spec: JobSpec; tasks: number | null; throttle: number | undefined }[] = [];
  #next = 1;
  readonly #maxArray: number;

  constructor(maxArraySize: number) {
    this.#maxArray = maxArraySize;
  }

  async submit(spec: JobSpec): Promise<string> {
    this.sent.push({ spec, tasks: null, throttle: undefined });
    return String(this.#next++);
  }
  async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    this.sent.push({ spec, tasks, throttle });
    return String(this.#next++);
  }
  async maxArraySize(): Promise<number> {
    return this.#maxArray;
  }
  async submitRoom(): Promise<SubmitRoom | null> {
    return null;
  }
  async status(): Promise<string> {
    return "PENDING";
  }
  async elapsedSeconds(): Promise<number | null> {
    return null;
  }
  async pendingReason(): Promise<string> {
    return "";
  }
  async jobPartition(): Promise<string> {
    return "";
  }
  async activeJobNames(): Promise<string[]> {
    return [];
  }
  async jobIdForName(): Promise<string> {
    return "";
  }
  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    return new Map();
  }
  async statuses(): Promise<Map<string, string>> {
    return new Map();
  }
  async findSubmitted(): Promise<string[]> {
    return [];
  }
  async cancel(): Promise<void> {}
  async cancelMany(): Promise<void> {}
  async usage(): Promise<Map<string, JobUsage>> {
    return new Map();
  }
}
