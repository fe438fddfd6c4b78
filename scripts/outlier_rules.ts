/**
 * The rules scripts/simulate_outliers.ts compares: today's verdict, the
 * levers of issue 31, and the bounds (an oracle told which pairs an outlier
 * moved). Kept beside the simulation so its tables can be reproduced.
 */
import type { Contract } from "../src/contract/contract.ts";
import type { DecideOptions } from "../src/verdict/decide.ts";
import { type IntervalMethod, STUDENT_T } from "../src/stats/location_interval.ts";
import { SCREENED_T } from "../src/stats/screened_t.ts";

/** A rule: the verdict's options, and what the climb does before a look (re-measure pairs). */
export interface ClimbRule {
  readonly label: string;
  readonly options: DecideOptions;
  /** Called before every look with what the source knows (the oracle's channel). */
  readonly before?: (truth: { moved: boolean[]; calibration: number[] }, c: Contract) => void;
  /** The contract the climb is judged under, given what the source knows (a calibration's noise). */
  readonly contract?: (c: Contract, truth: { calibration: number[] }) => Contract;
  /** Pairs (0-based) to measure again before this look; each at most once (`redone`). */
  readonly remeasure?: (c: Contract, base: number[], cand: number[], redone: ReadonlySet<number>) => number[];
}

let moved: boolean[] = [];

/** Student t on the pairs no outlier moved: what a rule told the truth would read. */
const ORACLE: IntervalMethod = {
  name: "oracle",
  interval: (xs, level) => {
    const out = xs.flatMap((_, i) => (moved[i] ? [i] : []));
    if (out.length === 0 || xs.length - out.length < 2) return SCREENED_T.interval(xs, level);
    const kept = xs.filter((_, i) => !moved[i]);
    return { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: out };
  },
  df: (n) => n - 1,
};

export const OUTLIER_RULES: Record<string, ClimbRule> = {
  today: { label: "today: screened t (ESD 0.2% from 6 pairs), robust futility bases", options: {} },
  student: { label: "Student t, futility on the look", options: { method: STUDENT_T } },
  "today-nofut": { label: "today's interval, no futility stop", options: { futilityPower: 0 } },
  oracle: {
    label: "oracle: Student t on the pairs no outlier moved, futility on them",
    options: { method: ORACLE },
    before: (t) => (moved = t.moved),
  },
  "oracle-nofut": {
    label: "oracle, no futility stop (the bound of this design)",
    options: { method: ORACLE, futilityPower: 0 },
    before: (t) => (moved = t.moved),
  },
};

// ---- exploration ----
import { esdPairs, futilityBases, screenedT } from "../src/stats/screened_t.ts";
import type { LocationInterval } from "../src/stats/location_interval.ts";

function without(xs: readonly number[], out: readonly number[], level: number): LocationInterval {
  if (out.length === 0) return STUDENT_T.interval(xs, level);
  const kept = xs.filter((_, i) => !out.includes(i));
  return { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: [...out] };
}

interface Custom {
  readonly alpha: number;
  readonly from: number;
  /** extra futility bases: the look without its lowest and without its highest pair, from `looFrom` pairs */
  readonly loo: boolean;
  readonly looFrom?: number;
  readonly looTo?: number;
}

function custom(o: Custom): IntervalMethod {
  const screen = (xs: readonly number[]) => esdPairs(xs, o.alpha, o.from);
  return {
    name: "custom",
    interval: (xs, level) => without(xs, screen(xs), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, level, screen, "robust", o.from);
      const n = xs.length;
      if (!o.loo || n < (o.looFrom ?? 3) || n > (o.looTo ?? 1e9)) return bases;
      const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
      return [...bases, without(xs, [order[0]!], level), without(xs, [order[n - 1]!], level)];
    },
  };
}

const add = (name: string, label: string, options: DecideOptions) => (OUTLIER_RULES[name] = { label, options });
for (const a of [0.01, 0.02, 0.05]) {
  for (const from of [6, 4]) {
    add(`esd${a * 100}f${from}`, `ESD ${a * 100}% from ${from}`, { method: custom({ alpha: a, from, loo: false }) });
    add(`esd${a * 100}f${from}loo`, `ESD ${a * 100}% from ${from}, LOO futility`, {
      method: custom({ alpha: a, from, loo: true }),
    });
  }
}
add("loo", "today's screen, LOO futility (lowest/highest out) at every look", {
  method: custom({ alpha: 0.002, from: 6, loo: true }),
});
add("loo-early", "today's screen, LOO futility below 6 pairs", {
  method: custom({ alpha: 0.002, from: 6, loo: true, looTo: 5 }),
});
add("student-nofut", "Student t, no futility", { method: STUDENT_T, futilityPower: 0 });
void screenedT;

import { tQuantile } from "../src/stats/student_t.ts";
import { median } from "../src/stats/screened_t.ts";

/** The outside scale of the climb (the sd of a clean pair's improvement) and its df, from the A/A calibration. */
let outside = { sd: 1, df: 1 };
const AA = "20";
function scaleFrom(aa: number[]) {
  const out = esdPairs(aa, 0.01, 6);
  const kept = aa.filter((_, i) => !out.includes(i));
  const iv = STUDENT_T.interval(kept, 0.9);
  return { sd: iv.sd!, df: kept.length - 1 };
}

function fenced(xs: readonly number[], eps: number, k: number, from: number): number[] {
  const n = xs.length;
  if (n < from) return [];
  const m = median(xs);
  const c = tQuantile(1 - eps / (2 * n), outside.df) * k * outside.sd;
  const out = xs.flatMap((x, i) => (Math.abs(x - m) > c ? [i] : []));
  return n - out.length >= 2 ? out : [];
}

function scaled(eps: number, k: number, from: number, esd: boolean, futFrom = 3): IntervalMethod {
  const screenAt = (at: number) => (xs: readonly number[], level: number) => {
    const f = fenced(xs, eps, k, at);
    const e = esd ? esdPairs(xs, Math.min(0.002, (1 - level) / 8)) : [];
    return [...new Set([...f, ...e])];
  };
  const screen = screenAt(from);
  const fut = screenAt(futFrom);
  return {
    name: "scaled",
    interval: (xs, level) => without(xs, screen(xs, level), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, level, (ys) => screen(ys, level), "robust");
      const f = fut(xs, level);
      return f.length > 0 ? [...bases, without(xs, f, level)] : bases;
    },
  };
}
for (const eps of [0.001, 0.01]) {
  for (const k of [1, 1.3]) {
    OUTLIER_RULES[`scale${eps * 100}k${k}`] = {
      label:
        `outside scale (A/A screened sd): fence t(1 - ${eps}/2n, df)·${k}·sd around the median from 3 pairs, plus ESD`,
      options: { method: scaled(eps, k, 6, true) },
      before: (t) => (outside = scaleFrom(t.calibration)),
    };
  }
}

/** Re-measures (fresh pair, same seed, once) the pairs `flag` picks among those not measured again yet. */
function remeasuring(flag: (xs: number[]) => number[]) {
  return (c: Contract, base: number[], cand: number[], redone: ReadonlySet<number>) => {
    const xs = base.map((b, i) => (c.direction === "maximize" ? cand[i]! - b : b - cand[i]!));
    return flag(xs).filter((i) => !redone.has(i));
  };
}
OUTLIER_RULES["rm-esd"] = {
  label: "re-measure the pairs today's ESD screen flags (0.2%, from 6), then today's rule",
  options: {},
  remeasure: remeasuring((xs) => esdPairs(xs, 0.002, 6)),
};
for (const eps of [0.01, 0.05]) {
  OUTLIER_RULES[`rm-scale${eps * 100}`] = {
    label: `outside scale: re-measure the pairs beyond the fence t(1 - ${eps}/2n, df)·sd from 3 pairs; scale1k1 judges`,
    options: { method: scaled(0.01, 1, 6, true) },
    before: (t) => (outside = scaleFrom(t.calibration)),
    remeasure: remeasuring((xs) => fenced(xs, eps, 1, 3)),
  };
}

import { predictivePower } from "../src/stats/futility.ts";
import { designOf, finalLook } from "../src/stats/sequential.ts";
let contract: Contract | null = null;
/** Futility also from the look without its lowest pair below 6 pairs, believed only when its chance is at least `t`. */
function looThreshold(t: number, both: boolean): IntervalMethod {
  return {
    ...SCREENED_T,
    futilityBases: (xs, level) => {
      const bases = SCREENED_T.futilityBases!(xs, level);
      const n = xs.length;
      if (n < 3 || n >= 6) return bases;
      const last = finalLook(designOf(contract!));
      const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
      const outs = both ? [order[0]!, order[n - 1]!] : [order[0]!];
      const extra = outs.map((o) => without(xs, [o], level)).filter((b) =>
        predictivePower(b, last.n, last.level!, contract!.minEffect, last.n - 1) >= t
      );
      return [...bases, ...extra];
    },
  };
}
for (const t of [0.5, 0.8, 0.9, 0.95]) {
  OUTLIER_RULES[`loo${t * 100}`] = {
    label: `today + futility from the look without its lowest pair below 6 pairs when that chance >= ${t}`,
    options: { method: looThreshold(t, false) },
    before: (_, c) => (contract = c),
  };
}

import { tCdf } from "../src/stats/student_t.ts";
/** The fence with a strict majority kept: none when it would set aside more than ⌊(n − 1)/2⌋. */
function fence2(xs: readonly number[], eps: number, k: number, from: number): number[] {
  const n = xs.length;
  if (n < from) return [];
  const m = median(xs);
  const c = tQuantile(1 - eps / (2 * n), outside.df) * k * outside.sd;
  const out = xs.flatMap((x, i) => (Math.abs(x - m) > c ? [i] : []));
  return out.length <= Math.floor((n - 1) / 2) ? out : [];
}
/** Predictive power from `k` kept pairs at the outside scale (any k ≥ 1). */
function powerAtScale(mean: number, k: number, N: number, finalLevel: number, me: number): number {
  const sd = outside.sd;
  const half = tQuantile((1 + finalLevel) / 2, N - 1) * sd / Math.sqrt(N);
  const z = (mean - me - half) * Math.sqrt(N * k) / (sd * Math.sqrt(N - k));
  return tCdf(z, outside.df);
}
function calibrated(
  o: { eps: number; k: number; from: number; futFrom: number; esd: boolean; scaleFut: boolean },
): IntervalMethod {
  const screen = (xs: readonly number[], level: number, from: number) => {
    const f = fence2(xs, o.eps, o.k, from);
    const e = o.esd ? esdPairs(xs, Math.min(0.002, (1 - level) / 8)) : [];
    return [...new Set([...f, ...e])];
  };
  return {
    name: "calibrated",
    interval: (xs, level) => without(xs, screen(xs, level, o.from), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, level, (ys) => screen(ys, level, o.from), "robust");
      const f = fence2(xs, o.eps, o.k, o.futFrom);
      if (f.length === 0) return bases;
      const kept = xs.filter((_, i) => !f.includes(i));
      if (!o.scaleFut) return kept.length >= 2 ? [...bases, without(xs, f, level)] : bases;
      // the kept pairs' prediction at the outside scale, as a basis whose own pivot gives that chance
      const last = finalLook(designOf(contract!));
      const p = powerAtScale(
        kept.reduce((a, b) => a + b, 0) / kept.length,
        kept.length,
        last.n,
        last.level!,
        contract!.minEffect,
      );
      return p >= 0.2 ? [...bases, { ...without(xs, [], level), sd: 0, mean: Infinity }] : bases;
    },
  };
}
for (const scaleFut of [false, true]) {
  for (const eps of [0.01, 0.05]) {
    const name = `cal${eps * 100}${scaleFut ? "s" : ""}`;
    OUTLIER_RULES[name] = {
      label: `calibrated fence ε ${eps} (majority kept) from 6, futility fence from 3${
        scaleFut ? " predicted at the outside scale" : ""
      }`,
      options: { method: calibrated({ eps, k: 1, from: 6, futFrom: 3, esd: true, scaleFut }) },
      before: (t, c) => ((outside = scaleFrom(t.calibration)), (contract = c)),
    };
    OUTLIER_RULES[`rm-${name}`] = {
      ...OUTLIER_RULES[name]!,
      label: OUTLIER_RULES[name]!.label + "; re-measure the pairs beyond the fence (from 3, once)",
      remeasure: remeasuring((xs) => fence2(xs, eps, 1, 3)),
    };
  }
}

/**
 * A screen paid for: the ESD test at `a` (a share of the look's α, capped), the interval's α lowered by κ·a so
 * that P(miss) ≤ α'/2 + P(fire & miss) stays within α/2 when P(miss | fire) ≤ κ/2.
 */
function paid(share: number, kappa: number, from = 6, lowOnly = false): IntervalMethod {
  const split = (level: number) => {
    const alpha = 1 - level;
    const a = share * alpha;
    return { a, level: 1 - (alpha - kappa * a) };
  };
  const screen = (xs: readonly number[], level: number) => {
    const out = esdPairs(xs, split(level).a, from);
    if (!lowOnly) return out;
    const m = median(xs);
    return out.filter((i) => xs[i]! < m);
  };
  return {
    name: "paid",
    interval: (xs, level) => {
      const s = split(level);
      const iv = without(xs, screen(xs, level), s.level);
      return { ...iv, level };
    },
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const s = split(level);
      return futilityBases(xs, s.level, (ys) => screen(ys, level), "robust", from).map((b) => ({ ...b, level }));
    },
  };
}
for (const share of [0.1, 0.2, 0.3, 0.5, 0.7, 1]) {
  for (const kappa of [0.3, 0.5, 0.8]) {
    OUTLIER_RULES[`paid${share * 100}k${kappa}`] = {
      label: `ESD at ${share}·α of the look from 6, the interval's α lowered by ${kappa}× the screen's`,
      options: { method: paid(share, kappa) },
    };
    OUTLIER_RULES[`paidlow${share * 100}k${kappa}`] = {
      label: `ESD at ${share}·α of the look from 6, low pairs only, the interval's α lowered by ${kappa}× the screen's`,
      options: { method: paid(share, kappa, 6, true) },
    };
  }
}

/**
 * Futility also from the look with its i lowest and j highest pairs left out (i + j ≤ ⌊(n − 1)/2⌋, or ≤ n − 2
 * when `deep`), each believed only when its own chance is at least `t`, at looks of at most `upTo` pairs.
 */
function trimmedFutility(t: number, upTo: number, deep: boolean): IntervalMethod {
  return {
    ...SCREENED_T,
    futilityBases: (xs, level) => {
      const bases = SCREENED_T.futilityBases!(xs, level);
      const n = xs.length;
      if (n < 3 || n > upTo) return bases;
      const last = finalLook(designOf(contract!));
      const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
      const r = deep ? n - 2 : Math.max(1, Math.floor((n - 1) / 2));
      const extra: LocationInterval[] = [];
      for (let i = 0; i <= r; i++) {
        for (let j = 0; i + j <= r; j++) {
          if (i + j === 0) continue;
          const out = [...order.slice(0, i), ...order.slice(n - j)];
          const b = without(xs, out, level);
          if (predictivePower(b, last.n, last.level!, contract!.minEffect, last.n - 1) >= t) extra.push(b);
        }
      }
      return [...bases, ...extra];
    },
  };
}
for (const t of [0.9, 0.95, 0.99]) {
  for (const upTo of [5, 8, 99]) {
    for (const deep of [false, true]) {
      OUTLIER_RULES[`trim${t * 100}u${upTo}${deep ? "d" : ""}`] = {
        label:
          `today + futility from the look trimmed of up to ${
            deep ? "n − 2" : "⌊(n − 1)/2⌋"
          } extreme pairs (both ends), ` +
          `believed at chance ≥ ${t}, at looks of ≤ ${upTo} pairs`,
        options: { method: trimmedFutility(t, upTo, deep) },
        before: (_, c) => (contract = c),
      };
    }
  }
}

import { normalQuantile } from "../src/stats/normal.ts";
/** The upper `p` confidence bound of an sd estimated with `df` degrees of freedom (Wilson–Hilferty χ²). */
function sdUpper(sd: number, df: number, p: number): number {
  const z = normalQuantile(p);
  const chi = df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
  return sd * Math.sqrt(df / chi);
}
/** The clusters of pairs within `c`·sd of one another's centre pair: each pair's neighbourhood, distinct, smaller than the look. */
function clusters(xs: readonly number[], width: number): number[][] {
  const seen = new Set<string>();
  const out: number[][] = [];
  for (const x of xs) {
    const kept = xs.flatMap((y, j) => (Math.abs(y - x) <= width ? [j] : []));
    const key = kept.join(",");
    if (kept.length < xs.length && !seen.has(key)) {
      seen.add(key);
      out.push(kept);
    }
  }
  return out;
}
function outsideScale(
  o: { eps: number; fenceFrom: number; up: number; futility: boolean; clusterUp?: boolean },
): IntervalMethod {
  const width = (n: number, sd: number) => tQuantile(1 - o.eps / (2 * n), outside.df) * sd;
  const fence = (xs: readonly number[]) => {
    const n = xs.length;
    if (n < o.fenceFrom) return [];
    const m = median(xs);
    const c = width(n, o.up > 0 ? sdUpper(outside.sd, outside.df, o.up) : outside.sd);
    const out = xs.flatMap((x, i) => (Math.abs(x - m) > c ? [i] : []));
    return out.length <= Math.floor((n - 1) / 2) ? out : [];
  };
  const screen = (xs: readonly number[], level: number) => [
    ...new Set([...fence(xs), ...esdPairs(xs, Math.min(0.002, (1 - level) / 8))]),
  ];
  return {
    name: "outside",
    interval: (xs, level) => without(xs, screen(xs, level), level),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, level, (ys) => screen(ys, level), "robust");
      if (!o.futility || xs.length < 2) return bases;
      const last = finalLook(designOf(contract!));
      // a cluster the outside scale finds: the pairs within a fence of one pair; its chance at that scale
      const sdC = o.clusterUp && o.up > 0 ? sdUpper(outside.sd, outside.df, o.up) : outside.sd;
      const extra = clusters(xs, width(xs.length, sdC)).filter((k) => {
        const mean = k.reduce((a, i) => a + xs[i]!, 0) / k.length;
        return powerAtScale(mean, k.length, last.n, last.level!, contract!.minEffect) >= 0.2;
      });
      // a hopeful cluster: a basis the rule reads as hopeful (its chance is the cluster's)
      return extra.length > 0 ? [...bases, { ...without(xs, [], level), sd: 0, mean: Infinity }] : bases;
    },
  };
}
for (
  const [name, o] of Object.entries({
    "os-fut": { eps: 0.01, fenceFrom: 99, up: 0, futility: true },
    "os-fut-fence": { eps: 0.01, fenceFrom: 6, up: 0, futility: true },
    "os-fut-fence90": { eps: 0.01, fenceFrom: 6, up: 0.1, futility: true },
    "os-fut-fence90e5": { eps: 0.05, fenceFrom: 6, up: 0.1, futility: true },
    "os90": { eps: 0.01, fenceFrom: 6, up: 0.1, futility: true, clusterUp: true },
    "os80": { eps: 0.01, fenceFrom: 6, up: 0.2, futility: true, clusterUp: true },
  })
) {
  OUTLIER_RULES[name] = {
    label: `outside scale (${AA} A/A pairs): futility on its clusters; fence ${
      o.fenceFrom < 99 ? `from ${o.fenceFrom}, ε ${o.eps}${o.up > 0 ? `, sd's ${1 - o.up} upper bound` : ""}` : "none"
    }`,
    options: { method: outsideScale(o) },
    before: (t, c) => ((outside = scaleFrom(t.calibration)), (contract = c)),
  };
}

/** The outside-scale rule with its screen paid for: the interval's α lowered by κ·(the screens' clean firing). */
function outsidePaid(
  o: { eps: number; up: number; kappa: number; clusters: boolean; fence: boolean; esd: number },
): IntervalMethod {
  const sdU = () => (o.up > 0 ? sdUpper(outside.sd, outside.df, o.up) : outside.sd);
  const width = (n: number) => tQuantile(1 - o.eps / (2 * n), outside.df) * sdU();
  const fence = (xs: readonly number[]) => {
    const n = xs.length;
    if (!o.fence || n < 6) return [];
    const m = median(xs);
    const out = xs.flatMap((x, i) => (Math.abs(x - m) > width(n) ? [i] : []));
    return out.length <= Math.floor((n - 1) / 2) ? out : [];
  };
  const paidLevel = (level: number) => {
    const alpha = 1 - level;
    return 1 - Math.max(alpha / 2, alpha - o.kappa * (Math.min(o.esd, alpha / 8) + (o.fence ? o.eps : 0)));
  };
  const screen = (xs: readonly number[], level: number) => [
    ...new Set([...fence(xs), ...esdPairs(xs, Math.min(o.esd, (1 - level) / 8))]),
  ];
  return {
    name: "outside-paid",
    interval: (xs, level) => ({ ...without(xs, screen(xs, level), paidLevel(level)), level }),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, paidLevel(level), (ys) => screen(ys, level), "robust").map((b) => ({
        ...b,
        level,
      }));
      if (!o.clusters || xs.length < 2) return bases;
      const last = finalLook(designOf(contract!));
      const extra = clusters(xs, width(xs.length)).filter((k) => {
        const mean = k.reduce((a, i) => a + xs[i]!, 0) / k.length;
        return powerAtScale(mean, k.length, last.n, paidLevel(last.level!), contract!.minEffect) >= 0.2;
      });
      return extra.length > 0 ? [...bases, { ...without(xs, [], level), sd: 0, mean: Infinity }] : bases;
    },
  };
}
for (
  const [name, o] of Object.entries({
    "op-clusters": { eps: 0.01, up: 0.1, kappa: 0, clusters: true, fence: false, esd: 0.002 },
    "op-fence": { eps: 0.01, up: 0.1, kappa: 0, clusters: false, fence: true, esd: 0.002 },
    "op-k1": { eps: 0.01, up: 0.1, kappa: 1, clusters: true, fence: true, esd: 0.002 },
    "op-k2": { eps: 0.01, up: 0.1, kappa: 2, clusters: true, fence: true, esd: 0.002 },
    "op-k2e02": { eps: 0.002, up: 0.1, kappa: 2, clusters: true, fence: true, esd: 0.002 },
    "op-k1e02": { eps: 0.002, up: 0.1, kappa: 1, clusters: true, fence: true, esd: 0.002 },
    "op-A": { eps: 0.002, up: 0.1, kappa: 1, clusters: true, fence: true, esd: 0.002 },
    "op-B": { eps: 0.002, up: 0.1, kappa: 0.5, clusters: true, fence: true, esd: 0.002 },
    "op-C": { eps: 0.01, up: 0.1, kappa: 0.5, clusters: true, fence: true, esd: 0.002 },
    "op-D": { eps: 0.002, up: 0.05, kappa: 1, clusters: true, fence: true, esd: 0.002 },
    "op-E": { eps: 0.002, up: 0.1, kappa: 0.5, clusters: false, fence: true, esd: 0.002 },
  })
) {
  OUTLIER_RULES[name] = {
    label: `outside scale, paid: ${JSON.stringify(o)}`,
    options: { method: outsidePaid(o) },
    before: (t, c) => ((outside = scaleFrom(t.calibration)), (contract = c)),
  };
}
OUTLIER_RULES["today-paid2"] = {
  label: "today's rule, its ESD screen paid for (κ 2)",
  options: { method: outsidePaid({ eps: 0, up: 0, kappa: 2, clusters: false, fence: false, esd: 0.002 }) },
};

let aaAlpha = 0.002;
/** The calibrated rule, exploration: fence width t(1 − ε/2n, m − 1)·sd·√(1 + π/2n) around the median. */
function cal2(o: { eps: number; esd: boolean; kappa: number; clusters: boolean; fenceFrom: number }): IntervalMethod {
  const width = (n: number) =>
    tQuantile(1 - o.eps / (2 * n), outside.df) * outside.sd * Math.sqrt(1 + Math.PI / (2 * n));
  const fence = (xs: readonly number[]) => {
    const n = xs.length;
    if (n < o.fenceFrom) return [];
    const m = median(xs);
    const out = xs.flatMap((x, i) => (Math.abs(x - m) > width(n) ? [i] : []));
    return out.length <= Math.floor((n - 1) / 2) ? out : [];
  };
  const paidLevel = (level: number) => 1 - Math.max((1 - level) / 2, (1 - level) - o.kappa * o.eps);
  const screen = (xs: readonly number[], level: number) =>
    o.esd ? [...new Set([...fence(xs), ...esdPairs(xs, Math.min(0.002, (1 - level) / 8))])] : fence(xs);
  return {
    name: "cal2",
    interval: (xs, level) => ({ ...without(xs, screen(xs, level), paidLevel(level)), level }),
    df: (n) => n - 1,
    futilityBases: (xs, level) => {
      const bases = futilityBases(xs, paidLevel(level), (ys) => screen(ys, level), "robust").map((b) => ({
        ...b,
        level,
      }));
      if (!o.clusters || xs.length < 2) return bases;
      const last = finalLook(designOf(contract!));
      const extra = clusters(xs, width(xs.length)).filter((k) => {
        const mean = k.reduce((a, i) => a + xs[i]!, 0) / k.length;
        return powerAtScale(mean, k.length, last.n, paidLevel(last.level!), contract!.minEffect) >= 0.2;
      });
      return extra.length > 0 ? [...bases, { ...without(xs, [], level), sd: 0, mean: Infinity }] : bases;
    },
  };
}
for (
  const [name, o] of Object.entries({
    "c2-e1": { eps: 0.01, esd: false, kappa: 0, clusters: true, fenceFrom: 6 },
    "c2-e1esd": { eps: 0.01, esd: true, kappa: 0, clusters: true, fenceFrom: 6 },
    "c2-e5": { eps: 0.05, esd: false, kappa: 0, clusters: true, fenceFrom: 6 },
    "c2-e5k": { eps: 0.05, esd: false, kappa: 0.1, clusters: true, fenceFrom: 6 },
    "c2-e2": { eps: 0.02, esd: false, kappa: 0, clusters: true, fenceFrom: 6 },
  })
) {
  for (const aa of [0.002, 0.01]) {
    OUTLIER_RULES[`${name}${aa === 0.01 ? "-aa1" : ""}`] = {
      label: `calibrated (A/A screened at ${aa}): ${JSON.stringify(o)}`,
      options: { method: cal2(o) },
      before: (t, c) => ((aaAlpha = aa), (outside = scaleFromAt(t.calibration)), (contract = c)),
    };
  }
}
function scaleFromAt(aa: number[]) {
  const out = esdPairs(aa, aaAlpha, 6);
  const kept = aa.filter((_, i) => !out.includes(i));
  return { sd: STUDENT_T.interval(kept, 0.9).sd!, df: kept.length - 1 };
}

import { calibratedNoise } from "../src/stats/calibrated_screen.ts";
import { suggestedNoise } from "../src/stats/power.ts";
OUTLIER_RULES["calibrated"] = {
  label:
    "calibrated fence (the contract's noise from an A/A calibration of the same noise): src/stats/calibrated_screen.ts",
  options: {},
  contract: (c, t) => ({ ...c, noise: suggestedNoise(t.calibration) }),
};
import { fencedPairs } from "../src/stats/calibrated_screen.ts";
let noiseNow: ReturnType<typeof calibratedNoise> = null;
OUTLIER_RULES["rm-calibrated"] = {
  label:
    "calibrated fence, and a pair beyond it measured again (a fresh pair on its seed, once) before the look decides",
  options: {},
  contract: (c, t) => {
    noiseNow = suggestedNoise(t.calibration);
    return { ...c, noise: noiseNow };
  },
  remeasure: remeasuring((xs) => (noiseNow === null ? [] : fencedPairs(xs, noiseNow, 3))),
};

import { calibratedT } from "../src/stats/calibrated_screen.ts";
for (const ca of [0.0025, 0.001]) {
  OUTLIER_RULES[`calibrated-c${ca}`] = {
    label: `calibrated fence, futility groups at ε ${ca}`,
    options: {},
    contract: (c, t) => {
      const noise = calibratedNoise(t.calibration);
      OUTLIER_RULES[`calibrated-c${ca}`]!.options.method = noise === null ? undefined : calibratedT(noise, ca);
      return c;
    },
  };
}
