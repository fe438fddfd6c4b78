import { scaleMemory } from "../compute/job_spec.ts";
import type { Pairing } from "../contract/contract.ts";
import { clampMinutes } from "../dispatch/eval_job_spec.ts";
import type { Measure } from "./measure.ts";
import { BASE_ARM, parseMeasureName } from "./measure_name.ts";

/**
 * What one job runs: a dispatch unit. With the contract's `pairing`:
 *
 * - `separate` (the default, the reference's dispatch): every measure is a
 *   unit of its own (`one`), with the reference's eval dir, job name and
 *   job script, byte for byte;
 * - `same-job`: the measures of one pair — the benchmark's baseline and
 *   candidate, then each sibling's — are one unit, run one after the other
 *   in one job on one node, each in its own fresh checkout; the order
 *   alternates with the pair, base first in odd pairs and candidate first in
 *   even ones, so a drift within the job cancels over the pairs;
 * - `duet`: the same measures run two at a time, a base beside its candidate,
 *   each pinned to its half of the job's CPUs; which half alternates with
 *   the pair as the order does for `same-job`.
 *
 * Each measure keeps its own slot, eval dir, result and identity whatever the
 * pairing; the unit adds a job (name, script, marker) that runs them. A
 * pair's measures that need different lanes (a sibling with GPUs beside a
 * benchmark without) cannot share a job: each lane's measures of a pair are
 * a unit of their own.
 */
export interface DispatchUnit {
  /** `one`: a measure alone; `same-job` / `duet`: a pair's measures, as above. */
  readonly mode: "one" | Exclude<Pairing, "separate">;
  /**
   * The measures in run order: one after the other for `same-job`; for
   * `duet`, two at a time — members 0 and 1 at once, then 2 and 3, … — the
   * first of each two on the first half of the CPUs.
   */
  readonly members: readonly Measure[];
  /** The pair the unit measures, 1-based. */
  readonly pair: number;
}

/**
 * The units that run `measures` under `pairing`, in the measures' order.
 * `measures` must hold whole pairs (every base with its candidate) for a
 * pairing other than `separate`: a `TypeError` otherwise (a caller bug: the
 * contract refuses a cached baseline with these pairings).
 */
export function dispatchUnits(measures: readonly Measure[], pairing: Pairing): DispatchUnit[] {
  if (pairing === "separate") {
    const units = measures.map((m): DispatchUnit => ({
      mode: "one",
      members: [m],
      pair: parseMeasureName(m.name)?.pair ?? 1,
    }));
    return inDispatchOrder(units);
  }
  const groups = new Map<string, Measure[]>();
  for (const m of measures) {
    const ref = parseMeasureName(m.name);
    if (ref === null) throw new TypeError(`Cannot pair measure ${JSON.stringify(m.name)}: not a measure name`);
    const key = `${ref.pair}\0${m.gpus > 0 ? "gpu" : "cpu"}`;
    const list = groups.get(key) ?? [];
    list.push(m);
    groups.set(key, list);
  }
  return [...groups.values()].map((list) => {
    const pair = parseMeasureName(list[0]!.name)!.pair;
    return { mode: pairing, members: inRunOrder(list, pair), pair };
  });
}

/**
 * Units of one measure each in the order to dispatch them: pair by pair, each
 * benchmark's base before its candidate in odd pairs and after it in even
 * ones, as a same-job runs them — on a backend that runs jobs in the order
 * they come (the local one; a free cluster), a drift over the climb then
 * cancels over the pairs instead of favouring one side. Pair 1 keeps the
 * plan's order: a one-pair run is dispatched as the reference dispatches it.
 * A measure whose name this module does not read keeps its place.
 */
function inDispatchOrder(units: readonly DispatchUnit[]): DispatchUnit[] {
  const groups = new Map<string, number>();
  const key = (u: DispatchUnit, i: number): [number, number, number, number] => {
    const ref = parseMeasureName(u.members[0]!.name);
    if (ref === null) return [0, i, 0, i];
    const group = ref.sibling ?? "";
    if (!groups.has(group)) groups.set(group, groups.size);
    const first = ref.pair % 2 === 1 ? ref.arm === BASE_ARM : ref.arm !== BASE_ARM;
    return [ref.pair, groups.get(group)!, first ? 0 : 1, ref.arm];
  };
  const keyed = units.map((u, i) => ({ u, k: key(u, i) }));
  const cmp = (a: readonly number[], b: readonly number[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  };
  return keyed.sort((a, b) => cmp(a.k, b.k)).map((x) => x.u);
}

/**
 * A pair's measures in run order: each benchmark's (the climbed one's, then
 * each sibling's, in plan order) base and candidates, rotated by the pair —
 * base first in pair 1, its candidate first in pair 2, … — so each arm runs
 * first as often as the others and a drift within the job cancels over the
 * pairs. With one candidate: base/candidate twos, the two swapped in even
 * pairs. A base without a candidate beside it is a `TypeError` (a caller bug).
 */
function inRunOrder(list: readonly Measure[], pair: number): Measure[] {
  const groups = new Map<string, Measure[]>();
  for (const m of list) {
    const key = parseMeasureName(m.name)!.sibling ?? "\0benchmark";
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].flatMap((g) => {
    const byArm = [...g].sort((a, b) => parseMeasureName(a.name)!.arm - parseMeasureName(b.name)!.arm);
    if (byArm.length < 2 || parseMeasureName(byArm[0]!.name)!.arm !== BASE_ARM) {
      const names = g.map((m) => JSON.stringify(m.name)).join(", ");
      throw new TypeError(`Cannot pair the measures ${names}: a base needs its candidates beside it`);
    }
    const shift = (pair - 1) % byArm.length;
    return [...byArm.slice(shift), ...byArm.slice(0, shift)];
  });
}

/**
 * What a unit's job asks for, from one measure's needs: a `same-job` unit
 * runs its measures one after the other, so its walltime is theirs added up;
 * a `duet` runs two at once, so it needs twice the CPUs and memory for half
 * that time. GPUs: the most any member needs (a duet has none: the contract
 * refuses it).
 */
export function unitNeeds(
  u: DispatchUnit,
  one: { readonly minutes: number; readonly cpus: number },
): { readonly minutes: number; readonly cpus: number; readonly memFactor: number; readonly gpus: number } {
  const gpus = Math.max(...u.members.map((m) => m.gpus));
  if (u.mode === "duet") {
    return { minutes: one.minutes * (u.members.length / 2), cpus: one.cpus * 2, memFactor: 2, gpus };
  }
  return { minutes: one.minutes * u.members.length, cpus: one.cpus, memFactor: 1, gpus };
}

/** What one measure's job asks for: the contract's `eval_minutes`, `eval_mem` and `eval_cpus`. */
export interface EvalSize {
  readonly evalMinutes: number;
  readonly evalMem: string;
  readonly evalCpus: number;
}

/**
 * What a unit's job asks the scheduler for (`unitNeeds` of the contract's
 * sizes): walltime in whole minutes (each measure's clamped as a job of its
 * own would be), memory as a Slurm size, CPUs and GPUs. `measure --dry-run`
 * prints it; the measurer submits it.
 */
export function unitResources(
  u: DispatchUnit,
  size: EvalSize,
): { readonly minutes: number; readonly mem: string; readonly cpus: number; readonly gpus: number } {
  const needs = unitNeeds(u, { minutes: clampMinutes(size.evalMinutes), cpus: size.evalCpus });
  return {
    minutes: needs.minutes,
    mem: scaleMemory(size.evalMem, needs.memFactor),
    cpus: needs.cpus,
    gpus: needs.gpus,
  };
}
