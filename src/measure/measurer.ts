import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Compute, isJobId, type LiveJob } from "../compute/compute.ts";
import { SlurmQueryError } from "../compute/errors.ts";
import { runsFrom } from "../compute/job_owner.ts";
import { isTerminal } from "../compute/states.ts";
import { EvalError } from "../dispatch/eval_error.ts";
import { EVAL_FILES, evalDirPath } from "../dispatch/eval_files.ts";
import { evalJobSpec } from "../dispatch/eval_job_spec.ts";
import { UNIT_FILES, unitDirPath } from "../dispatch/eval_files.ts";
import { writePairJob } from "../dispatch/pair_job.ts";
import { readProvenance } from "../dispatch/provenance.ts";
import type { Pairing } from "../contract/contract.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { writeEvalJob } from "../dispatch/write_eval_job.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { log } from "../log.ts";
import { type DispatchUnit, dispatchUnits, unitResources } from "./dispatch_unit.ts";
import { jobName, slot, unitJobName, unitSlot } from "./identity.ts";
import { type Measure, measureEnv } from "./measure.ts";
import { classifyMeasure, type MeasureState, type Observation } from "./measure_state.ts";
import { noResultMessage } from "./notes.ts";
import { MeasurementPending } from "./pending.ts";
import { type Lanes, placement } from "./placement.ts";
import { explainSignalExit } from "./signal_exit.ts";

/** sacct's `-S` bound sits this far before the earliest submission, for clock skew. */
const SINCE_MARGIN_MS = 10 * 60_000;
/** A lookup by name for an earlier attempt's job reaches this far before its job script was written. */
const ADOPT_MARGIN_MS = 60_000;
/**
 * How long after its submission a job that sacct has no record of is "not
 * known yet" rather than gone: accounting lags the controller (nothing for
 * ~0.5 s after sbatch on an idle testbed, longer on a busy cluster), and one
 * empty answer is no proof that a job died. A job that did die shows a
 * terminal state in sacct and is failed at once; only "no record at all"
 * waits out this grace.
 */
export const NO_RECORD_GRACE_MS = 5 * 60_000;

/** Where and how a run's measures are dispatched. */
export interface MeasurerOptions {
  readonly compute: Compute;
  /** The run dir: measure `m`'s eval dir is `<root>/eval-<slot>` (dispatch/eval_files.ts). */
  readonly root: string;
  /** The repo whose `refs/dispatch/*` pins the measured shas. */
  readonly repoRoot: string;
  readonly image: string;
  readonly lanes: Lanes;
  readonly evalMinutes: number;
  /** Memory per eval job (a Slurm size) and CPUs: the contract's `eval_mem` and `eval_cpus`. */
  readonly evalMem: string;
  readonly evalCpus: number;
  /** Disambiguates job names across runs on one account. */
  readonly runTag: string;
  /** How a pair's measures are dispatched (measure/dispatch_unit.ts); "separate" is the reference's, one job each. */
  readonly pairing: Pairing;
  /** A directory merged into every job's checkout, or null. */
  readonly seedCache: string | null;
  /** The clock (epoch ms), for sacct's time bound. */
  readonly now: () => number;
  /**
   * Called before each dispatch; throws to dispatch nothing more (the run was
   * cancelled meanwhile: a local pass measures for minutes or hours).
   */
  readonly beforeDispatch?: () => void;
}

/** A measure with what its pass saw and what that makes it. */
export interface MeasureView {
  readonly measure: Measure;
  readonly observation: Observation;
  readonly state: MeasureState;
}

/**
 * Submits and reads a run's measures as jobs on any Compute backend.
 * Stateless beyond the compute handle: all durable state is the eval jobs'
 * files in the run dir, so a fresh process on wake reads exactly what the
 * parked one submitted. On a synchronous backend every job is done when
 * checked, so nothing parks and `results()` flows straight through.
 */
export class DispatchedMeasurer {
  readonly #o: MeasurerOptions;
  /** Each measure's unit, by measure name, from the last `observe` (a pass's measures are whole pairs). */
  #unitOf = new Map<string, DispatchUnit>();

  constructor(options: MeasurerOptions) {
    this.#o = options;
  }

  /** The units that run `measures` (their job names, scripts and markers), remembered for `marker`. */
  units(measures: readonly Measure[]): DispatchUnit[] {
    const units = dispatchUnits(measures, this.#o.pairing);
    for (const u of units) for (const m of u.members) this.#unitOf.set(m.name, u);
    return units;
  }

  /** The unit that runs `m`: its own unless a pass's `units` put it in a pair's. */
  #unit(m: Measure): DispatchUnit {
    return this.#unitOf.get(m.name) ?? { mode: "one", members: [m], pair: 1 };
  }

  /** The job name the scheduler is asked about for a unit's liveness. */
  unitJobName(u: DispatchUnit): string {
    return unitJobName(this.#o.runTag, this.#o.image, u);
  }

  /** A unit's dir: a lone measure's eval dir, or a pair job's own (`pair<i>-<hex>`). */
  #unitDir(u: DispatchUnit): string {
    return unitDirPath(this.#o.root, unitSlot(this.#o.image, u), u.mode === "one");
  }

  /** The measure's durable identity (its eval dir is `eval-<slot>`). */
  slot(m: Measure): string {
    return slot(this.#o.image, m);
  }

  /** The job name the scheduler is asked about for liveness. */
  jobName(m: Measure): string {
    return jobName(this.#o.runTag, this.#o.image, m);
  }

  /** The measure's eval dir. */
  evalDir(m: Measure): string {
    return evalDirPath(this.#o.root, this.slot(m));
  }

  /** Finished: the job wrote its exit code (always last). */
  done(m: Measure): boolean {
    return existsSync(join(this.evalDir(m), EVAL_FILES.exitCode));
  }

  /**
   * The job id recorded at dispatch, or "": the measure's own marker, or
   * for a measure of a pair job, the pair job's (a crash between the pair's
   * marker writes leaves some members without theirs).
   */
  marker(m: Measure): string {
    const own = readMarker(join(this.evalDir(m), EVAL_FILES.submitted));
    const u = this.#unit(m);
    if (own !== "" || u.mode === "one") return own;
    return readMarker(join(this.#unitDir(u), UNIT_FILES.submitted)) ||
      u.members.map((x) => readMarker(join(this.evalDir(x), EVAL_FILES.submitted))).find((id) => id !== "") || "";
  }

  /**
   * What the scheduler and the run dir say of each measure, from at most ONE
   * queue listing and ONE batched sacct, and the state that follows. The
   * files are read again after each answer: a job that finishes while the
   * scheduler is answering (seconds, on a busy cluster) is done, not dead.
   * A dispatched job the listing misses is confirmed with sacct before it is
   * called vanished — an empty or lagging listing must not kill a run — and
   * sacct having no record of it counts only once its marker is older than
   * NO_RECORD_GRACE_MS (before that it is unknown: park on it).
   */
  async observe(measures: readonly Measure[]): Promise<MeasureView[]> {
    this.units(measures);
    const open = measures.filter((m) => !this.done(m));
    let listing: Map<string, LiveJob[]> | "unknown" = new Map();
    if (open.length > 0) {
      try {
        listing = await this.#o.compute.activeJobs();
      } catch (err) {
        log.warn(`cannot list the queue, re-checking on the next pass: ${(err as Error).message}`);
        listing = "unknown";
      }
    }
    const listedOf = (m: Measure): LiveJob | null | "unknown" =>
      listing === "unknown" ? "unknown" : listing.get(this.unitJobName(this.#unit(m)))?.[0] ?? null;
    const unlisted = open.filter((m) => !this.done(m) && listedOf(m) === null && isJobId(this.marker(m)));
    let accounted: Map<string, string> | "unknown" = new Map();
    if (unlisted.length > 0) {
      try {
        accounted = await this.#o.compute.statuses(unlisted.map((m) => this.marker(m)), this.#since(unlisted));
      } catch (err) {
        log.warn(`cannot ask sacct about jobs the queue no longer lists: ${(err as Error).message}`);
        accounted = "unknown";
      }
    }
    return measures.map((measure) => {
      const marker = this.marker(measure);
      const observation: Observation = {
        done: this.done(measure),
        marker,
        listed: listedOf(measure),
        accounted: accounted === "unknown"
          ? "unknown"
          : accounted.get(marker) ?? (this.#markedWithin(measure, NO_RECORD_GRACE_MS) ? "unknown" : "GONE"),
      };
      return { measure, observation, state: classifyMeasure(observation) };
    });
  }

  /**
   * Every measure's value, or PARK (MeasurementPending) / FAIL (EvalError).
   * The scheduler is the source of truth for liveness — a job named for the
   * measure in one listing — never just the local marker, so a submitter that
   * died before recording an id cannot cause a duplicate. Per measure, by its
   * state (`classifyMeasure`): done → read; live or unlisted-but-running →
   * park on its id (a live job of its name that runs from another run dir is
   * still waited for, as the reference does, with a warning); vanished, or
   * done without a usable result → EvalError at once (never resubmitted, and
   * the others cannot change that); undispatched → dispatch; unknown → park on
   * the marker if any, else blind (no id).
   * Jobs already over right after submit are found with one batched sacct.
   *
   * An undispatched measure whose eval dir already holds a job script was
   * dispatched before by a pass that never recorded an id (it died after
   * sbatch, or sbatch failed in a way that may have submitted): its job is
   * looked up by name (queue and accounting) and adopted when found, so an
   * empty or lagging listing cannot make a second job of one measure; when
   * the lookup cannot be done, the pass parks blind instead of dispatching.
   */
  async results(measures: readonly Measure[]): Promise<Record<string, number>> {
    const views = await this.observe(measures);
    const pending: string[] = [];
    let blind = false;
    for (const { measure, state } of views) {
      if (state.kind === "vanished") {
        throw new EvalError(
          `measure ${measure.name}: ${noResultMessage(state.jobId, state.endState, this.#o.evalMinutes)}`,
        );
      }
    }
    // a finished measure without a usable result fails the run now: waiting for the others cannot save it
    await this.#readAll(views.filter((v) => v.state.kind === "done").map((v) => v.measure));
    const dispatched: { m: Measure; jobId: string }[] = [];
    const handled = new Map<DispatchUnit, string | "blind">();
    // dispatched in the units' order (dispatch_unit.ts): base and candidate alternate over the pairs
    const order = new Map(this.units(measures).flatMap((u, i) => u.members.map((m) => [m.name, i] as const)));
    const inOrder = [...views].sort((a, b) => order.get(a.measure.name)! - order.get(b.measure.name)!);
    for (const { measure: m, state } of inOrder) {
      if (state.kind === "live") {
        pending.push(state.job.id);
        if (!runsFrom(state.job, this.#o.root)) {
          log.warn(
            `measure ${m.name} waits on job ${state.job.id}, which has its job name but runs ` +
              `${JSON.stringify(state.job.script)}, outside this run dir: another run with the same run tag and ` +
              "the same measure; this one is dispatched here once that job ends (give runs distinct --run-tag values)",
          );
        }
      } else if (state.kind === "unlisted") pending.push(state.jobId);
      else if (state.kind === "unknown") {
        if (state.jobId) pending.push(state.jobId);
        else blind = true;
      } else if (state.kind === "undispatched") {
        // the reference's residual (a submitter that died between sbatch and the
        // marker write, whose orphan then died without a result, redispatched
        // once) is closed here: that orphan is found by name and adopted. A pair
        // job is dispatched once for all its measures
        const u = this.#unit(m);
        let jobId = handled.get(u);
        if (jobId === undefined) {
          const earlier = await this.#earlierJob(u);
          jobId = earlier === "unknown" ? "blind" : earlier ?? await this.#dispatch(u);
          handled.set(u, jobId);
        }
        if (jobId === "blind") {
          blind = true;
          continue;
        }
        if (!this.done(m)) dispatched.push({ m, jobId }); // a synchronous backend finishes inside submit
      }
    }
    await this.#failInstantDeaths(dispatched);
    pending.push(...dispatched.map((d) => d.jobId));
    if (pending.length > 0 || blind) throw new MeasurementPending([...new Set(pending)]);
    const values = await this.#readAll(measures);
    this.#checkOneHost(measures);
    return values;
  }

  /**
   * A pair job's measures ran on one host, or the pair is an error: what makes
   * a pair job worth having is that both sides of a comparison shared a
   * machine (a requeued job that ran part of a pair elsewhere breaks that).
   * Measures whose eval left no provenance (an older run dir) are not judged.
   */
  #checkOneHost(measures: readonly Measure[]): void {
    for (const u of this.units(measures)) {
      if (u.mode === "one") continue;
      const hosts = u.members.map((m) => ({ m, host: readProvenance(this.evalDir(m))?.host ?? "" }))
        .filter((h) => h.host !== "");
      if (new Set(hosts.map((h) => h.host)).size > 1) {
        const where = hosts.map((h) => `${h.m.name} on ${JSON.stringify(h.host)}`).join(", ");
        throw new EvalError(
          `pair ${u.pair}: its ${u.mode} job's measures ran on different hosts (${where}), so they are no pair; ` +
            "measure again in a new run dir",
        );
      }
    }
  }

  /**
   * The job an earlier, unrecorded dispatch of `m` submitted, now recorded as
   * its marker; null when there was no earlier dispatch (no job script) or it
   * submitted nothing; "unknown" when the scheduler cannot say.
   */
  async #earlierJob(u: DispatchUnit): Promise<string | null | "unknown"> {
    const what = unitWords(u);
    if (u.mode !== "one") {
      // a pass that died between the pair job's marker writes left its id beside some of its measures
      const known = u.members.map((m) => this.marker(m)).find((id) => id !== "");
      if (known !== undefined) {
        this.#mark(u, known);
        return known;
      }
    }
    let written: number;
    try {
      written = statSync(join(this.#unitDir(u), UNIT_FILES.script)).mtimeMs;
    } catch {
      return null;
    }
    let ids: string[];
    try {
      ids = await this.#o.compute.findSubmitted(this.unitJobName(u), new Date(written - ADOPT_MARGIN_MS));
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      log.warn(`cannot tell whether ${what} was submitted before, re-checking on the next pass: ${err.message}`);
      return "unknown";
    }
    const jobId = ids[0];
    if (jobId === undefined) return null;
    this.#mark(u, jobId);
    log.warn(`${what} was submitted as job ${jobId} by a pass that did not record it: using that job`);
    return jobId;
  }

  /** Records a unit's job id: the pair job's own marker first, then each of its measures'. */
  #mark(u: DispatchUnit, jobId: string): void {
    if (u.mode !== "one") atomicWriteFile(join(this.#unitDir(u), UNIT_FILES.submitted), jobId);
    for (const m of u.members) atomicWriteFile(join(this.evalDir(m), EVAL_FILES.submitted), jobId);
  }

  /**
   * Writes the unit's job — each measure's eval job script, and for a pair
   * the pair job's script that runs them — submits it, records its id; the id.
   * A unit of one measure is the reference's dispatch exactly.
   */
  async #dispatch(u: DispatchUnit): Promise<string> {
    this.#o.beforeDispatch?.();
    const first = u.members[0]!;
    const { account, partition } = placement(this.#o.lanes, first.gpus, capitalized(unitWords(u)));
    const scripts = u.members.map((m) =>
      writeEvalJob(this.#o.root, this.slot(m), {
        repoRoot: this.#o.repoRoot,
        snapshotSha: m.treeSha,
        command: m.command,
        image: this.#o.image,
        extraEnv: measureEnv(m),
        gpus: m.gpus,
        seedCache: this.#o.seedCache,
      })
    );
    const size = unitResources(u, this.#o);
    const script = u.mode === "one" ? scripts[0]! : writePairJob(this.#unitDir(u), u.mode, scripts);
    const spec = evalJobSpec(script, {
      jobName: this.unitJobName(u),
      account,
      partition,
      evalMinutes: size.minutes,
      mem: size.mem,
      cpus: size.cpus,
      gpus: size.gpus,
    });
    const jobId = await this.#o.compute.submit(spec);
    this.#mark(u, jobId);
    const shas = [...new Set(u.members.map((m) => m.treeSha.slice(0, 12)))].join(", ");
    log.info(`dispatched ${unitWords(u)} (sha ${shas}) as job ${jobId}`);
    return jobId;
  }

  /** A job that ENDED right after submit without a result will never deliver: fail, don't park. */
  async #failInstantDeaths(dispatched: readonly { m: Measure; jobId: string }[]): Promise<void> {
    if (dispatched.length === 0) return;
    let states: Map<string, string>;
    try {
      states = await this.#o.compute.statuses(dispatched.map((d) => d.jobId), this.#since([]));
    } catch {
      return; // status unknown right after submit is normal: park
    }
    for (const { m, jobId } of dispatched) {
      const state = states.get(jobId) ?? "";
      if (state && isTerminal(state) && !this.done(m)) {
        throw new EvalError(`measure ${m.name}: ${noResultMessage(jobId, state, this.#o.evalMinutes)}`);
      }
    }
  }

  /** Reads every value; exit-143 failures are explained from one batched sacct. */
  async #readAll(measures: readonly Measure[]): Promise<Record<string, number>> {
    const killed = measures.filter((m) => this.#exitCode(m) === "143");
    const ids = killed.map((m) => this.marker(m)).filter(isJobId);
    let states = new Map<string, string>();
    if (ids.length > 0) {
      try {
        states = await this.#o.compute.statuses(ids, this.#since(killed));
      } catch {
        // unexplained: the signal message below says so
      }
    }
    const out: Record<string, number> = {};
    for (const m of measures) {
      try {
        out[m.name] = readEvalResult(this.#o.root, this.slot(m), m.metric, m.summary);
      } catch (err) {
        if (!(err instanceof EvalError)) throw err;
        const killedBySignal = this.#exitCode(m) === "143";
        throw new EvalError(
          killedBySignal
            ? explainSignalExit(m.name, states.get(this.marker(m)) ?? "", err.message, this.#o.evalMinutes)
            : `measure ${m.name}: ${err.message}`,
        );
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

  /** Whether `m`'s marker was written less than `ms` ago. */
  #markedWithin(m: Measure, ms: number): boolean {
    try {
      return this.#o.now() - statSync(join(this.evalDir(m), EVAL_FILES.submitted)).mtimeMs < ms;
    } catch {
      return false;
    }
  }

  /** sacct's lower bound: before the earliest marker of these measures (or now). */
  #since(ms: readonly Measure[]): Date {
    let earliest = this.#o.now();
    for (const m of ms) {
      try {
        earliest = Math.min(earliest, statSync(join(this.evalDir(m), EVAL_FILES.submitted)).mtimeMs);
      } catch {
        // no marker
      }
    }
    return new Date(earliest - SINCE_MARGIN_MS);
  }
}

function readMarker(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

/** A unit in a log line: `measure candidate#2`, or `the same-job of pair 2 (baseline#2, candidate#2)`. */
function unitWords(u: DispatchUnit): string {
  if (u.mode === "one") return `measure ${u.members[0]!.name}`;
  return `the ${u.mode} job of pair ${u.pair} (${u.members.map((m) => m.name).join(", ")})`;
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
