import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import { isTerminal } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { evalJobSpec } from "../dispatch/eval_job_spec.ts";
import { EVAL_FILES } from "../dispatch/eval_script.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { writeEvalJob } from "../dispatch/write_eval_job.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import { evalDirName, jobName, slot } from "./identity.ts";
import { type Measure, measureEnv } from "./measure.ts";
import { noResultNote } from "./notes.ts";
import { MeasurementPending } from "./pending.ts";
import { explainSignalExit } from "./signal_exit.ts";

/** sacct's `-S` bound sits this far before the earliest submission, for clock skew. */
const SINCE_MARGIN_MS = 10 * 60_000;

/** Where and how a run's measures are dispatched. */
export interface MeasurerOptions {
  readonly compute: Compute;
  readonly runDir: string;
  /** The repo whose `refs/dispatch/*` pins the measured shas. */
  readonly repoRoot: string;
  readonly image: string;
  readonly account: string;
  readonly partition: string;
  readonly evalMinutes: number;
  /** Disambiguates job names across runs on one account. */
  readonly runTag: string;
  /** The GPU lane; a measure with gpus > 0 is placed there. */
  readonly gpuPartition?: string;
  readonly gpuAccount?: string;
  /** False for a backend without lanes (local): every job runs where we are. */
  readonly lanes?: boolean;
  /** A directory merged into every job's checkout. */
  readonly seedCache?: string | null;
  /** Where `baseline: cached` benchmarks keep base-tree measurements; null = no cache. */
  readonly baselineCache?: string | null;
  /** For the sacct bound; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Submits and reads a run's measures as jobs on any Compute backend.
 * Stateless beyond the compute handle: all durable state is the eval jobs'
 * files in the run dir, so a fresh process on wake reads exactly what the
 * parked one submitted. On a synchronous backend every job is done when
 * checked, so nothing parks and `results()` flows straight through.
 */
export class DispatchedMeasurer {
  constructor(readonly o: MeasurerOptions) {}

  /** The measure's durable identity (its eval dir is `eval-<slot>`). */
  slot(m: Measure): string {
    return slot(this.o.image, m);
  }

  /** The job name the scheduler is asked about for liveness. */
  jobName(m: Measure): string {
    return jobName(this.o.runTag, this.o.image, m);
  }

  /** The measure's eval dir. */
  evalDir(m: Measure): string {
    return join(this.o.runDir, evalDirName(this.o.image, m));
  }

  /** Finished: the job wrote its exit code (always last). */
  done(m: Measure): boolean {
    return existsSync(join(this.evalDir(m), EVAL_FILES.exitCode));
  }

  /** The job id recorded at dispatch, or "". */
  marker(m: Measure): string {
    try {
      return readFileSync(join(this.evalDir(m), "submitted"), "utf8").trim();
    } catch {
      return "";
    }
  }

  /** (account, partition) for the measure; a GPU measure without a lane is refused. */
  placement(m: Measure): { account: string; partition: string } {
    if (m.gpus <= 0 || this.o.lanes === false) return { account: this.o.account, partition: this.o.partition };
    if (!this.o.gpuPartition) {
      throw new TypeError(
        `Measure ${m.name} needs ${m.gpus} GPU(s) but no GPU lane is configured ` +
          "(set OUTERLOOP_GPU_PARTITION or pass --gpu-partition)",
      );
    }
    return { account: this.o.gpuAccount || this.o.account, partition: this.o.gpuPartition };
  }

  /** Writes the eval job, submits it, records its id; the id. */
  async dispatch(m: Measure): Promise<string> {
    const { account, partition } = this.placement(m);
    const script = writeEvalJob(this.o.runDir, this.slot(m), {
      repoRoot: this.o.repoRoot,
      snapshotSha: m.treeSha,
      command: m.command,
      image: this.o.image,
      extraEnv: measureEnv(m),
      gpus: m.gpus,
      seedCache: this.o.seedCache ?? null,
    });
    const spec = evalJobSpec(script, {
      jobName: this.jobName(m),
      account,
      partition,
      evalMinutes: this.o.evalMinutes,
      gpus: m.gpus,
    });
    const jobId = await this.o.compute.submit(spec);
    atomicWriteFile(join(this.evalDir(m), "submitted"), jobId);
    log.info(`dispatched measure ${m.name} (sha ${m.treeSha.slice(0, 12)}) as job ${jobId}`);
    return jobId;
  }

  /**
   * Every measure's value, or PARK (MeasurementPending) / FAIL (EvalError).
   * The scheduler is the source of truth for liveness — a job named for the
   * measure in ONE `squeue --me` listing per pass — never just the local
   * marker, so a submitter that died before recording an id cannot cause a
   * duplicate. Per not-yet-done measure, in order:
   *  - a live job with its name: park on that id;
   *  - a marker but no live job: it ran and vanished without a result →
   *    EvalError, never resubmitted;
   *  - neither: never dispatched → dispatch;
   *  - the listing failed: park on the marker if any, else blind (no id).
   * Jobs already terminal right after submit are found with one batched
   * sacct, so a pass asks the scheduler at most one squeue and one sacct.
   */
  async results(measures: readonly Measure[]): Promise<Record<string, number>> {
    const pending: string[] = [];
    const dispatched: { m: Measure; jobId: string }[] = [];
    let blind = false;
    const notDone = measures.filter((m) => !this.done(m));
    let live: Map<string, string[]> | null = null;
    if (notDone.length > 0) {
      try {
        live = await this.o.compute.activeJobs();
      } catch (err) {
        // cannot tell what runs: do NOT dispatch (a duplicate) nor declare anything dead
        log.warn(`cannot list the queue, re-checking on the next wake: ${(err as Error).message}`);
      }
    }
    for (const m of notDone) {
      const marker = this.marker(m);
      if (live === null) {
        if (marker) pending.push(marker);
        else blind = true;
        continue;
      }
      const liveId = live.get(this.jobName(m))?.[0];
      if (liveId) {
        pending.push(liveId);
        continue;
      }
      if (marker) throw new EvalError(`measure ${m.name}: ${await this.#vanishedNote(m, marker)}`);
      // RESIDUAL (bounded, accepted, as in the reference): a submitter that died
      // between sbatch returning and the marker write, whose orphan then died
      // without a result, is redispatched once; the redispatch writes a marker.
      const jobId = await this.dispatch(m);
      if (this.done(m)) continue; // a synchronous backend finished it inside submit
      dispatched.push({ m, jobId });
    }
    await this.#failInstantDeaths(dispatched);
    pending.push(...dispatched.map((d) => d.jobId));
    if (pending.length > 0 || blind) throw new MeasurementPending(pending);
    return await this.#readAll(measures);
  }

  /** A job that ENDED right after submit without a result will never deliver: fail, don't park. */
  async #failInstantDeaths(dispatched: readonly { m: Measure; jobId: string }[]): Promise<void> {
    if (dispatched.length === 0) return;
    let states: Map<string, string>;
    try {
      const since = new Date((this.o.now ?? Date.now)() - SINCE_MARGIN_MS);
      states = await this.o.compute.statuses(dispatched.map((d) => d.jobId), since);
    } catch {
      return; // status unknown right after submit is normal: park
    }
    for (const { m, jobId } of dispatched) {
      const state = states.get(jobId) ?? "";
      if (state && isTerminal(state) && !this.done(m)) {
        throw new EvalError(`measure ${m.name}: ${noResultNote(jobId, state)}`);
      }
    }
  }

  async #vanishedNote(m: Measure, jobId: string): Promise<string> {
    let state = "";
    if (/^[0-9]+$/.test(jobId)) {
      try {
        state = (await this.o.compute.statuses([jobId], this.#since([m]))).get(jobId) ?? "";
      } catch {
        state = "";
      }
    }
    return noResultNote(jobId, state);
  }

  /** Reads every value; exit-143 failures are explained from one batched sacct. */
  async #readAll(measures: readonly Measure[]): Promise<Record<string, number>> {
    const killed = measures.filter((m) => this.#exitCode(m) === "143");
    const ids = killed.map((m) => this.marker(m)).filter((id) => /^[0-9]+$/.test(id));
    let states = new Map<string, string>();
    if (ids.length > 0) {
      try {
        states = await this.o.compute.statuses(ids, this.#since(killed));
      } catch {
        // unexplained: the signal message below says so
      }
    }
    const out: Record<string, number> = {};
    for (const m of measures) {
      try {
        out[m.name] = readEvalResult(this.o.runDir, this.slot(m), m.metric);
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        const code = this.#exitCode(m);
        const message = code === "143"
          ? explainSignalExit(m.name, states.get(this.marker(m)) ?? "", err.message)
          : err.message;
        throw new EvalError(code === "143" ? message : `measure ${m.name}: ${message}`);
      }
    }
    return out;
  }

  #exitCode(m: Measure): string {
    try {
      return readFileSync(join(this.evalDir(m), EVAL_FILES.exitCode), "utf8").trim();
    } catch {
      return "";
    }
  }

  /** sacct's lower bound: before the earliest marker of these measures. */
  #since(ms: readonly Measure[]): Date {
    let earliest = (this.o.now ?? Date.now)();
    for (const m of ms) {
      try {
        earliest = Math.min(earliest, statSync(join(this.evalDir(m), "submitted")).mtimeMs);
      } catch {
        // no marker
      }
    }
    return new Date(earliest - SINCE_MARGIN_MS);
  }
}
