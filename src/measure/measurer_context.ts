import { join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import type { Pairing } from "../contract/contract.ts";
import { type ArrayManifest, readArrayJobs } from "../dispatch/array_job.ts";
import { EVAL_FILES, evalDirPath, UNIT_FILES, unitDirPath } from "../dispatch/eval_files.ts";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { type DispatchUnit, dispatchUnits } from "./dispatch_unit.ts";
import { EvalDirState, readMarker } from "./eval_dir_state.ts";
import { jobName, slot, unitJobName, unitSlot } from "./identity.ts";
import type { Measure } from "./measure.ts";
import type { Lanes } from "./placement.ts";

/** sacct's `-S` bound sits this far before the earliest submission, for clock skew. */
const SINCE_MARGIN_MS = 10 * 60_000;

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

/**
 * What the measurer's concerns (observe, dispatch, recovery, retries,
 * results) share within one pass: the options, the run dir's arrays, each
 * measure's unit, and each eval dir's state read once (`EvalDirState`).
 * `beginPass` starts a pass afresh: nothing read by an earlier one is kept.
 */
export class MeasurerContext {
  readonly o: MeasurerOptions;
  /** The run dir's job arrays (their manifests), read at each pass. */
  arrays: ArrayManifest[] = [];
  /** The site's MaxArraySize, asked once per measurer. */
  maxArray: number | null = null;
  readonly #unitOf = new Map<string, DispatchUnit>();
  /** Each measure's slot and job name, hashed once per measurer (a pass asks for them again and again). */
  readonly #ids = new WeakMap<Measure, { readonly slot: string; readonly dir: string; jobName?: string }>();
  readonly #unitIds = new WeakMap<DispatchUnit, { readonly dir: string; jobName?: string }>();
  #lastUnits: { readonly of: readonly Measure[]; readonly units: DispatchUnit[] } | null = null;
  #dirs = new Map<string, EvalDirState>();
  #unitMarkers = new Map<string, string>();

  constructor(options: MeasurerOptions) {
    this.o = options;
  }

  /** Starts a pass over `measures`: their units, the arrays, and no file remembered. */
  beginPass(measures: readonly Measure[]): void {
    this.clearReads();
    this.units(measures);
    this.arrays = readArrayJobs(this.o.root);
  }

  /** Forgets every file read so far: the next question reads afresh. */
  clearReads(): void {
    this.#dirs = new Map();
    this.#unitMarkers = new Map();
  }

  /** The units that run `measures`, remembered for `unit`. */
  units(measures: readonly Measure[]): DispatchUnit[] {
    if (this.#lastUnits?.of === measures) return this.#lastUnits.units;
    const units = dispatchUnits(measures, this.o.pairing);
    this.#lastUnits = { of: measures, units };
    for (const u of units) for (const m of u.members) this.#unitOf.set(m.name, u);
    return units;
  }

  /** The unit that runs `m`: its own unless a pass's `units` put it in a pair's. */
  unit(m: Measure): DispatchUnit {
    return this.#unitOf.get(m.name) ?? { mode: "one", members: [m], pair: 1 };
  }

  slot(m: Measure): string {
    return this.#idsOf(m).slot;
  }

  jobName(m: Measure): string {
    const ids = this.#idsOf(m);
    return ids.jobName ??= jobName(this.o.runTag, this.o.image, m);
  }

  unitJobName(u: DispatchUnit): string {
    if (u.mode === "one") return this.jobName(u.members[0]!);
    const ids = this.#unitIdsOf(u);
    return ids.jobName ??= unitJobName(this.o.runTag, this.o.image, u);
  }

  evalDir(m: Measure): string {
    return this.#idsOf(m).dir;
  }

  /** A unit's dir: a lone measure's eval dir, or a pair job's own (`pair<i>-<hex>`). */
  unitDir(u: DispatchUnit): string {
    if (u.mode === "one") return this.evalDir(u.members[0]!);
    return this.#unitIdsOf(u).dir;
  }

  #idsOf(m: Measure): { readonly slot: string; readonly dir: string; jobName?: string } {
    let ids = this.#ids.get(m);
    if (ids === undefined) {
      const s = slot(this.o.image, m);
      this.#ids.set(m, ids = { slot: s, dir: evalDirPath(this.o.root, s) });
    }
    return ids;
  }

  #unitIdsOf(u: DispatchUnit): { readonly dir: string; jobName?: string } {
    let ids = this.#unitIds.get(u);
    if (ids === undefined) {
      this.#unitIds.set(u, ids = { dir: unitDirPath(this.o.root, unitSlot(this.o.image, u), false) });
    }
    return ids;
  }

  /** The job script a unit's job runs. */
  unitScript(u: DispatchUnit): string {
    return join(this.unitDir(u), u.mode === "one" ? EVAL_FILES.script : UNIT_FILES.script);
  }

  /** The pair job's marker file, or null for a unit of one. */
  unitMarkerPath(u: DispatchUnit): string | null {
    return u.mode === "one" ? null : join(this.unitDir(u), UNIT_FILES.submitted);
  }

  /** `m`'s eval dir as this pass read it (each file at most once). */
  dir(m: Measure): EvalDirState {
    const path = this.evalDir(m);
    let s = this.#dirs.get(path);
    if (s === undefined) this.#dirs.set(path, s = new EvalDirState(path));
    return s;
  }

  /** Finished: the job wrote its exit code. */
  done(m: Measure): boolean {
    return this.dir(m).exitCode !== null;
  }

  /**
   * The job id recorded at dispatch, or "": the measure's own marker, or for
   * a measure of a pair job, the pair job's (a crash between the pair's
   * marker writes leaves some members without theirs), else a member's.
   */
  marker(m: Measure): string {
    const own = this.dir(m).marker;
    const u = this.unit(m);
    if (own !== "" || u.mode === "one") return own;
    const path = this.unitMarkerPath(u)!;
    let unitMarker = this.#unitMarkers.get(path);
    if (unitMarker === undefined) this.#unitMarkers.set(path, unitMarker = readMarker(path));
    return unitMarker || u.members.map((x) => this.dir(x).marker).find((id) => id !== "") || "";
  }

  /** Records a unit's job id: the pair job's own marker first, then each of its measures'. */
  mark(u: DispatchUnit, jobId: string): void {
    const path = this.unitMarkerPath(u);
    if (path !== null) {
      atomicWriteFile(path, jobId);
      this.#unitMarkers.set(path, jobId);
    }
    const at = this.o.now();
    for (const m of u.members) {
      atomicWriteFile(join(this.evalDir(m), EVAL_FILES.submitted), jobId);
      this.dir(m).marked(jobId, at);
    }
  }

  /** Forgets what this pass read of `u`'s dirs: the pass itself moved their files. */
  reread(u: DispatchUnit): void {
    for (const m of u.members) this.dir(m).forget();
    const path = this.unitMarkerPath(u);
    if (path !== null) this.#unitMarkers.delete(path);
  }

  /** The jobs of `u`'s measures that are not theirs any more: sent again, or forgotten (attempts.ts). */
  setAside(u: DispatchUnit): Set<string> {
    return new Set(u.members.flatMap((m) => [...this.dir(m).retried, ...this.dir(m).forgotten]));
  }

  /** sacct's lower bound: before the earliest marker of these measures (or now). */
  since(ms: readonly Measure[]): Date {
    let earliest = this.o.now();
    for (const m of ms) earliest = Math.min(earliest, this.dir(m).markerMs ?? earliest);
    return new Date(earliest - SINCE_MARGIN_MS);
  }
}
