import { type Measure, seedEnvEntries, siblingEnv, type SiblingSpec } from "./measure.ts";
import { validateName } from "../contract/names.ts";
import type { Summary } from "../stats/samples.ts";
import { BASE_ARM, benchmarkName, CANDIDATE_ARM, pairMeasureName, siblingName } from "./measure_name.ts";

/** The contract facts and committed shas a plan is a pure function of. */
export interface PlanInput {
  readonly command: string;
  readonly metric: string;
  /** How the benchmark's samples become its value (default median). */
  readonly summary?: Summary;
  readonly baseSha: string;
  readonly candidateSha: string;
  /** The benchmark's seed variable; "" = it does not resample. */
  readonly seedEnv?: string;
  /** The drawn seed shared by the pair; 0 = none recorded, injects nothing. */
  readonly seed?: number;
  /** Suite siblings, each measured on base and candidate on its own seed var. */
  readonly siblings?: readonly SiblingSpec[];
  /** The climbed benchmark's GPUs. */
  readonly gpus?: number;
  /**
   * A round's candidates by arm (1 … K; arm 1's sha is `candidateSha`);
   * absent for one candidate: `[{ arm: 1, sha: candidateSha }]`.
   */
  readonly candidates?: readonly PlannedCandidate[];
}

/** One candidate of a plan: its arm (1 … K) and committed sha. */
export interface PlannedCandidate {
  readonly arm: number;
  readonly sha: string;
}

/**
 * The measures a climb needs, as a pure function of its committed shas and
 * contract facts — the same inputs a wake process reconstructs from the run
 * record, so the plan is identical before and after a park.
 *
 * Always `baseline` @ base and `candidate` @ candidate, paired on the same
 * seed (common random numbers). Then, per sibling in order,
 * `sib-<name>-base` @ base and `sib-<name>-cand` @ candidate on the
 * SIBLING's own seed var and GPUs — the reference's order exactly. A round
 * (K candidates, `candidates`) measures the baseline once and each of the
 * candidates `arms` (every one when absent) beside it, `candidate-k` @ its
 * sha, and each sibling's base once beside `sib-<name>-cand-k`.
 *
 * Unlike the reference, refuses a sibling name `validateName` rejects and a
 * sibling named twice: either would make two measures share a result key or
 * an eval dir escape the run dir.
 */
export function planMeasures(input: PlanInput, arms?: readonly number[]): Measure[] {
  const { command, metric, baseSha, candidateSha } = input;
  const gpus = input.gpus ?? 0;
  const env = seedEnvEntries(input.seedEnv ?? "", input.seed ?? 0);
  const summary = input.summary === undefined ? {} : { summary: input.summary };
  const all = input.candidates ?? [{ arm: CANDIDATE_ARM, sha: candidateSha }];
  const candidates = arms === undefined ? all : all.filter((c) => arms.includes(c.arm));
  const plan: Measure[] = [
    { name: benchmarkName(BASE_ARM), treeSha: baseSha, command, metric, ...summary, extraEnv: env, gpus },
    ...candidates.map((c): Measure => ({
      name: benchmarkName(c.arm),
      treeSha: c.sha,
      command,
      metric,
      ...summary,
      extraEnv: env,
      gpus,
    })),
  ];
  const seen = new Set<string>();
  for (const sib of input.siblings ?? []) {
    validateName("sibling", sib.name);
    if (seen.has(sib.name)) {
      throw new TypeError(
        `Sibling ${JSON.stringify(sib.name)} is listed twice: give each sibling one entry`,
      );
    }
    seen.add(sib.name);
    const facts = {
      command: sib.command,
      metric: sib.metric,
      ...(sib.summary === undefined ? {} : { summary: sib.summary }),
      extraEnv: siblingEnv(sib),
      gpus: sib.gpus,
    };
    plan.push({ name: siblingName(sib.name, BASE_ARM), treeSha: baseSha, ...facts });
    for (const c of candidates) plan.push({ name: siblingName(sib.name, c.arm), treeSha: c.sha, ...facts });
  }
  return plan;
}

/**
 * The measures of pairs 1 … `seeds.length`, pair by pair: pair i is
 * `planMeasures` on the seed `seeds[i - 1]` (the benchmark's and every
 * sibling's), its measures named `pairMeasureName(name, i)`. Pair 1 on the
 * run's seed is exactly `planMeasures` — a one-pair run is the reference's.
 */
export function planPairs(
  input: PlanInput,
  seeds: readonly number[],
  armsOf?: (pair: number) => readonly number[],
): Measure[] {
  return seeds.flatMap((seed, i) =>
    planMeasures({
      ...input,
      seed,
      siblings: (input.siblings ?? []).map((s) => ({ ...s, seed })),
    }, armsOf?.(i + 1)).map((m) => ({ ...m, name: pairMeasureName(m.name, i + 1) }))
  );
}
