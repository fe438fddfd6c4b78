import { log } from "../log.ts";
import { splitRef } from "./array.ts";
import { assertJobRef, type Compute, type LiveJob, type SubmitRoom, type SubmitTarget } from "./compute.ts";
import { SlurmError, SlurmQueryError } from "./errors.ts";
import type { JobSpec } from "./job_spec.ts";
import { DEFAULT_RETRY, Retries, type RetryPolicy } from "./retry.ts";
import { failureOf, type Runner, subprocessRunner } from "./runner.ts";
import { GONE, isTerminal } from "./states.ts";
import {
  endState,
  lastRecords,
  liveJobs,
  parseQacct,
  parseQstatXml,
  type QacctRecord,
  wallclockSeconds,
} from "./sge_parse.ts";
import { type QsubContext, qsubWithCare } from "./sge_qsub.ts";
import { classifySge } from "./sge_transient.ts";
import { elapsedOnly, type JobUsage } from "./usage.ts";

export interface SgeComputeOptions {
  readonly runner?: Runner;
  /** Per command; default 60 s. */
  readonly commandTimeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
  /** Whose jobs the listing shows; default `id -un`. */
  readonly user?: string;
  /**
   * How long a job that ended (qstat's finished list) may lack an
   * accounting record before it counts as deleted while pending (such a job
   * never gets one): above qacct's flush time (default 15 s). Default 30 s.
   */
  readonly accountingLagMs?: number;
  /** The parallel environment CPUs are asked from; default OUTERLOOP_SGE_PE, else `smp`. */
  readonly pe?: string;
}

/**
 * The compute verbs over qsub, qstat -xml, qacct and qdel (Son of Grid
 * Engine 8.1.9): the Slurm backend's contract in GE's words. A failed query
 * raises SlurmQueryError (unknown), never "gone"; one listing per pass is
 * ONE `qstat -u <user> -xml` (never the text listing, which cuts names at 10
 * characters); end states come from qacct, whose records lag the queue by
 * its flush time — a job in neither is "not yet known" until that lag is
 * over, and one that qstat still lists as finished without a record past it
 * was deleted while pending (GE never accounts it): CANCELLED. GE's 1-based
 * tasks are `A_T` with T from 0 outside this class (sge_parse.ts). Errors
 * are the Slurm backend's classes (SlurmError, SlurmQueryError), which every
 * caller already tells apart.
 */
export class SgeCompute implements Compute {
  readonly #runner: Runner;
  readonly #timeoutMs: number;
  readonly #retries: Retries;
  readonly #lagMs: number;
  /** What `qsubWithCare` needs of this client. */
  readonly #submitting: QsubContext;
  #user: string | null;

  constructor(options: SgeComputeOptions = {}) {
    this.#runner = options.runner ?? subprocessRunner;
    this.#timeoutMs = options.commandTimeoutMs ?? 60_000;
    this.#user = options.user ?? null;
    this.#lagMs = options.accountingLagMs ?? 30_000;
    this.#retries = new Retries({ ...DEFAULT_RETRY, ...options.retry }, {
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      random: options.random ?? Math.random,
    });
    this.#submitting = {
      runner: this.#runner,
      timeoutMs: this.#timeoutMs,
      retries: this.#retries,
      pe: options.pe ?? (process.env["OUTERLOOP_SGE_PE"] || "smp"),
      findSubmitted: (name, since) => this.findSubmitted(name, since),
    };
  }

  async submit(spec: JobSpec): Promise<string> {
    return await qsubWithCare(this.#submitting, spec, (id) => `job ${id}`);
  }

  async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    const as = (id: string) => `array ${id} (${tasks} tasks, ${id}_0 … ${id}_${tasks - 1})`;
    return await qsubWithCare(this.#submitting, spec, as, { tasks, ...(throttle === undefined ? {} : { throttle }) });
  }

  /** `max_aj_tasks` of the global configuration (0: no cap). */
  async maxArraySize(): Promise<number> {
    const n = Number(/^max_aj_tasks\s+([0-9]+)/m.exec(await this.#query(["qconf", "-sconf", "global"]))?.[1] ?? 75000);
    return n === 0 ? Infinity : n;
  }

  /** Room under `max_u_jobs` (jobs per user, an array counting once); null when the site sets none. */
  async submitRoom(_target: SubmitTarget): Promise<SubmitRoom | null> {
    const max = Number(/^max_u_jobs\s+([0-9]+)/m.exec(await this.#query(["qconf", "-sconf", "global"]))?.[1] ?? 0);
    if (max === 0) return null;
    const jobs = new Set(parseQstatXml(await this.#listing()).map((r) => r.jobNumber)).size;
    return {
      jobs: Math.max(0, max - jobs),
      limit: `max_u_jobs=${max} of user ${await this.#whoami()} (${jobs} queued)`,
    };
  }

  async status(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return (await this.statuses([jobId])).get(jobId) ?? GONE;
  }

  async elapsedSeconds(jobId: string): Promise<number | null> {
    assertJobRef(jobId);
    const r = lastRecords(await this.#accounting(splitRef(jobId).jobId)).get(jobId);
    return r ? wallclockSeconds(r) : null;
  }

  async pendingReason(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return (await this.#live(jobId))?.reason ?? "";
  }

  async jobPartition(jobId: string): Promise<string> {
    assertJobRef(jobId);
    return (await this.#live(jobId))?.partition ?? "";
  }

  async activeJobNames(): Promise<string[]> {
    return [...new Set(parseQstatXml(await this.#listing()).map((r) => r.name))];
  }

  async jobIdForName(name: string): Promise<string> {
    return parseQstatXml(await this.#listing()).find((r) => r.name === name)?.jobNumber ?? "";
  }

  async activeJobs(): Promise<Map<string, LiveJob[]>> {
    return liveJobs(parseQstatXml(await this.#listing()));
  }

  /**
   * States from one listing and one qacct (`-b` bounds it by `since`): a
   * listed job or task its live state, one with a record its end state;
   * one that the finished list holds without a record is asked again until
   * the accounting lag is over, then CANCELLED (deleted while pending). The
   * rest is absent.
   */
  async statuses(jobIds: readonly string[], since?: Date): Promise<Map<string, string>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobRef);
    const out = new Map<string, string>();
    const live = new Map([...liveJobs(parseQstatXml(await this.#listing())).values()].flat().map((j) => [j.id, j]));
    const deadline = this.#retries.now() + this.#lagMs;
    for (let round = 0;; round++) {
      const records = lastRecords(await this.#accounting(null, since));
      for (const id of jobIds) {
        if (out.has(id)) continue;
        const listed = live.get(id);
        const r = records.get(id);
        if (r !== undefined) {
          const end = endState(r);
          // exit 99 or 100 without the wrapper: queued again or held in error while listed, else deleted so
          if (end !== null) out.set(id, end);
          else if (listed === undefined) out.set(id, "CANCELLED");
        }
        if (!out.has(id) && listed !== undefined) out.set(id, listed.state);
      }
      const missing = jobIds.filter((id) => !out.has(id));
      if (missing.length === 0) return out;
      const finished = liveJobs(
        parseQstatXml(await this.#query(["qstat", "-u", await this.#whoami(), "-s", "z", "-xml"])),
      );
      const zombies = new Set([...finished.values()].flat().map((j) => j.id));
      const waiting = missing.filter((id) => zombies.has(id) || zombies.has(splitRef(id).jobId));
      if (waiting.length === 0) return out;
      if (this.#retries.now() >= deadline) {
        for (const id of waiting) out.set(id, "CANCELLED");
        return out;
      }
      if (round === 0) log.info(`waiting for qacct's records of ${waiting.join(", ")} (accounting lags the queue)`);
      await this.#retries.sleep(1000);
    }
  }

  /** Ids of this user's jobs named `name` since `since`, lowest first: listed, finished, or accounted. */
  async findSubmitted(name: string, since: Date): Promise<string[]> {
    const user = await this.#whoami();
    const ids = new Set(parseQstatXml(await this.#listing()).filter((r) => r.name === name).map((r) => r.jobNumber));
    for (const r of parseQstatXml(await this.#query(["qstat", "-u", user, "-s", "z", "-xml"]))) {
      if (r.name === name) ids.add(r.jobNumber);
    }
    for (const r of await this.#accounting(name, since)) ids.add(r.jobNumber);
    return [...ids].sort((a, b) => Number(a) - Number(b));
  }

  async cancel(jobId: string): Promise<void> {
    assertJobRef(jobId);
    try {
      await this.#qdel(jobId);
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      log.warn(err.message);
    }
  }

  /** One qdel of the plain jobs and whole arrays, one per array for its tasks (`qdel A -t N`). */
  async cancelMany(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    jobIds.forEach(assertJobRef);
    const whole = jobIds.filter((id) => splitRef(id).task === null);
    try {
      if (whole.length > 0) await this.#idempotent(["qdel", ...whole], "qdel");
      for (const id of jobIds.filter((i) => splitRef(i).task !== null)) await this.#qdel(id);
    } catch (err) {
      if (err instanceof SlurmQueryError) throw new SlurmError(err.message, { cause: err });
      throw err;
    }
  }

  async #qdel(ref: string): Promise<void> {
    const { jobId, task } = splitRef(ref);
    await this.#idempotent(["qdel", jobId, ...(task === null ? [] : ["-t", String(task + 1)])], `qdel ${ref}`);
  }

  /** From qacct: the wall clock, the walltime asked (`-l h_rt=`), CPUs (slots) and CPU seconds. */
  async usage(jobIds: readonly string[], since?: Date): Promise<Map<string, JobUsage>> {
    if (jobIds.length === 0) return new Map();
    jobIds.forEach(assertJobRef);
    const records = lastRecords(await this.#accounting(null, since));
    const out = new Map<string, JobUsage>();
    for (const id of jobIds) {
      const r = records.get(id);
      if (r !== undefined) out.set(id, usageOf(id, r));
    }
    return out;
  }

  async #live(ref: string): Promise<LiveJob | undefined> {
    return [...(await this.activeJobs()).values()].flat().find((j) => j.id === ref);
  }

  async #listing(): Promise<string> {
    return await this.#query(["qstat", "-u", await this.#whoami(), "-xml"]);
  }

  /** qacct's records of a job (`sel` an id or a name), or of every job since `since` (`sel` null). */
  async #accounting(sel: string | null, since?: Date): Promise<QacctRecord[]> {
    const argv = ["qacct", "-j", ...(sel === null ? [] : [sel]), ...(since ? ["-b", qacctTime(since)] : [])];
    try {
      return parseQacct(await this.#query(argv));
    } catch (err) {
      // "error: job id 10 not found" (exit 1): a successful answer that holds no record
      if (err instanceof SlurmQueryError && /not found|no jobs running since startup/i.test(err.message)) return [];
      throw err;
    }
  }

  async #whoami(): Promise<string> {
    if (this.#user !== null) return this.#user;
    const name = (await this.#query(["id", "-un"])).trim();
    if (!/^[A-Za-z0-9._][A-Za-z0-9._-]*\$?$/.test(name)) {
      throw new SlurmQueryError(`Cannot tell this process's user name: id -un printed ${JSON.stringify(name)}`);
    }
    return this.#user = name;
  }

  async #query(argv: string[]): Promise<string> {
    return await this.#idempotent(argv, argv[0]!);
  }

  /** A command that may run twice (a query, or qdel), retrying transient failures; its stdout, or SlurmQueryError. */
  async #idempotent(argv: string[], what: string): Promise<string> {
    const retries = this.#retries;
    const started = retries.now();
    for (let attempt = 1;; attempt++) {
      const result = await this.#runner(argv, this.#timeoutMs).catch((err) => {
        throw new SlurmQueryError(`${what} did not run: ${(err as Error).message}`, { cause: err });
      });
      if (result.exitCode === 0 && !result.timedOut) {
        retries.succeeded();
        return result.stdout;
      }
      // qdel of a job that is gone already is what was asked
      if (argv[0] === "qdel" && /does not exist|not exist/.test(result.stderr + result.stdout)) return result.stdout;
      const why = failureOf(result, this.#timeoutMs);
      if (classifySge(result) === "final") throw new SlurmQueryError(`${what} ${why}`);
      if (!retries.mayRetry(attempt, started)) throw new SlurmQueryError(`${what} ${why} ${retries.giveUp(attempt)}`);
      const wait = retries.backoff(attempt);
      log.info(`${what} ${why.split("\n")[0]}; trying again in ${wait} ms (try ${attempt + 1})`);
      await retries.sleep(wait);
    }
  }
}

function usageOf(id: string, r: QacctRecord): JobUsage {
  const state = endState(r) ?? "";
  const elapsed = wallclockSeconds(r);
  const hrt = /h_rt=([0-9]+)/.exec(r.fields.get("category") ?? "");
  const slots = Number(r.fields.get("slots") ?? "");
  const cpu = /^([0-9.]+)s?$/.exec(r.fields.get("cpu") ?? "");
  const cpus = Number.isInteger(slots) && slots > 0 ? slots : null;
  const totalCpuS = cpu ? Number(cpu[1]) : null;
  return {
    ...elapsedOnly(id, isTerminal(state) ? state : "", elapsed),
    timelimitS: hrt ? Number(hrt[1]) : null,
    allocCpus: cpus,
    totalCpuS,
    cpuEfficiency: elapsed && cpus && totalCpuS !== null ? totalCpuS / (elapsed * cpus) : null,
  };
}

/** qacct -b's `[[CC]YY]MMDDhhmm[.SS]`, local time. */
function qacctTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}.${
    p(d.getSeconds())
  }`;
}
