import { log } from "../log.ts";
import { arrayIndexSpec, sacctSelection } from "./array.ts";
import { withCluster } from "./cluster.ts";
import { assertJobRef, type Compute, isTaskId, type LiveJob, type SubmitRoom, type SubmitTarget } from "./compute.ts";
import { parseElapsed } from "./elapsed.ts";
import { SlurmError, SlurmQueryError } from "./errors.ts";
import { type JobSpec, toArgv } from "./job_spec.ts";
import { limitsEnforced, maxArraySizeOf, parseConfig } from "./site_limits.ts";
import { roomUnderLimits } from "./slurm_room.ts";
import { sbatchWithCare, type SubmitContext } from "./slurm_submit.ts";
import type { SpawnResult } from "../runtime/spawn_types.ts";
import { failureOf, type Runner, subprocessRunner } from "./runner.ts";
import { GONE } from "./states.ts";
import {
  ACTIVE_JOBS_FORMAT,
  firstLine,
  parseActiveJobs,
  parseRequeues,
  parseStates,
  parseSubmitted,
  SUBMITTED_SACCT_FIELDS,
  SUBMITTED_SQUEUE_FORMAT,
} from "./slurm_parse.ts";
import { type JobUsage, parseUsage, USAGE_FIELDS } from "./usage.ts";
import { classifyFailure } from "./transient.ts";
import { DEFAULT_RETRY, Retries, type RetryPolicy } from "./retry.ts";

export interface SlurmComputeOptions {
  readonly runner?: Runner;
  /** Per scheduler command; default 60 s. */
  readonly commandTimeoutMs?: number;
  /** How transient failures are retried; default `DEFAULT_RETRY`. */
  readonly retry?: Partial<RetryPolicy>;
  /** Waits between tries; tests pass one that returns at once. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The jitter's source, in [0, 1). */
  readonly random?: () => number;
  /** The clock, in epoch ms (a submission's lookup window, the retry budget). */
  readonly now?: () => number;
  /** Whose associations `submitRoom` reads; default this process's user, as `id -un` names it. */
  readonly user?: string;
  /** The cluster every command names (`-M`, cluster.ts); "" (the default) for the one slurm.conf names. */
  readonly cluster?: string;
}

/** squeue's environment for the listing: collapsed array ids never cut at 64 bytes. */
const WHOLE_IDS = { SLURM_BITSTR_LEN: "0" };

/**
 * The compute verbs over sbatch, sacct, squeue and scancel. Keeps the
 * distinction the fail-safe design depends on: a query that FAILED raises
 * SlurmQueryError (unknown), a query that succeeded and found nothing is GONE.
 *
 * Transient failures (`transient.ts`: a controller that timed out, refused a
 * connection, or lost an answer) are retried as `retry.ts` says (a bounded,
 * jittered backoff, one round per outage); refusals never are. An sbatch
 * that failed in a way that may have submitted the job anyway ("Socket timed
 * out on send/recv operation") is never simply run again: the job is first
 * looked up by name, in the queue and in accounting, since the first try
 * began — one submit makes at most one job of its name (`slurm_submit.ts`). Arrays (`submitArray`) get the same care; their tasks are
 * `A_T` everywhere, listed one per row (`squeue -r`) and answered each from
 * its own accounting record. A refusal by a submit limit is a
 * SubmitLimitError (`submit_limit.ts`); `submitRoom` says how much fits.
 */
export class SlurmCompute implements Compute {
  readonly #runner: Runner;
  readonly #timeoutMs: number;
  readonly #retries: Retries;
  /** The user `submitRoom` asks about, once known. */
  #user: string | null;
  /** `scontrol show config`, once read (MaxArraySize, enforcement, the cluster's name). */
  #config: Map<string, string> | null = null;
  /** What `sbatchWithCare` needs of this client. */
  readonly #submitting: SubmitContext;

  constructor(options: SlurmComputeOptions = {}) {
    const runner = options.runner ?? subprocessRunner;
    const cluster = options.cluster ?? "";
    this.#runner = cluster === ""
      ? runner
      : (argv, timeoutMs, env) => runner(withCluster(argv, cluster), timeoutMs, env);
    this.#user = options.user ?? null;
    this.#timeoutMs = options.commandTimeoutMs ?? 60_000;
    this.#retries = new Retries({ ...DEFAULT_RETRY, ...options.retry }, {
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      random: options.random ?? Math.random,
    });
    this.#submitting = {
      runner: this.#runner,
      timeoutMs: this.#timeoutMs,
      retries: this.#retries,
      findSubmitted: (name, since) => this.findSubmitted(name, since),
    };
  }

  /**
   * Submits; the job id. SlurmError when sbatch is refused, keeps failing, or
   * failed in a way that may have submitted the job while the queue and
   * accounting cannot say whether it did (then nothing is submitted again:
   * the job, if it exists, is found by name later).
   */
  async submit(spec: JobSpec): Promise<string> {
    return await sbatchWithCare(this.#submitting, toArgv(spec), spec.jobName, (id) => `job ${id}`);
  }

  /**
   * Submits ONE `sbatch --array=0-(tasks−1)[%throttle]` of the spec; the
   * array id. The same care and errors as `submit`; an index past
   * MaxArraySize − 1 is refused by Slurm (a SlurmError saying to split it).
   */
  async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    const indices = arrayIndexSpec(tasks, throttle);
    const argv = toArgv({ ...spec, extra: [...(spec.extra ?? []), `--array=${indices}`] });
    const as = (id: string) => `array ${id} (${tasks} tasks, ${id}_0 … ${id}_${tasks - 1})`;
    return await sbatchWithCare(this.#submitting, argv, spec.jobName, as);
  }

  /**
   * Ids of this user's jobs named `name` submitted at or after `since`,
   * lowest first (an array's once, by its array id): from the queue (`--states=all`: finished jobs the controller
   * still remembers too) and from accounting (jobs it has forgotten).
   * SlurmQueryError when either cannot be read: a job missing from one answer
   * proves nothing while the other is unknown.
   */
  async findSubmitted(name: string, since: Date): Promise<string[]> {
    const queue = await this.#query([
      "squeue",
      "--me",
      "--name",
      name,
      "--states=all",
      "--noheader",
      "-o",
      SUBMITTED_SQUEUE_FORMAT,
    ]);
    const ids = new Set(parseSubmitted(queue, since));
    if (ids.size === 0) {
      const accounted = await this.#query([
        "sacct",
        "--name",
        name,
        "-S",
        sacctTime(since),
        "-X",
        "--noheader",
        "--parsable2",
        "-o",
        SUBMITTED_SACCT_FIELDS,
      ]);
      for (const id of parseSubmitted(accounted, since)) ids.add(id);
    }
    return [...ids].sort((a, b) => Number(a) - Number(b));
  }

  /**
   * The job's state, or GONE when a successful sacct finds no record. An
   * array task's (`A_T`) comes from its own sacct row, or, before it has one
   * (pending), from the queue; GONE when neither has it (a task cancelled
   * while pending never gets a row).
   */
  async status(jobId: string): Promise<string> {
    assertJobRef(jobId);
    const out = await this.#query(["sacct", "-j", jobId, "--parsable2", "--noheader", "-X", "-o", "State"]);
    const state = firstLine(out);
    if (state || !isTaskId(jobId)) return state || GONE;
    return firstLine(await this.#query(["squeue", "-j", jobId, "-h", "-o", "%T"])) || GONE;
  }

  /** How long the job ran (sacct Elapsed), or null when there is no record. */
  async elapsedSeconds(jobId: string): Promise<number | null> {
    assertJobRef(jobId);
    const out = await this.#query(["sacct", "-j", jobId, "--parsable2", "--noheader", "-X", "-o", "Elapsed"]);
    const text = firstLine(out);
    return text ? parseElapsed(text) : null;
  }

  /** Why a PENDING job waits (`Dependency`, `BeginTime`, …), or "" when squeue no longer lists it. */
  async pendingReason(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return firstLine(await this.#query(["squeue", "-j", jobId, "-h", "-o", "%r"]));
  }

  /** The partition a queued job sits in now (sites may move pending jobs), or "". */
  async jobPartition(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return firstLine(await this.#query(["squeue", "-j", jobId, "-h", "-o", "%P"]));
  }

  /**
   * Names of this user's pending and running jobs (names, not commands:
   * `%j` is always the submitted name). Callers that delete things keyed on
   * this must treat a SlurmQueryError as "delete nothing".
   */
  async activeJobNames(): Promise<string[]> {
    const out = await this.#query(["squeue", "--me", "--noheader", "-o", "%j"]);
    return out.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  }

  /**
   * The id of this user's live job named exactly `name`, or "" — an array's
   * id for an array (squeue prints its rows `A_T` and `A_[2-5%2]`).
   * Authoritative for liveness: a job is visible here even if its submitter
   * died before recording the id.
   */
  async jobIdForName(name: string): Promise<string> {
    const out = await this.#query(["squeue", "--me", "--name", name, "--noheader", "-o", "%i"]);
    const first = out.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
    return /^([0-9]+)_/.exec(first)?.[1] ?? first;
  }

  /**
   * Every live job and array task of this user by name, with state, reason
   * and partition, from ONE `squeue -r` (a row per task, its id `A_T`;
   * `SLURM_BITSTR_LEN=0`, so no id is cut).
   */
  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    const argv = ["squeue", "--me", "-r", "--noheader", "-o", ACTIVE_JOBS_FORMAT];
    return parseActiveJobs(await this.#query(argv, WHOLE_IDS));
  }

  /**
   * States of several jobs and array tasks from one sacct, bounded by
   * `since` so a recycled id cannot match an old job. An array is asked once
   * by its id, and each task asked for is answered from its OWN `A_T` row —
   * never from the row of the raw id equal to the array id (one task, the
   * last to start, or the collapsed PENDING row of those not started, which
   * still names tasks cancelled meanwhile). Jobs and tasks without a record
   * are absent: a pending task, and one cancelled while pending.
   */
  async statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobRef);
    const argv = [
      "sacct",
      "-j",
      sacctSelection(jobIds).join(","),
      "--parsable2",
      "--noheader",
      "-X",
      "-o",
      "JobID,State",
    ];
    if (since) argv.push("-S", sacctTime(since));
    return only(parseStates(await this.#query(argv)), jobIds);
  }

  /** `Compute.requeues`: the REQUEUED rows `sacct -D` keeps of each job's earlier runs. */
  async requeues(jobIds: readonly string[], since?: Date): Promise<Map<string, number>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobRef);
    const argv = ["sacct", "-j", sacctSelection(jobIds).join(","), "--parsable2", "--noheader", "-X", "-D"];
    argv.push("-o", "JobID,State");
    if (since) argv.push("-S", sacctTime(since));
    return only(parseRequeues(await this.#query(argv)), jobIds);
  }

  /** MaxArraySize from `scontrol show config` (1001 when the site sets none): one array's most tasks. */
  async maxArraySize(): Promise<number> {
    return maxArraySizeOf(await this.#showConfig());
  }

  /**
   * Room under the site's submit limits for `target` (`Compute.submitRoom`;
   * what is counted: `site_limits.ts`): from the controller's association
   * manager (`scontrol show assoc_mgr`, the limits and the counts it
   * enforces) and sacctmgr (the QOS's limits; the default QOS when none is
   * given). Null when the controller does not enforce limits.
   */
  async submitRoom(target: SubmitTarget): Promise<SubmitRoom | null> {
    const config = await this.#showConfig();
    if (!limitsEnforced(config)) return null;
    return await roomUnderLimits((argv) => this.#query(argv), await this.#whoami(), config, target);
  }

  /**
   * This process's user name as the system resolves its uid (`id -un`: NSS,
   * so LDAP users too; Bun's `os.userInfo()` answers "unknown" without $USER).
   */
  async #whoami(): Promise<string> {
    if (this.#user !== null) return this.#user;
    const name = firstLine(await this.#query(["id", "-un"]));
    if (!/^[A-Za-z0-9._][A-Za-z0-9._-]*\$?$/.test(name)) {
      throw new SlurmQueryError(`Cannot tell this process's user name: id -un printed ${JSON.stringify(name)}`);
    }
    return this.#user = name;
  }

  async #showConfig(): Promise<Map<string, string>> {
    return this.#config ??= parseConfig(await this.#query(["scontrol", "show", "config"]));
  }

  /** Cancels a job or an array task (`A_T`); idempotent (transient failures retried). A failure is logged, not thrown. */
  async cancel(jobId: string): Promise<void> {
    assertJobRef(jobId);
    try {
      await this.#query(["scancel", jobId]);
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      log.warn(err.message);
    }
  }

  /** Runs a side-effect-free (or idempotent) query, retrying transient failures; its stdout, or SlurmQueryError. */
  async #query(argv: string[], env?: Readonly<Record<string, string>>): Promise<string> {
    return await this.#idempotent(argv, argv[0] === "scancel" ? `scancel ${argv[1]}` : argv[0]!, SlurmQueryError, env);
  }

  /**
   * Runs a command that may safely run twice (a query, or scancel: a job
   * cancelled already, or unknown, is not an error), retrying transient
   * failures as `retry.ts` says — a "maybe-sent" failure included, since
   * doing it again changes nothing; its stdout. A refusal, a command that
   * cannot run, or one that keeps failing is a `fail` naming `what`.
   */
  async #idempotent(
    argv: string[],
    what: string,
    fail: new (message: string, options?: ErrorOptions) => SlurmError | SlurmQueryError,
    env?: Readonly<Record<string, string>>,
  ): Promise<string> {
    const retries = this.#retries;
    const started = retries.now();
    for (let attempt = 1;; attempt++) {
      let result: SpawnResult;
      try {
        result = await this.#runner(argv, this.#timeoutMs, env);
      } catch (err) {
        throw new fail(`${what} did not run: ${(err as Error).message}`, { cause: err });
      }
      if (result.exitCode === 0 && !result.timedOut) {
        retries.succeeded();
        return result.stdout;
      }
      const why = failureOf(result, this.#timeoutMs);
      if (classifyFailure(result) === "final") throw new fail(`${what} ${why}`);
      if (!retries.mayRetry(attempt, started)) throw new fail(`${what} ${why} ${retries.giveUp(attempt)}`);
      const wait = retries.backoff(attempt);
      log.info(`${what} ${why.split("\n")[0]}; trying again in ${wait} ms (try ${attempt + 1})`);
      await retries.sleep(wait);
    }
  }

  /**
   * Cancels several jobs with one `scancel id1 id2 …`: one RPC to the
   * controller however many jobs a run has. Finished or unknown ids are not
   * an error (scancel exits 0 for them), so a transient failure is retried
   * like every other verb's (`retry.ts`); a refusal, or a scancel that keeps
   * failing, is a SlurmError. Array tasks go by `A_T` (22.05 ignores a
   * task's raw id without a word), a whole array by its id.
   */
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    jobIds.forEach(assertJobRef);
    await this.#idempotent(["scancel", ...jobIds], "scancel", SlurmError);
  }

  /**
   * What finished jobs used, from one sacct WITH their steps (no `-X`: the
   * `.batch` step carries MaxRSS), bounded by `since` so a recycled id
   * cannot match an old job. Jobs without a record are absent. An array
   * task's from its own `A_T` row and `A_T.batch` step, its array asked once.
   */
  async usage(jobIds: readonly string[], since?: Date): Promise<Map<string, JobUsage>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobRef);
    const argv = ["sacct", "-j", sacctSelection(jobIds).join(","), "--parsable2", "--noheader", "-o", USAGE_FIELDS];
    if (since) argv.push("-S", sacctTime(since));
    return only(parseUsage(await this.#query(argv)), jobIds);
  }
}

/** The entries of `answer` for the asked ids: sacct also prints an asked array's other tasks. */
function only<T>(answer: Map<string, T>, asked: readonly string[]): Map<string, T> {
  const out = new Map<string, T>();
  for (const id of asked) {
    const v = answer.get(id);
    if (v !== undefined) out.set(id, v);
  }
  return out;
}

/** sacct's `-S` takes local time without a zone. */
function sacctTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${
    p(d.getSeconds())
  }`;
}
