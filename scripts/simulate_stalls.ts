/**
 * Simulates climbs in-process (the real `decideLook`, batch after batch) to
 * choose the verdict's screen and the futility rule's bases under stalls
 * (src/stats/screened_t.ts `esdPairs`, `futilityBases`), and to show the
 * relative rule's false accepts and power (src/stats/relative.ts).
 *
 * Part A, the stall model of issue 22: a minimized time, repeats 3 /
 * max_repeats 9, min_effect 0, a seed term shared by the pair (σ 20),
 * per-measure noise of sd 0.5 (`--noise`; a clean pair's improvement has sd
 * 0.71), a true effect of 1.5, and 10% of measures stalled by +12 on the slow
 * side (each measure on its own); and the same clean. At sd 0.5 the rule
 * before issue 22 accepts 99% of clean climbs and about 60% under stalls,
 * the hidden trial (100% and 58%). Every futility variant on the same
 * climbs (common random numbers), among them the oracle (told which pairs
 * stalled: the bound of a futility rule that predicts from the unstalled
 * pairs) and no futility stop (the bound of any early stop under a screen).
 * Also the default 4/12 design with min_effect 0.5.
 *
 * Part C: how often a clean normal sample loses a pair to the ESD screen and
 * to the Hampel rule it replaced, at n from 4 to 50. Part D: false accepts at
 * exactly min_effect at confidences beyond the defaults, where the screen's
 * level must shrink with the look's (src/stats/screened_t.ts `screenAlpha`).
 *
 * Part B, the relative rule: a log-normal timing benchmark (100 ms × a seed
 * factor exp(0.2·Z) shared by the pair × per-run exp(0.02·Z)), min_effect
 * "2%", a true speed-up by the factor 1 (false accepts), 1.02 (the worst case
 * of the guarantee) and 1.06; clean and with 10% of runs stalled ×3 (the
 * repeated design's stall model); the time (minimize) and its rate 1/t
 * (maximize) of every climb, which must agree climb by climb.
 *
 * Usage: deno run -A scripts/simulate_stalls.ts [--climbs N] [--write]
 *   writes bench/verdict_stalls.json and bench/verdict_relative.json with --write.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contract, parseContract } from "../src/contract/contract.ts";
import { decideLook, type DecideOptions } from "../src/verdict/decide.ts";
import { esdPairs, HAMPEL_SCREENED_T, hampelPairs, SCREENED_T, screenedT } from "../src/stats/screened_t.ts";
import { type IntervalMethod, STUDENT_T } from "../src/stats/location_interval.ts";
import { hash, normal, rngFrom } from "./sim_noise.ts";

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CLIMBS = Number(flag("--climbs") ?? 4000);
const WRITE = process.argv.includes("--write");
const SEED = 20261201;
const CONFIDENCE = 0.95;
/** Part A: the per-measure noise sd (the clean improvement's is √2 times it). */
const NOISE_SD = Number(flag("--noise") ?? 0.5);

interface Variant {
  readonly label: string;
  readonly options: DecideOptions;
}

/** Which of the climb's pairs so far had a stalled measure: what the oracle variant is told. */
let stalledPairs: boolean[] = [];

/**
 * The bound of any futility rule that predicts from the unstalled pairs: it is told which pairs stalled and
 * asks the interval without them too (the verdict's own interval is the default's).
 */
const ORACLE: IntervalMethod = {
  ...SCREENED_T,
  futilityBases: (xs, level) => {
    const now = SCREENED_T.interval(xs, level);
    const out = xs.flatMap((_, i) => (stalledPairs[i] ? [i] : []));
    if (out.length === 0 || xs.length - out.length < 2) return [now];
    const kept = xs.filter((_, i) => !stalledPairs[i]);
    return [now, { ...STUDENT_T.interval(kept, level), n: xs.length, setAside: out }];
  },
};

/** The futility variants compared; the first is the rule before issue 22. */
const VARIANTS: Variant[] = [
  { label: "before: Hampel screen, flagged pairs below 6", options: { method: HAMPEL_SCREENED_T } },
  { label: "ESD screen, futility as before", options: { method: screenedT({ futilityLooks: "flagged" }) } },
  { label: "default: ESD screen, robust futility bases", options: {} },
  { label: "default + futility threshold 30%", options: { futilityPower: 0.3 } },
  { label: "default + median veto", options: { futilityVeto: "median" } },
  { label: "oracle: futility told which pairs stalled", options: { method: ORACLE } },
  // the bounds no early-stop rule can pass: never stop for futility
  { label: "no futility stop, Hampel screen", options: { method: HAMPEL_SCREENED_T, futilityPower: 0 } },
  { label: "no futility stop, ESD screen", options: { futilityPower: 0 } },
];

type Pair = [number, number];
type Source = (u: () => number, effect: number) => () => Pair;

/** Part A's additive model (minimize): shared seed term, noise sd 1/√2 per measure, stalls +12 on the slow side. */
function additiveStalls(stall: number): Source {
  return (u, effect) => () => {
    const shared = 100 + 20 * normal(u);
    const baseStalled = u() < stall;
    const b = shared + NOISE_SD * normal(u) + (baseStalled ? 12 : 0);
    const candStalled = u() < stall;
    const c = shared - effect + NOISE_SD * normal(u) + (candStalled ? 12 : 0);
    stalledPairs.push(baseStalled || candStalled);
    return [b, c];
  };
}

/** Part B's log-normal timing model: the candidate `factor` times faster; stalled runs ×3. */
function logNormal(stall: number): Source {
  return (u, factor) => () => {
    const seed = 100 * Math.exp(0.2 * normal(u));
    const run = (t: number) => t * Math.exp(0.02 * normal(u)) * (u() < stall ? 3 : 1);
    return [run(seed), run(seed / factor)];
  };
}

interface Outcome {
  readonly verdict: string;
  readonly pairs: number;
}

function climb(c: Contract, src: () => Pair, options: DecideOptions, invert = false): Outcome[] {
  const base: number[] = [];
  const cand: number[] = [];
  let batch = c.repeats;
  const inv = invert ? parseContract({ ...contractJson(c), direction: "maximize" }, "sim") : null;
  const outs: Outcome[] = [];
  stalledPairs = [];
  const run = (k: Contract, map: (x: number) => number) => {
    let n = k.repeats;
    for (;;) {
      const d = decideLook(k, { baseline: base.slice(0, n).map(map), candidate: cand.slice(0, n).map(map) }, options);
      if (d.next.kind === "final") return { verdict: d.verdict, pairs: n };
      n += d.next.pairs;
      while (base.length < n) {
        const [b, x] = src();
        base.push(b);
        cand.push(x);
      }
    }
  };
  while (base.length < batch) {
    const [b, x] = src();
    base.push(b);
    cand.push(x);
  }
  batch = 0;
  outs.push(run(c, (x) => x));
  if (inv !== null) outs.push(run(inv, (x) => 1 / x));
  return outs;
}

function contractJson(c: Contract) {
  return {
    name: "sim",
    command: "sim",
    metric: "t",
    direction: c.direction,
    min_effect: c.minEffectScale === "relative" ? `${c.minEffect * 100}%` : c.minEffect,
    repeats: c.repeats,
    max_repeats: c.maxRepeats,
    confidence: c.confidence,
  };
}

interface Cell {
  readonly accept: number;
  readonly reject: number;
  readonly meanPairs: number;
}

/** Climbs of a cell with no effect: ten times more, so a false-accept rate near 2.5% is read to ±0.08 points. */
const NULL_CLIMBS = 10 * CLIMBS;

function cell(c: Contract, source: Source, effect: number, options: DecideOptions, stream: string): Cell {
  let accept = 0, reject = 0, pairs = 0;
  const climbs = effect === 0 ? NULL_CLIMBS : CLIMBS;
  for (let j = 0; j < climbs; j++) {
    const u = rngFrom((SEED ^ hash(`${stream}|${effect}`)) + j * 7919);
    const [o] = climb(c, source(u, effect), options);
    if (o!.verdict === "accept") accept++;
    if (o!.verdict === "reject") reject++;
    pairs += o!.pairs;
  }
  const r = (x: number) => Math.round(x / climbs * 10000) / 10000;
  return { accept: r(accept), reject: r(reject), meanPairs: Math.round(pairs / climbs * 100) / 100 };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const table = (head: string[], rows: (string | number)[][]) =>
  [head, head.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
const started = performance.now();

// ---- part A ----
const designs = [
  { label: "3/9, min_effect 0", repeats: 3, maxRepeats: 9, minEffect: 0 },
  { label: "4/12, min_effect 0.5", repeats: 4, maxRepeats: 12, minEffect: 0.5 },
];
const partA = designs.flatMap((d) => {
  const c = parseContract({
    name: "sim",
    command: "sim",
    metric: "t",
    direction: "minimize",
    min_effect: d.minEffect,
    repeats: d.repeats,
    max_repeats: d.maxRepeats,
    confidence: CONFIDENCE,
  }, "sim");
  return VARIANTS.map((v) => {
    const clean0 = cell(c, additiveStalls(0), 0, v.options, `${d.label}|clean`);
    const cleanE = cell(c, additiveStalls(0), 1.5, v.options, `${d.label}|clean`);
    const stall0 = cell(c, additiveStalls(0.1), 0, v.options, `${d.label}|stall`);
    const stallE = cell(c, additiveStalls(0.1), 1.5, v.options, `${d.label}|stall`);
    return { design: d.label, variant: v.label, clean0, cleanE, stall0, stallE };
  });
});
console.log(
  `## A. Futility under stalls (per-measure noise sd ${NOISE_SD}; effect 1.5; 10% of measures stalled by +12)\n`,
);
console.log(table(
  [
    "design",
    "futility bases",
    "accepts, stalls",
    "accepts, clean",
    "false accepts (clean / stalls)",
    "mean pairs, clean (0 / 1.5)",
    "mean pairs, stalls (0 / 1.5)",
  ],
  partA.map((r) => [
    r.design,
    r.variant,
    pct(r.stallE.accept),
    pct(r.cleanE.accept),
    `${pct(r.clean0.accept)} / ${pct(r.stall0.accept)}`,
    `${r.clean0.meanPairs} / ${r.cleanE.meanPairs}`,
    `${r.stall0.meanPairs} / ${r.stallE.meanPairs}`,
  ]),
));

// ---- part B ----
const relDesigns = [
  { repeats: 4, maxRepeats: 12 },
  { repeats: 3, maxRepeats: 9 },
];
const partB = relDesigns.flatMap((d) =>
  [0, 0.1].map((stall) => {
    const c = parseContract({
      name: "sim",
      command: "sim",
      metric: "t",
      direction: "minimize",
      min_effect: "2%",
      repeats: d.repeats,
      max_repeats: d.maxRepeats,
      confidence: CONFIDENCE,
    }, "sim");
    const at = (factor: number) => {
      let accept = 0, pairs = 0, disagree = 0;
      for (let j = 0; j < CLIMBS; j++) {
        const u = rngFrom((SEED ^ hash(`rel|${stall}|${d.repeats}|${factor}`)) + j * 7919);
        const [t, rate] = climb(c, logNormal(stall)(u, factor), {}, true);
        if (t!.verdict === "accept") accept++;
        if (t!.verdict !== rate!.verdict || t!.pairs !== rate!.pairs) disagree++;
        pairs += t!.pairs;
      }
      return { accept: accept / CLIMBS, meanPairs: Math.round(pairs / CLIMBS * 100) / 100, disagree };
    };
    return { design: `${d.repeats}/${d.maxRepeats}`, stall, none: at(1), edge: at(1.02), real: at(1.06) };
  })
);
console.log(`\n## B. Relative min_effect "2%", log-normal timing noise (t minimized; 1/t maximized alongside)\n`);
console.log(table(
  [
    "design",
    "stalls",
    "false accepts (×1 / ×1.02)",
    "accepts (×1.06)",
    "mean pairs (×1 / ×1.06)",
    "t vs 1/t disagreements",
  ],
  partB.map((r) => [
    r.design,
    r.stall > 0 ? "10% ×3" : "clean",
    `${pct(r.none.accept)} / ${pct(r.edge.accept)}`,
    pct(r.real.accept),
    `${r.none.meanPairs} / ${r.real.meanPairs}`,
    r.none.disagree + r.edge.disagree + r.real.disagree,
  ]),
));
// ---- part C ----
const LOSS_SAMPLES = 100000;
const screenLoss = [4, 5, 6, 7, 8, 9, 10, 12, 20, 50].map((n) => {
  const u = rngFrom(SEED ^ hash(`loss|${n}`));
  let esd = 0, hampel = 0;
  for (let k = 0; k < LOSS_SAMPLES; k++) {
    const xs = Array.from({ length: n }, () => normal(u));
    if (esdPairs(xs, undefined, 4).length > 0) esd++;
    if (hampelPairs(xs, undefined, 4).length > 0) hampel++;
  }
  return { n, esd: esd / LOSS_SAMPLES, hampel: hampel / LOSS_SAMPLES };
});
console.log(`\n## C. Clean normal samples that lose a pair to the screen (${LOSS_SAMPLES} samples per n)\n`);
console.log(
  table(["n", "ESD test at 0.2%", "Hampel rule (c_n)"], screenLoss.map((r) => [r.n, pct(r.esd), pct(r.hampel)])),
);

// ---- part D ----
/** Part D: false accepts at exactly min_effect at high confidence, where the screen's loss nears the look's α. */
const highConfidence = [0.95, 1 - 0.05 / 8, 1 - 0.05 / 16].map((confidence) => {
  const c = parseContract({
    name: "sim",
    command: "sim",
    metric: "t",
    direction: "maximize",
    min_effect: 1,
    repeats: 4,
    max_repeats: 12,
    confidence,
  }, "sim");
  const at = (options: DecideOptions) => {
    let accept = 0;
    for (let j = 0; j < NULL_CLIMBS; j++) {
      const u = rngFrom((SEED ^ hash(`high|${confidence}`)) + j * 7919);
      const draw = (): Pair => {
        const shared = 100 + 20 * normal(u);
        return [shared + 2 * normal(u), shared + 1 + 2 * normal(u)];
      };
      const [o] = climb(c, draw, options);
      if (o!.verdict === "accept") accept++;
    }
    return accept / NULL_CLIMBS;
  };
  return {
    confidence,
    bound: (1 - confidence) / 2,
    esd: at({}),
    hampel: at({ method: HAMPEL_SCREENED_T }),
    student: at({ method: STUDENT_T }),
  };
});
console.log(
  `\n## D. False accepts at exactly min_effect, 4/12, normal noise, by confidence (${NULL_CLIMBS} climbs each)\n`,
);
console.log(table(
  ["confidence", "bound (1 − c)/2", "ESD screen", "Hampel rule", "Student t"],
  highConfidence.map((r) => [
    r.confidence.toFixed(5),
    `${(r.bound * 100).toFixed(3)}%`,
    ...[r.esd, r.hampel, r.student].map((x) => `${(x * 100).toFixed(3)}%`),
  ]),
));

const seconds = Math.round((performance.now() - started) / 100) / 10;
console.log(`\n${CLIMBS} climbs per cell (${NULL_CLIMBS} with no effect), seed ${SEED}, ${seconds} s`);
if (WRITE) {
  const dir = join(import.meta.dirname!, "..", "bench");
  writeFileSync(
    join(dir, "verdict_stalls.json"),
    JSON.stringify(
      {
        climbs: CLIMBS,
        null_climbs: NULL_CLIMBS,
        seed: SEED,
        confidence: CONFIDENCE,
        rows: partA,
        screen_loss: screenLoss,
        high_confidence: highConfidence,
      },
      null,
      2,
    ) + "\n",
  );
  writeFileSync(
    join(dir, "verdict_relative.json"),
    JSON.stringify({ climbs: CLIMBS, seed: SEED, confidence: CONFIDENCE, min_effect: "2%", rows: partB }, null, 2) +
      "\n",
  );
}
