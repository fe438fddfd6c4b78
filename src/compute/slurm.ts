import { log } from "../log.ts";
import { assertJobId, type Compute, type LiveJob } from "./compute.ts";
import { parseElapsed } from "./elapsed.ts";
import { SlurmError, SlurmQueryError } from "./errors.ts";
import { type JobSpec, toArgv } from "./job_spec.ts";
import type { SpawnResult } from "../runtime/spawn_types.ts";
import { failureOf, type Runner, subprocessRunner } from "./runner.ts";
import { GONE } from "./states.ts";
import { ACTIVE_JOBS_FORMAT, firstLine, parseActiveJobs, parseSbatchId, parseStates } from "./slurm_parse.ts";
import { type JobUsage, parseUsage, USAGE_FIELDS } from "./usage.ts";

export interface SlurmComputeOptions {
  readonly runner?: Runner;
  /** Per scheduler command; default 60 s. */
  readonly commandTimeoutMs?: number;
}

/**
 * The compute verbs over sbatch, sacct, squeue and scancel. Keeps the
 * distinction the fail-safe design depends on: a query that FAILED raises
 * SlurmQueryError (unknown), a query that succeeded and found nothing is GONE.
 */
export class SlurmCompute implements Compute {
  readonly #runner: Runner;
  readonly #timeoutMs: number;

  constructor(options: SlurmComputeOptions = {}) {
    this.#runner = options.runner ?? subprocessRunner;
    this.#timeoutMs = options.commandTimeoutMs ?? 60_000;
  }

  /** Submits; the job id. SlurmError when sbatch fails or prints no id. */
  async submit(spec: JobSpec): Promise<string> {
    let result: SpawnResult;
    try {
      result = await this.#runner(toArgv(spec), this.#timeoutMs);
    } catch (err) {
      throw new SlurmError(`sbatch did not run: ${(err as Error).message}`, { cause: err });
    }
    if (result.exitCode !== 0 || result.timedOut) {
      throw new SlurmError(`sbatch ${failureOf(result, this.#timeoutMs)}`);
    }
    const jobId = parseSbatchId(result.stdout);
    if (jobId === null) {
      throw new SlurmError(`sbatch returned no job id: ${JSON.stringify(result.stdout.trim())}`);
    }
    log.info(`submitted ${spec.jobName} as job ${jobId}`);
    return jobId;
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

  /** Cancels; idempotent. A failure is logged, not thrown. */
  async cancel(jobId: string): Promise<void> {
    assertJobId(jobId);
    try {
      const result = await this.#runner(["scancel", jobId], this.#timeoutMs);
      if (result.exitCode !== 0 || result.timedOut) log.warn(`scancel ${jobId} ${failureOf(result, this.#timeoutMs)}`);
    } catch (err) {
      log.warn(`scancel ${jobId} did not run: ${(err as Error).message}`);
    }
  }

  async #query(argv: string[]): Promise<string> {
    let result: SpawnResult;
    try {
      result = await this.#runner(argv, this.#timeoutMs);
    } catch (err) {
      throw new SlurmQueryError(`${argv[0]} did not run: ${(err as Error).message}`, { cause: err });
    }
    if (result.exitCode !== 0 || result.timedOut) {
      throw new SlurmQueryError(`${argv[0]} ${failureOf(result, this.#timeoutMs)}`);
    }
    return result.stdout;
  }

  /**
   * Cancels several jobs with one `scancel id1 id2 …`: one RPC to the
   * controller however many jobs a run has. Finished or unknown ids are not
   * an error (scancel exits 0 for them); a failed scancel is a SlurmError.
   */
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    jobIds.forEach(assertJobId);
    let result: SpawnResult;
    try {
      result = await this.#runner(["scancel", ...jobIds], this.#timeoutMs);
    } catch (err) {
      throw new SlurmError(`scancel did not run: ${(err as Error).message}`, { cause: err });
    }
    if (result.exitCode !== 0 || result.timedOut) throw new SlurmError(`scancel ${failureOf(result, this.#timeoutMs)}`);
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
