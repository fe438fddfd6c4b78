import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { arrayChunks, DEFAULT_MAX_ARRAY_SIZE, splitRef, taskRef } from "../compute/array.ts";
import { type Compute, isJobId, isJobRef, isTaskId, type LiveJob } from "../compute/compute.ts";
import { SlurmQueryError, SubmitLimitError } from "../compute/errors.ts";
import { type JobSpec, withDefaults } from "../compute/job_spec.ts";
import {
  ARRAY_FILES,
  ARRAY_OUTPUT,
  type ArrayManifest,
  markArrayJob,
  readArrayJobs,
  writeArrayJob,
} from "../dispatch/array_job.ts";
import { writeRoomNote } from "../dispatch/room_note.ts";
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
import { arrayJobName, jobName, slot, unitJobName, unitSlot } from "./identity.ts";
import { type Measure, measureEnv } from "./measure.ts";
import { classifyMeasure, type MeasureState, type Observation } from "./measure_state.ts";
import { noResultMessage } from "./notes.ts";
import { MeasurementPending } from "./pending.ts";
import { type Lanes, placement } from "./placement.ts";
import { forgetDeadJob, MAX_RETRIES, retriedJobs, retryNumber } from "./retry.ts";
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
  /**
   * Job arrays (dispatch/array_job.ts): when enabled, the units a pass
   * dispatches that share their sbatch options go out as one `sbatch --array`
   * (chunked at the site's MaxArraySize), at most `throttle` tasks running at
   * once when set. Off: one job per unit, the reference's dispatch.
   */
  readonly arrays?: { readonly enabled: boolean; readonly throttle: number | null };
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
  /** The run dir's job arrays (their manifests), read at each `observe`. */
  #arrays: ArrayManifest[] | null = null;
  #maxArray: number | null = null;
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
    this.#arrays = readArrayJobs(this.#o.root);
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
    const rows = listing === "unknown" ? [] : [...listing.values()].flat();
    const byId = new Map(rows.map((j) => [j.id, j]));
    const liveArrays = new Set(rows.flatMap((j) => (j.arrayId === null ? [] : [j.arrayId])));
    const listedOf = (m: Measure): LiveJob | null | "unknown" => {
      if (listing === "unknown") return "unknown";
      const marker = this.marker(m);
      if (isTaskId(marker)) return byId.get(marker) ?? null;
      const task = this.#taskOf(this.#unit(m));
      if (task !== null) {
        const name = arrayJobName(this.#o.runTag, task.array.hash);
        return listing.get(name)?.find((j) => j.taskId === task.index) ?? null;
      }
      return listing.get(this.unitJobName(this.#unit(m)))?.[0] ?? null;
    };
    const unlisted = open.filter((m) => !this.done(m) && listedOf(m) === null && isJobRef(this.marker(m)));
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
      const { jobId: arrayId } = splitRef(marker);
      const record = accounted === "unknown" ? undefined : accounted.get(marker);
      // no record yet is not gone: a job submitted moments ago, or a task whose array is still listed
      const unknownWhy = listing === "unknown" || accounted === "unknown" || record !== undefined
        ? undefined
        : liveArrays.has(arrayId) && arrayId !== marker
        ? `array job ${arrayId} is queued; this task is not listed yet`
        : this.#markedWithin(measure, NO_RECORD_GRACE_MS)
        ? "just submitted; not in the queue listing yet"
        : undefined;
      const observation: Observation = {
        done: this.done(measure),
        marker,
        listed: listedOf(measure),
        accounted: accounted === "unknown" ? "unknown" : record ?? (unknownWhy === undefined ? "GONE" : "unknown"),
        ...(unknownWhy === undefined ? {} : { unknownWhy }),
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
    const views = (await this.observe(measures)).map((v) => this.#retryIfMachineDied(v));
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
    const toDispatch: DispatchUnit[] = [];
    for (const { measure: m, state } of inOrder) {
      if (state.kind === "live") {
        pending.push(state.job.arrayId ?? state.job.id);
        if (!runsFrom(state.job, this.#o.root)) {
          log.warn(
            `measure ${m.name} waits on job ${state.job.id}, which has its job name but runs ` +
              `${JSON.stringify(state.job.script)}, outside this run dir: another run with the same run tag and ` +
              "the same measure; this one is dispatched here once that job ends (give runs distinct --run-tag values)",
          );
        }
      } else if (state.kind === "unlisted") pending.push(splitRef(state.jobId).jobId);
      else if (state.kind === "unknown") {
        if (state.jobId) pending.push(splitRef(state.jobId).jobId);
        else blind = true;
      } else if (state.kind === "undispatched") {
        // the reference's residual (a submitter that died between sbatch and the
        // marker write, whose orphan then died without a result, redispatched
        // once) is closed here: that orphan is found by name and adopted. A pair
        // job is dispatched once for all its measures
        const u = this.#unit(m);
        if (handled.has(u)) continue;
        const earlier = await this.#earlierJob(u);
        handled.set(u, earlier === "unknown" ? "blind" : earlier ?? "");
        if (earlier === "unknown") blind = true;
        else if (earlier !== null) {
          // an adopted job may have ended already: checked with the fresh ones, below
          for (const member of u.members) if (!this.done(member)) dispatched.push({ m: member, jobId: earlier });
        } else toDispatch.push(u);
      }
    }
    const sent = await this.#dispatchAll(toDispatch);
    for (const [u, jobId] of sent.jobs) {
      for (const m of u.members) if (!this.done(m)) dispatched.push({ m, jobId }); // a synchronous backend finishes inside submit
    }
    if (sent.waiting.length > 0) {
      const room = sent.limit;
      log.info(
        `${sent.waiting.length} job(s) wait for room under the site's submit limit (${room}): submitted on a later ` +
          "pass, once jobs end",
      );
      if (pending.length === 0 && dispatched.length === 0) blind = true; // nothing to wait on: a deadline wake
    }
    writeRoomNote(
      this.#o.root,
      sent.waiting.length > 0
        ? { limit: sent.limit, waiting: sent.waiting.length, at: new Date(this.#o.now()).toISOString() }
        : null,
    );
    await this.#failInstantDeaths(dispatched);
    pending.push(...dispatched.map((d) => splitRef(d.jobId).jobId));
    if (pending.length > 0 || blind || sent.waiting.length > 0) throw new MeasurementPending([...new Set(pending)]);
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
    const task = this.#taskOf(u);
    if (task !== null) {
      // in an array's manifest: its task, once the array is known to have been submitted
      const arrayId = await this.#arraySubmitted(task.array);
      if (arrayId === "unknown") return "unknown";
      const ref = arrayId === null ? null : taskRef(arrayId, task.index);
      // a task that died of its machine before it started is being sent again: never adopted
      if (ref !== null && !this.#retried(u).has(ref)) {
        this.#mark(u, ref);
        return ref;
      }
    }
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
    const jobId = ids.find((id) => !this.#retried(u).has(id));
    if (jobId === undefined) return null;
    this.#mark(u, jobId);
    log.warn(`${what} was submitted as job ${jobId} by a pass that did not record it: using that job`);
    return jobId;
  }

  /** Records a unit's job id: the pair job's own marker first, then each of its measures'. */
  /** The jobs of `u`'s measures that died of their machine and are not theirs any more (retry.ts). */
  #retried(u: DispatchUnit): Set<string> {
    return new Set(u.members.flatMap((m) => retriedJobs(this.evalDir(m))));
  }

  #mark(u: DispatchUnit, jobId: string): void {
    if (u.mode !== "one") atomicWriteFile(join(this.#unitDir(u), UNIT_FILES.submitted), jobId);
    for (const m of u.members) atomicWriteFile(join(this.evalDir(m), EVAL_FILES.submitted), jobId);
  }

  /** Writes the unit's job — each measure's eval job script, and for a pair the pair job's — and its spec. */
  #prepare(u: DispatchUnit): JobSpec {
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
    return evalJobSpec(script, {
      jobName: this.unitJobName(u),
      account,
      partition,
      evalMinutes: size.minutes,
      mem: size.mem,
      cpus: size.cpus,
      gpus: size.gpus,
    });
  }

  /**
   * Dispatches `units`, in order: one job each, or — with arrays on and two
   * or more units sharing their sbatch options — one array per option set
   * (and per MaxArraySize chunk), its manifest written before the sbatch. A
   * submission a site's submit limit refuses is sized down to the room left
   * (one kept for the wake) and the rest left for a later pass (`waiting`);
   * the run parks, it does not fail. The job (or `A_T`) each unit got.
   */
  async #dispatchAll(units: readonly DispatchUnit[]): Promise<{
    readonly jobs: ReadonlyMap<DispatchUnit, string>;
    readonly waiting: readonly DispatchUnit[];
    readonly limit: string;
  }> {
    const jobs = new Map<DispatchUnit, string>();
    const waiting: DispatchUnit[] = [];
    let limit = "";
    const arrays = this.#o.arrays?.enabled === true;
    const groups = new Map<string, { spec: JobSpec; units: DispatchUnit[] }>();
    for (const u of units) {
      if (waiting.length > 0) {
        waiting.push(u); // the limit is reached: the rest waits, in order
        continue;
      }
      const spec = this.#prepare(u);
      if (!arrays) {
        try {
          jobs.set(u, await this.#submitOne(u, spec));
        } catch (err) {
          if (!(err instanceof SubmitLimitError)) throw err;
          waiting.push(u);
          limit = err.limit;
        }
        continue;
      }
      const key = optionKey(spec);
      const g = groups.get(key) ?? { spec, units: [] };
      g.units.push(u);
      groups.set(key, g);
    }
    if (!arrays) return { jobs, waiting, limit };
    const maxSize = groups.size > 0 ? await this.#maxArraySize() : 1;
    for (const { spec, units: members } of groups.values()) {
      let rest = [...members];
      for (const size of arrayChunks(members.length, maxSize)) {
        const chunk = rest.slice(0, size);
        rest = rest.slice(size);
        if (waiting.length > 0) {
          waiting.push(...chunk);
          continue;
        }
        const sent = await this.#submitChunk(chunk, spec);
        for (const [u, ref] of sent.jobs) jobs.set(u, ref);
        if (sent.waiting.length > 0) {
          waiting.push(...sent.waiting);
          limit = sent.limit;
        }
      }
    }
    return { jobs, waiting, limit };
  }

  /** One unit as a job of its own. */
  async #submitOne(u: DispatchUnit, spec: JobSpec): Promise<string> {
    const jobId = await this.#o.compute.submit(spec);
    this.#mark(u, jobId);
    const shas = [...new Set(u.members.map((m) => m.treeSha.slice(0, 12)))].join(", ");
    log.info(`dispatched ${unitWords(u)} (sha ${shas}) as job ${jobId}`);
    return jobId;
  }

  /**
   * A chunk of units sharing `spec`'s options: one unit alone is a job of its
   * own; more are one array. Refused for a submit limit, the chunk is sized
   * to the room left less one (the wake must still fit) and sent again once;
   * what does not fit waits.
   */
  async #submitChunk(chunk: readonly DispatchUnit[], spec: JobSpec): Promise<{
    readonly jobs: ReadonlyMap<DispatchUnit, string>;
    readonly waiting: readonly DispatchUnit[];
    readonly limit: string;
  }> {
    const send = async (units: readonly DispatchUnit[]): Promise<Map<DispatchUnit, string>> => {
      if (units.length === 1) return new Map([[units[0]!, await this.#submitOne(units[0]!, spec)]]);
      return await this.#submitArray(units, spec);
    };
    try {
      return { jobs: await send(chunk), waiting: [], limit: "" };
    } catch (err) {
      if (!(err instanceof SubmitLimitError)) throw err;
      let room: number | null = null;
      let limit = err.limit;
      try {
        const r = await this.#o.compute.submitRoom(spec);
        if (r !== null) {
          room = r.jobs;
          limit = r.limit;
        }
      } catch {
        // unknown room: submit nothing more this pass
      }
      const fit = room === null ? 0 : Math.min(chunk.length - 1, room - 1);
      if (fit < 1) return { jobs: new Map(), waiting: [...chunk], limit };
      try {
        return { jobs: await send(chunk.slice(0, fit)), waiting: chunk.slice(fit), limit };
      } catch (again) {
        if (!(again instanceof SubmitLimitError)) throw again;
        return { jobs: new Map(), waiting: [...chunk], limit: again.limit };
      }
    }
  }

  /** Units as ONE job array: the manifest written first, then the sbatch, then the array's id and each unit's `A_T`. */
  async #submitArray(units: readonly DispatchUnit[], spec: JobSpec): Promise<Map<DispatchUnit, string>> {
    // an array that sends measures again after their jobs died (retry.ts) says so in its manifest: never the
    // manifest, nor so the name, of the array they died in
    const after = [...new Set(units.flatMap((u) => [...this.#retried(u)]))].sort();
    const scripts = units.map((u) => withDefaults(this.#prepareSpecOf(u, spec)).script);
    const array = writeArrayJob(this.#o.root, scripts, after);
    const arraySpec: JobSpec = {
      ...spec,
      jobName: arrayJobName(this.#o.runTag, array.hash),
      script: join(array.dir, ARRAY_FILES.script),
      output: join(array.dir, ARRAY_OUTPUT),
    };
    const throttle = this.#o.arrays?.throttle ?? undefined;
    const arrayId = await this.#o.compute.submitArray(arraySpec, units.length, throttle ?? undefined);
    this.#arrays = [...(this.#arrays ?? []).filter((a) => a.dir !== array.dir), markArrayJob(array, arrayId)];
    const jobs = new Map<DispatchUnit, string>();
    units.forEach((u, i) => {
      const ref = taskRef(arrayId, i);
      this.#mark(u, ref);
      jobs.set(u, ref);
    });
    log.info(
      `dispatched ${units.length} job(s) as one job array ${arrayId}, tasks 0-${units.length - 1}: ${
        units.map((u) => unitWords(u)).join("; ")
      }`,
    );
    return jobs;
  }

  /** The spec of a unit prepared with `spec`'s options: its own script. */
  #prepareSpecOf(u: DispatchUnit, spec: JobSpec): JobSpec {
    return { ...spec, script: join(this.#unitDir(u), u.mode === "one" ? EVAL_FILES.script : UNIT_FILES.script) };
  }

  /** The site's MaxArraySize, asked once per measurer; 1001 (Slurm's default) when it cannot be read. */
  async #maxArraySize(): Promise<number> {
    if (this.#maxArray === null) {
      try {
        this.#maxArray = await this.#o.compute.maxArraySize();
      } catch (err) {
        log.warn(
          `cannot read the site's MaxArraySize, taking Slurm's default ${DEFAULT_MAX_ARRAY_SIZE}: ${
            (err as Error).message
          }`,
        );
        this.#maxArray = DEFAULT_MAX_ARRAY_SIZE;
      }
    }
    return this.#maxArray;
  }

  /** The array (and index) whose manifest holds `u`'s job script, newest first; null when none does. */
  #taskOf(u: DispatchUnit): { readonly array: ArrayManifest; readonly index: number } | null {
    const script = join(this.#unitDir(u), u.mode === "one" ? EVAL_FILES.script : UNIT_FILES.script);
    const arrays = this.#arrays ?? [];
    for (let i = arrays.length - 1; i >= 0; i--) {
      const index = arrays[i]!.scripts.indexOf(script);
      if (index >= 0) return { array: arrays[i]!, index };
    }
    return null;
  }

  /**
   * The id of an array whose manifest was written: recorded, or — when a pass
   * died before recording it — found by its name (and then recorded); null
   * when it was never submitted (the stale manifest is then removed, so its
   * units go out afresh), "unknown" when the scheduler cannot say.
   */
  async #arraySubmitted(a: ArrayManifest): Promise<string | null | "unknown"> {
    if (a.submitted !== null) return a.submitted;
    let ids: string[];
    try {
      ids = await this.#o.compute.findSubmitted(
        arrayJobName(this.#o.runTag, a.hash),
        new Date(a.writtenMs - ADOPT_MARGIN_MS),
      );
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      log.warn(`cannot tell whether the array of ${a.dir} was submitted, re-checking on the next pass: ${err.message}`);
      return "unknown";
    }
    const arrayId = ids[0];
    if (arrayId === undefined) {
      rmSync(a.dir, { recursive: true, force: true });
      this.#arrays = (this.#arrays ?? []).filter((x) => x.dir !== a.dir);
      return null;
    }
    const marked = markArrayJob(a, arrayId);
    this.#arrays = [...(this.#arrays ?? []).filter((x) => x.dir !== a.dir), marked];
    log.warn(`the array of ${a.dir} was submitted as ${arrayId} by a pass that did not record it: using it`);
    return arrayId;
  }

  /**
   * A measure whose job died of its machine (retry.ts) before any measure of
   * its unit started, and that has retries left, is forgotten as dispatched
   * — to be sent again in this pass's dispatch, in a new array — rather than
   * failing the run.
   */
  #retryIfMachineDied(v: MeasureView): MeasureView {
    const { measure: m, state } = v;
    if (state.kind !== "vanished") return v;
    const u = this.#unit(m);
    const dirs = u.members.map((x) => this.evalDir(x));
    const retry = retryNumber(dirs, this.evalDir(m), state.jobId, state.endState);
    if (retry === null) return v;
    forgetDeadJob(dirs, u.mode === "one" ? null : join(this.#unitDir(u), UNIT_FILES.submitted), state.jobId);
    log.warn(
      `measure ${m.name}: job ${state.jobId} ended ${state.endState} before its eval started: sent again ` +
        `(retry ${retry} of ${MAX_RETRIES})`,
    );
    return { ...v, state: { kind: "undispatched" } };
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

/** What makes two units' jobs one array: every sbatch option but the job's name and script. */
function optionKey(spec: JobSpec): string {
  const { jobName: _name, script: _script, output: _output, ...options } = withDefaults(spec);
  return JSON.stringify(options);
}
