import { log } from "../log.ts";
import { safeText } from "../text/terminal.ts";
import { assertJobId, type Compute, type LiveJob } from "./compute.ts";
import { parseElapsed } from "./elapsed.ts";
import { SlurmError, SlurmQueryError } from "./errors.ts";
import { type JobSpec, toArgv } from "./job_spec.ts";
import type { SpawnResult } from "../runtime/spawn_types.ts";
import { failureOf, type Runner, subprocessRunner } from "./runner.ts";
import { GONE } from "./states.ts";
import {
  ACTIVE_JOBS_FORMAT,
  firstLine,
  parseActiveJobs,
  parseSbatchId,
  parseStates,
  parseSubmitted,
  SUBMITTED_SACCT_FIELDS,
  SUBMITTED_SQUEUE_FORMAT,
} from "./slurm_parse.ts";
import { type JobUsage, parseUsage, USAGE_FIELDS } from "./usage.ts";
import { classifyFailure, type FailureKind } from "./transient.ts";
import { DEFAULT_RETRY, Retries, type RetryPolicy } from "./retry.ts";

/**
 * How far before a submission its lookup by name reaches: the controller
 * stamps the submit time in whole seconds, on its own clock.
 */
const LOOKUP_MARGIN_MS = 2000;
/** Clean "not there" answers (queue and accounting) needed before an sbatch that may have worked is tried again. */
const LOOKUP_ROUNDS = 2;

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
}

/**
 * The compute verbs over sbatch, sacct, squeue and scancel. Keeps the
 * distinction the fail-safe design depends on: a query that FAILED raises
 * SlurmQueryError (unknown), a query that succeeded and found nothing is GONE.
 *
 * Transient failures (`transient.ts`: a controller that timed out, refused a
 * connection, or lost an answer) are retried as `retry.ts` says (a bounded,
 * jittered backoff, one round per outage); refusals never are. An sbatch that failed in a way that may have
 * submitted the job anyway ("Socket timed out on send/recv operation") is
 * never simply run again: the job is first looked up by name, in the queue
 * and in accounting, since the first try began — one submit makes at most one
 * job of its name.
 */
export class SlurmCompute implements Compute {
  readonly #runner: Runner;
  readonly #timeoutMs: number;
  readonly #retries: Retries;

  constructor(options: SlurmComputeOptions = {}) {
    this.#runner = options.runner ?? subprocessRunner;
    this.#timeoutMs = options.commandTimeoutMs ?? 60_000;
    this.#retries = new Retries({ ...DEFAULT_RETRY, ...options.retry }, {
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      random: options.random ?? Math.random,
    });
  }

  /**
   * Submits; the job id. SlurmError when sbatch is refused, keeps failing, or
   * failed in a way that may have submitted the job while the queue and
   * accounting cannot say whether it did (then nothing is submitted again:
   * the job, if it exists, is found by name later).
   */
  async submit(spec: JobSpec): Promise<string> {
    const argv = toArgv(spec);
    const retries = this.#retries;
    const started = retries.now();
    const since = new Date(started - LOOKUP_MARGIN_MS);
    for (let attempt = 1;; attempt++) {
      let result: SpawnResult;
      try {
        result = await this.#runner(argv, this.#timeoutMs);
      } catch (err) {
        throw new SlurmError(`sbatch did not run: ${(err as Error).message}`, { cause: err });
      }
      let why: string;
      let kind: FailureKind;
      if (result.exitCode === 0 && !result.timedOut) {
        const jobId = parseSbatchId(result.stdout);
        if (jobId !== null) {
          retries.succeeded();
          log.info(`submitted ${spec.jobName} as job ${jobId}`);
          return jobId;
        }
        // it says it submitted: the job may well exist
        why = `returned no job id: ${safeText(JSON.stringify(result.stdout.trim()), 500)}`;
        kind = "maybe-sent";
      } else {
        why = failureOf(result, this.#timeoutMs);
        kind = classifyFailure(result);
        if (kind === "final") throw new SlurmError(`sbatch ${why}`);
      }
      if (kind === "maybe-sent") {
        const found = await this.#lookUp(spec.jobName, since, attempt);
        if (typeof found === "string") {
          log.warn(`sbatch ${why}; but job ${found} named ${spec.jobName} was submitted: using it`);
          return found;
        }
        if (found.kind === "unknown") {
          throw new SlurmError(
            `sbatch ${why}; whether job ${spec.jobName} was submitted cannot be told (${found.why}), ` +
              "so it is not submitted again: a later pass finds it by name if it exists",
          );
        }
      }
      if (!retries.mayRetry(attempt, started)) throw new SlurmError(`sbatch ${why} ${retries.giveUp(attempt)}`);
      const wait = retries.backoff(attempt);
      log.info(`sbatch ${why.split("\n")[0]}; submitting ${spec.jobName} again in ${wait} ms (try ${attempt + 1})`);
      await retries.sleep(wait);
    }
  }

  /**
   * Whether an sbatch that may have worked did: the id of this user's job
   * named `name` submitted since `since` (the queue first, then accounting
   * for a job that already ended), or "absent" after LOOKUP_ROUNDS clean
   * rounds that found none — one empty answer is not proof — or "unknown".
   */
  async #lookUp(
    name: string,
    since: Date,
    attempt: number,
  ): Promise<string | { kind: "absent" } | { kind: "unknown"; why: string }> {
    let clean = 0;
    let why = "";
    for (let round = 1; round <= LOOKUP_ROUNDS + 1 && clean < LOOKUP_ROUNDS; round++) {
      await this.#retries.sleep(this.#retries.backoff(attempt + round - 1));
      try {
        const ids = await this.findSubmitted(name, since);
        if (ids.length > 0) {
          if (ids.length > 1) log.warn(`several jobs named ${name} since the submission: ${ids.join(", ")}`);
          return ids[0]!;
        }
        clean++;
      } catch (err) {
        if (!(err instanceof SlurmQueryError)) throw err;
        why = err.message;
      }
    }
    return clean >= LOOKUP_ROUNDS ? { kind: "absent" } : { kind: "unknown", why };
  }

  /**
   * Ids of this user's jobs named `name` submitted at or after `since`,
   * lowest first: from the queue (`--states=all`: finished jobs the controller
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

  /** The job's state, or GONE when a successful sacct finds no record. */
  async status(jobId: string): Promise<string> {
    assertJobId(jobId);
    const out = await this.#query(["sacct", "-j", jobId, "--parsable2", "--noheader", "-X", "-o", "State"]);
    return firstLine(out) || GONE;
  }

  /** How long the job ran (sacct Elapsed), or null when there is no record. */
  async elapsedSeconds(jobId: string): Promise<number | null> {
    assertJobId(jobId);
    const out = await this.#query(["sacct", "-j", jobId, "--parsable2", "--noheader", "-X", "-o", "Elapsed"]);
    const text = firstLine(out);
    return text ? parseElapsed(text) : null;
  }

  /** Why a PENDING job waits (`Dependency`, `BeginTime`, …), or "" when squeue no longer lists it. */
  async pendingReason(jobId: string): Promise<string> {
    assertJobId(jobId);
    return firstLine(await this.#query(["squeue", "-j", jobId, "-h", "-o", "%r"]));
  }

  /** The partition a queued job sits in now (sites may move pending jobs), or "". */
  async jobPartition(jobId: string): Promise<string> {
    assertJobId(jobId);
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
   * The id of this user's live job named exactly `name`, or "". Authoritative
   * for liveness: a job is visible here even if its submitter died before
   * recording the id.
   */
  async jobIdForName(name: string): Promise<string> {
    const out = await this.#query(["squeue", "--me", "--name", name, "--noheader", "-o", "%i"]);
    return out.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
  }

  /** Every live job of this user by name, with state, reason and partition, from one squeue. */
  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    return parseActiveJobs(await this.#query(["squeue", "--me", "--noheader", "-o", ACTIVE_JOBS_FORMAT]));
  }

  /**
   * States of several jobs from one sacct, bounded by `since` so a recycled
   * id cannot match an old job. Jobs without a record are absent.
   */
  async statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobId);
    const argv = ["sacct", "-j", jobIds.join(","), "--parsable2", "--noheader", "-X", "-o", "JobID,State"];
    if (since) argv.push("-S", sacctTime(since));
    return parseStates(await this.#query(argv));
  }

  /** Cancels; idempotent (transient failures retried). A failure is logged, not thrown. */
  async cancel(jobId: string): Promise<void> {
    assertJobId(jobId);
    try {
      await this.#query(["scancel", jobId]);
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      log.warn(err.message);
    }
  }

  /** Runs a side-effect-free (or idempotent) query, retrying transient failures; its stdout, or SlurmQueryError. */
  async #query(argv: string[]): Promise<string> {
    return await this.#idempotent(argv, argv[0] === "scancel" ? `scancel ${argv[1]}` : argv[0]!, SlurmQueryError);
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
  ): Promise<string> {
    const retries = this.#retries;
    const started = retries.now();
    for (let attempt = 1;; attempt++) {
      let result: SpawnResult;
      try {
        result = await this.#runner(argv, this.#timeoutMs);
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
   * failing, is a SlurmError.
   */
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    jobIds.forEach(assertJobId);
    await this.#idempotent(["scancel", ...jobIds], "scancel", SlurmError);
  }

  /**
   * What finished jobs used, from one sacct WITH their steps (no `-X`: the
   * `.batch` step carries MaxRSS), bounded by `since` so a recycled id
   * cannot match an old job. Jobs without a record are absent.
   */
  async usage(jobIds: readonly string[], since?: Date): Promise<Map<string, JobUsage>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobId);
    const argv = ["sacct", "-j", jobIds.join(","), "--parsable2", "--noheader", "-o", USAGE_FIELDS];
    if (since) argv.push("-S", sacctTime(since));
    return parseUsage(await this.#query(argv));
  }
}

/** sacct's `-S` takes local time without a zone. */
function sacctTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${
    p(d.getSeconds())
  }`;
}
