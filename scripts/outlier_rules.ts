/**
 * The rules scripts/simulate_outliers.ts compares on the family of issue 31:
 * today's verdict (before), the calibrated fence (after: the contract's
 * `noise`, src/stats/calibrated_screen.ts), the bounds of this design (an
 * oracle told which pairs an outlier moved), and the levers the issue names,
 * each as it was measured. Kept beside the simulation so its tables can be
 * reproduced; nothing in src/ imports them.
 */
import type { Contract } from "../src/contract/contract.ts";
import type { DecideOptions } from "../src/verdict/decide.ts";
import { type IntervalMethod, type LocationInterval, STUDENT_T } from "../src/stats/location_interval.ts";
import { esdPairs, futilityBases, SCREENED_T } from "../src/stats/screened_t.ts";
import { calibratedT, fencedPairs } from "../src/stats/calibrated_screen.ts";
import { predictivePower } from "../src/stats/futility.ts";
import { suggestedNoise } from "../src/stats/power.ts";
import { designOf, finalLook } from "../src/stats/sequential.ts";
import { HODGES_LEHMANN, trimmedT } from "./verdict_candidates.ts";

/** What the climb's source knows: which pairs an outlier moved (the oracle's channel) and its A/A calibration. */
export interface PairTruth {
  moved: boolean[];
  /** An A/A calibration of the cell's noise, drawn from a stream of its own: each pair's improvement. */
  calibration: number[];
}

/** A rule: the verdict's options, the contract it judges under, and what the climb does before a look. */
export interface ClimbRule {
  readonly label: string;
  readonly options: DecideOptions;
  /** Called before every look with what the source knows. */
  readonly before?: (truth: PairTruth, c: Contract) => void;
  /** The contract the climb is judged under, given what the source knows (a calibration's noise). */
  readonly contract?: (c: Contract, truth: PairTruth) => Contract;
  /** Pairs (0-based) to measure again before this look (a fresh pair on the pair's seed); each at most once. */
  readonly remeasure?: (c: Contract, base: number[], cand: number[], redone: ReadonlySet<number>) => number[];
}

let moved: boolean[] = [];
let contract: Contract | null = null;

function without(xs: readonly number[], out: readonly number[], level: number): LocationInterval {
  if (out.length === 0) return STUDENT_T.interval(xs, level);
  const kept = xs.filter((_, i) => !out.includes(i));
  return { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: [...out] };
}

/** Student t on the pairs no outlier moved (and futility on them): what a rule told the truth would read. */
const ORACLE: IntervalMethod = {
  name: "oracle",
  interval: (xs, level) => {
    const out = xs.flatMap((_, i) => (moved[i] ? [i] : []));
    return xs.length - out.length < 2 ? SCREENED_T.interval(xs, level) : without(xs, out, level);
  },
  df: (n) => n - 1,
};

/** The ESD screen at level `alpha` from `from` pairs, today's futility bases around it. */
function esdAt(alpha: number, from = 6): IntervalMethod {
  const screen = (xs: readonly number[]) => esdPairs(xs, alpha, from);
  return {
    name: "esd",
    interval: (xs, level) => without(xs, screen(xs), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => futilityBases(xs, level, screen, "robust", from),
  };
}

/**
 * A screen paid for: the ESD test at `share` of the look's α, and the interval's α lowered by `kappa` times it
 * (P(miss) ≤ α'/2 + P(screen fires)·P(miss | fires) stays within α/2 when P(miss | fires) ≤ kappa/2).
 */
function paidEsd(share: number, kappa: number): IntervalMethod {
  const split = (level: number) => ({ a: share * (1 - level), level: 1 - (1 - level) * (1 - kappa * share) });
  const screen = (level: number) => (xs: readonly number[]) => esdPairs(xs, split(level).a);
  return {
    name: "paid",
    interval: (xs, level) => ({ ...without(xs, screen(level)(xs), split(level).level), level }),
    df: (n) => n - 1,
    futilityBases: (xs, level) =>
      futilityBases(xs, split(level).level, screen(level), "robust").map((b) => ({ ...b, level })),
  };
}

/**
 * Today's rule, and futility also from the look without its lowest and without its highest pair (one pair
 * cannot trigger a stop); below `upTo` pairs, each believed only when its own chance is at least `believe`.
 */
function oneOutFutility(believe: number, upTo: number): IntervalMethod {
  return {
    ...SCREENED_T,
    futilityBases: (xs, level) => {
      const bases = SCREENED_T.futilityBases!(xs, level);
      const n = xs.length;
      if (n < 3 || n >= upTo) return bases;
      const last = finalLook(designOf(contract!));
      const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
      const out = [order[0]!, order[n - 1]!].map((o) => without(xs, [o], level));
      return [
        ...bases,
        ...out.filter((b) => predictivePower(b, last.n, last.level!, contract!.minEffect, last.n - 1) >= believe),
      ];
    },
  };
}

/** Re-measures the pairs `flag` picks among those not measured again yet. */
function remeasuring(flag: (xs: number[]) => number[]) {
  return (c: Contract, base: number[], cand: number[], redone: ReadonlySet<number>) => {
    const xs = base.map((b, i) => (c.direction === "maximize" ? cand[i]! - b : b - cand[i]!));
    return flag(xs).filter((i) => !redone.has(i));
  };
}

const withContract = (_: PairTruth, c: Contract) => void (contract = c);
/** The options of "calibrated-every-group", whose method is the climb's calibration's. */
const everyGroup: { method?: IntervalMethod } = {};
const calibrated = (c: Contract, t: PairTruth): Contract => ({ ...c, noise: suggestedNoise(t.calibration) });

export const OUTLIER_RULES: Record<string, ClimbRule> = {
  today: {
    label: "today (before): the screened t (ESD test at 0.2% from 6 pairs), robust futility bases",
    options: {},
  },
  calibrated: {
    label: "calibrated (after): the contract's noise from an A/A calibration of the same noise " +
      "(calibrate's suggestion), the fence at that scale and futility on its groups",
    options: {},
    contract: calibrated,
  },
  "calibrated-every-group": {
    label: "calibrated, futility on the group around every pair (not the middle pair's alone)",
    options: everyGroup,
    contract: calibrated,
    before: (_, c) => {
      if (c.noise !== null) everyGroup.method = calibratedT(c.noise, "every");
      else delete everyGroup.method;
    },
  },
  // ---- bounds ----
  oracle: {
    label: "bound: told which pairs an outlier moved, Student t and futility on the others",
    options: { method: ORACLE },
    before: (t) => void (moved = t.moved),
  },
  "oracle-nofut": {
    label: "bound: told which pairs an outlier moved, no futility stop (the most any screen of this design accepts)",
    options: { method: ORACLE, futilityPower: 0 },
    before: (t) => void (moved = t.moved),
  },
  "today-nofut": { label: "today's interval, no futility stop", options: { futilityPower: 0 } },
  student: { label: "Student t, futility on the look alone", options: { method: STUDENT_T } },
  // ---- levers, scale-free ----
  hl: { label: "Hodges–Lehmann with the exact signed-rank interval", options: { method: HODGES_LEHMANN } },
  yuen20: { label: "Yuen's 20% trimmed mean", options: { method: trimmedT(0.2) } },
  yuen10: { label: "Yuen's 10% trimmed mean", options: { method: trimmedT(0.1) } },
  esd1: { label: "the ESD screen at 1% (not 0.2%)", options: { method: esdAt(0.01) } },
  esd2: { label: "the ESD screen at 2%", options: { method: esdAt(0.02) } },
  esd5: { label: "the ESD screen at 5%", options: { method: esdAt(0.05) } },
  paid: {
    label: "the ESD screen at half the look's α, the interval's α lowered by a quarter of it (paid for)",
    options: { method: paidEsd(0.5, 0.5) },
  },
  "one-out": {
    label: "futility that one pair cannot trigger: also from the look without its lowest, and without its highest pair",
    options: { method: oneOutFutility(0, Infinity) },
    before: withContract,
  },
  "one-out-90": {
    label: "the same below 6 pairs, each believed only at a chance of 90% or more",
    options: { method: oneOutFutility(0.9, 6) },
    before: withContract,
  },
  "remeasure-esd": {
    label: "a pair the ESD screen finds measured again (a fresh pair on its seed, once) before the look decides",
    options: {},
    remeasure: remeasuring((xs) => esdPairs(xs)),
  },
  // ---- levers with an outside scale ----
  "remeasure-calibrated": {
    label: "calibrated, and a pair beyond the fence measured again (a fresh pair on its seed, once) from 3 pairs on",
    options: {},
    contract: calibrated,
    remeasure: (c, base, cand, redone) =>
      c.noise === null ? [] : remeasuring((xs) => fencedPairs(xs, c.noise!, 3))(c, base, cand, redone),
  },
};
OUTLIER_RULES["remeasure-calibrated-6"] = {
  label: "calibrated, and a pair beyond the fence measured again (a fresh pair on its seed, once) from 6 pairs on",
  options: {},
  contract: calibrated,
  remeasure: (c, base, cand, redone) =>
    c.noise === null ? [] : remeasuring((xs) => fencedPairs(xs, c.noise!, 6))(c, base, cand, redone),
};
