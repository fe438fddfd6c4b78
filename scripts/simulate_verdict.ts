/**
 * Simulates climbs in-process to choose and check the sequential verdict's
 * defaults (src/stats/sequential.ts SPENDING_POWER, src/stats/futility.ts
 * FUTILITY_POWER). Every climb goes through the real `decideLook` with a
 * parsed contract, batch after batch, until the decision is final.
 *
 * The model of one measured value: constant 100 + the true effect (candidate
 * only) + a seed-dependent term shared by both sides of a pair (σ 20) +
 * per-run noise (sd 2: normal, Student t with 3 df, or Laplace, each scaled
 * to sd 2). min_effect 1; effects 0 (false accepts), 1 = min_effect (the
 * worst case of the guarantee) and 5 (power). Scenarios vary the direction
 * (minimize: the mirror image, values going down where the anchor's go up),
 * the scale (everything ×1000) and the noise shape. Climb j of a scenario
 * and effect draws from its own seeded stream, the same for every rule
 * (common random numbers), so rules are compared on identical noise, and the
 * minimize and ×1000 scenarios replay the anchor's noise exactly: a rule that
 * does not care about direction and scale gives them the anchor's figures.
 *
 * Writes bench/verdict_simulation.json and prints a table.
 * Usage: deno run -A scripts/simulate_verdict.ts [--climbs N]   (default 4000)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Contract, parseContract } from "../src/contract/contract.ts";
import { decideLook, type DecideOptions } from "../src/verdict/decide.ts";
import { FUTILITY_POWER } from "../src/stats/futility.ts";
import { SPENDING_POWER } from "../src/stats/sequential.ts";

const climbsFlag = process.argv.indexOf("--climbs");
const CLIMBS = climbsFlag > 0 ? Number(process.argv[climbsFlag + 1]) : 4000;
const SEED = 20260101;
const MIN_EFFECT = 1;
const EFFECT = 5;
const CONFIDENCE = 0.95;

// ---- a seeded PRNG (splitmix32 to seed sfc32) and the noise shapes ----

function splitmix32(a: number): () => number {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

/** sfc32: a small, fast, well-tested 32-bit generator; uniform in (0, 1). */
function rngFrom(seed: number): () => number {
  const sm = splitmix32(seed);
  let a = sm(), b = sm(), c = sm(), d = sm();
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return ((t >>> 0) + 0.5) / 4294967296;
  };
}

function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

type Noise = "normal" | "t3" | "laplace";
/** Per-run noise with sd 2 in each shape. */
const NOISE: Record<Noise, (u: () => number) => number> = {
  normal: (u) => 2 * normal(u),
  // t with 3 df has variance 3: scale by 2/√3 for sd 2 (heavy tails, finite variance)
  t3: (u) => {
    const z = normal(u);
    const chi2 = normal(u) ** 2 + normal(u) ** 2 + normal(u) ** 2;
    return (2 / Math.sqrt(3)) * z / Math.sqrt(chi2 / 3);
  },
  // Laplace with scale b has variance 2b²: b = √2 for sd 2
  laplace: (u) => {
    const v = u() - 0.5;
    return -Math.SQRT2 * Math.sign(v) * Math.log(1 - 2 * Math.abs(v));
  },
};

// ---- scenarios, rules and one climb ----

interface Scenario {
  readonly label: string;
  readonly direction: "maximize" | "minimize";
  readonly scale: number;
  readonly noise: Noise;
}
const ANCHOR: Scenario = { label: "anchor (maximize, normal)", direction: "maximize", scale: 1, noise: "normal" };
const SCENARIOS: Scenario[] = [
  ANCHOR,
  { label: "minimize", direction: "minimize", scale: 1, noise: "normal" },
  { label: "scale x1000", direction: "maximize", scale: 1000, noise: "normal" },
  { label: "t3 noise", direction: "maximize", scale: 1, noise: "t3" },
  { label: "Laplace noise", direction: "maximize", scale: 1, noise: "laplace" },
];

interface Rule {
  readonly label: string;
  readonly repeats: number;
  readonly maxRepeats: number;
  readonly options: DecideOptions;
}
const TODAY: Rule = { label: "today: repeats 1", repeats: 1, maxRepeats: 1, options: {} };
const FIXED: Rule = { label: "fixed 12 pairs", repeats: 12, maxRepeats: 12, options: {} };
const EQUAL_SPLIT: Rule = {
  label: "4/12 equal split, no futility",
  repeats: 4,
  maxRepeats: 12,
  options: { spendingPower: 1, futilityPower: 0 },
};
const sequential = (rho: number, gamma: number): Rule => ({
  label: `4/12 rho ${rho}, futility ${gamma}`,
  repeats: 4,
  maxRepeats: 12,
  options: { spendingPower: rho, futilityPower: gamma },
});

/** A stable 32-bit hash of a label, to give each cell its own stream. */
function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  return h >>> 0;
}

interface Outcome {
  readonly verdict: string;
  readonly pairs: number;
}

/** The contract of a rule in a scenario, as a user would write it. */
function contractFor(rule: Rule, s: Scenario): Contract {
  return parseContract({
    name: "sim",
    command: "sim",
    metric: "score",
    direction: s.direction,
    min_effect: MIN_EFFECT * s.scale,
    repeats: rule.repeats,
    max_repeats: rule.maxRepeats,
    confidence: CONFIDENCE,
  }, "simulation");
}

/** One climb: batches of pairs through decideLook until it is final. */
function climb(rule: Rule, contract: Contract, s: Scenario, effect: number, j: number): Outcome {
  const u = rngFrom((SEED ^ hash(`${s.noise}|${effect}`)) + j * 7919);
  const sign = s.direction === "maximize" ? 1 : -1;
  const baseline: number[] = [];
  const candidate: number[] = [];
  let batch = rule.repeats;
  for (;;) {
    for (let k = 0; k < batch; k++) {
      const shared = 100 + 20 * normal(u);
      baseline.push(s.scale * (shared + sign * NOISE[s.noise](u)));
      candidate.push(s.scale * (shared + sign * (effect + NOISE[s.noise](u))));
    }
    const d = decideLook(contract, { baseline, candidate }, rule.options);
    if (d.next.kind === "final") return { verdict: d.verdict, pairs: baseline.length };
    batch = d.next.pairs;
  }
}

interface Cell {
  readonly accept: number;
  readonly reject: number;
  readonly inconclusive: number;
  readonly meanPairs: number;
}

function run(rule: Rule, s: Scenario, effect: number): Cell {
  const counts = { accept: 0, reject: 0, inconclusive: 0 };
  let pairs = 0;
  const contract = contractFor(rule, s);
  for (let j = 0; j < CLIMBS; j++) {
    const o = climb(rule, contract, s, effect, j);
    counts[o.verdict as keyof typeof counts]++;
    pairs += o.pairs;
  }
  const r = (x: number) => Math.round(x * 10000) / 10000;
  return {
    accept: r(counts.accept / CLIMBS),
    reject: r(counts.reject / CLIMBS),
    inconclusive: r(counts.inconclusive / CLIMBS),
    meanPairs: Math.round(pairs / CLIMBS * 100) / 100,
  };
}

// ---- the experiment ----

const started = performance.now();
const EFFECTS = [0, MIN_EFFECT, EFFECT];
interface Row {
  readonly rule: string;
  readonly scenario: string;
  readonly falseAccept: number;
  readonly acceptAtMinEffect: number;
  readonly acceptAtEffect: number;
  readonly pairsNoEffect: number;
  readonly pairsWithEffect: number;
  /** Rejects of a candidate with no effect (right), with an effect of min_effect and with the effect (false rejects). */
  readonly rejectNoEffect: number;
  readonly rejectAtMinEffect: number;
  readonly rejectAtEffect: number;
}
function row(rule: Rule, s: Scenario): Row {
  const [none, edge, real] = EFFECTS.map((e) => run(rule, s, e)) as [Cell, Cell, Cell];
  return {
    rule: rule.label,
    scenario: s.label,
    falseAccept: none.accept,
    acceptAtMinEffect: edge.accept,
    acceptAtEffect: real.accept,
    pairsNoEffect: none.meanPairs,
    pairsWithEffect: real.meanPairs,
    rejectNoEffect: none.reject,
    rejectAtMinEffect: edge.reject,
    rejectAtEffect: real.reject,
  };
}

/** The Monte Carlo standard error of a rate. */
const se = (p: number) => Math.sqrt(p * (1 - p) / CLIMBS);
/** Every goal met with two standard errors to spare, so a variant on the edge does not win by luck. */
function meetsGoals(r: Row): boolean {
  return r.falseAccept + 2 * se(r.falseAccept) <= 0.05 &&
    r.acceptAtMinEffect + 2 * se(r.acceptAtMinEffect) <= 1 - CONFIDENCE &&
    r.acceptAtEffect - 2 * se(r.acceptAtEffect) >= 0.9;
}

// 1. The grid: spending power ρ × futility threshold γ, on every noise shape; a variant is judged by its worst shape.
const SHAPES = SCENARIOS.filter((s) => s.scale === 1 && s.direction === "maximize");
const grid = [0.5, 1, 2].flatMap((rho) =>
  [0, 0.05, 0.1, 0.2, 0.3, 0.4].map((gamma) => {
    const rule = sequential(rho, gamma);
    const rows = SHAPES.map((s) => row(rule, s));
    const worst = {
      falseAccept: Math.max(...rows.map((r) => r.falseAccept)),
      acceptAtMinEffect: Math.max(...rows.map((r) => r.acceptAtMinEffect)),
      acceptAtEffect: Math.min(...rows.map((r) => r.acceptAtEffect)),
      pairsNoEffect: Math.max(...rows.map((r) => r.pairsNoEffect)),
      pairsWithEffect: Math.max(...rows.map((r) => r.pairsWithEffect)),
      rejectNoEffect: Math.min(...rows.map((r) => r.rejectNoEffect)),
      rejectAtMinEffect: Math.max(...rows.map((r) => r.rejectAtMinEffect)),
      rejectAtEffect: Math.max(...rows.map((r) => r.rejectAtEffect)),
    };
    const ok = rows.every(meetsGoals);
    // pairs spent, per real improvement found, when half the candidates have the effect and half none
    const cost = Math.round((worst.pairsNoEffect + worst.pairsWithEffect) / worst.acceptAtEffect * 100) / 100;
    return { rho, gamma, ok, cost, worst, rows };
  })
);
const feasible = grid.filter((g) => g.ok).sort((a, b) => a.cost - b.cost);
const best = feasible[0];
if (best === undefined) throw new Error("No variant of the grid meets the goals");
const matches = best.rho === SPENDING_POWER && best.gamma === FUTILITY_POWER;

// 2. Today's rule, a fixed design of max_repeats pairs, the equal split and the defaults, on every scenario.
const DEFAULTS: Rule = {
  ...sequential(SPENDING_POWER, FUTILITY_POWER),
  label: `4/12 defaults (rho ${SPENDING_POWER}, fut. ${FUTILITY_POWER})`,
};
const rules = [TODAY, FIXED, EQUAL_SPLIT, DEFAULTS];
const scenarios = SCENARIOS.flatMap((s) => rules.map((r) => row(r, s)));

// 3. Other designs with the defaults (anchor): a look after every pair (the first only continues), after
// every 2 and every 6 pairs; the guarantee must hold whatever the schedule.
const designs = [[1, 12], [2, 12], [6, 12], [5, 20]].flatMap(([repeats, maxRepeats]) =>
  [{}, { futilityPower: 0 }].map((options) => {
    const label = `${repeats}/${maxRepeats} defaults${options.futilityPower === 0 ? ", no futility" : ""}`;
    return row({ label, repeats: repeats!, maxRepeats: maxRepeats!, options }, ANCHOR);
  })
);

// 4. The accept rate against the true effect (anchor), for today's rule, the equal split and the defaults.
const CURVE_EFFECTS = [0, 0.5, 1, 2, 3, 4, 5, 6, 8];
const curve = [TODAY, EQUAL_SPLIT, DEFAULTS].map((r) => ({
  rule: r.label,
  points: CURVE_EFFECTS.map((effect) => {
    const c = run(r, ANCHOR, effect);
    return { effect, accept: c.accept, meanPairs: c.meanPairs };
  }),
}));
const seconds = Math.round((performance.now() - started) / 100) / 10;

/** A row's figures with the file's snake_case keys. */
function figures(r: Omit<Row, "rule" | "scenario">) {
  return {
    false_accept: r.falseAccept,
    accept_at_min_effect: r.acceptAtMinEffect,
    accept_at_effect: r.acceptAtEffect,
    pairs_no_effect: r.pairsNoEffect,
    pairs_with_effect: r.pairsWithEffect,
    reject_no_effect: r.rejectNoEffect,
    reject_at_min_effect: r.rejectAtMinEffect,
    reject_at_effect: r.rejectAtEffect,
  };
}
const anchorRow = (rule: Rule) => scenarios.find((r) => r.rule === rule.label && r.scenario === ANCHOR.label)!;
const everyDefault = [...scenarios.filter((r) => r.rule === DEFAULTS.label), ...designs];

const result = {
  command: "deno run -A scripts/simulate_verdict.ts",
  seed: SEED,
  climbs_per_cell: CLIMBS,
  model: {
    value: "100 + effect (candidate only) + 20·N(0,1) shared by the pair's two runs + per-run noise of sd 2",
    min_effect: MIN_EFFECT,
    effect: EFFECT,
    confidence: CONFIDENCE,
    design: "repeats 4, max_repeats 12 (looks at 4, 8, 12 pairs)",
    noise_shapes: ["normal", "Student t, 3 df, scaled to sd 2", "Laplace, scaled to sd 2"],
  },
  goals: {
    false_accept_no_effect: "<= 0.05",
    false_accept_at_min_effect: `<= ${Math.round((1 - CONFIDENCE) * 100) / 100}`,
    accept_at_effect: ">= 0.9",
    pairs: "fewer on average than a fixed design of max_repeats pairs",
  },
  selection: "among grid variants meeting every goal on every noise shape with two Monte Carlo standard errors " +
    "to spare, the least cost: the pairs spent per " +
    "real improvement found when half the candidates have the effect and half none, (pairs without effect + " +
    "pairs with effect) / accept rate at the effect, each the worst over the noise shapes",
  chosen: { spending_power: best.rho, futility_power: best.gamma, cost: best.cost, matches_code_defaults: matches },
  code_defaults: { spending_power: SPENDING_POWER, futility_power: FUTILITY_POWER },
  summary_anchor: {
    today_repeats_1: figures(anchorRow(TODAY)),
    defaults_4_12: figures(anchorRow(DEFAULTS)),
    equal_split_no_futility_4_12: figures(anchorRow(EQUAL_SPLIT)),
    fixed_12: figures(anchorRow(FIXED)),
    worst_false_accept_at_min_effect_with_defaults: Math.max(...everyDefault.map((r) => r.acceptAtMinEffect)),
  },
  grid: grid.map((g) => ({
    spending_power: g.rho,
    futility_power: g.gamma,
    meets_goals: g.ok,
    cost: g.cost,
    worst_over_noise_shapes: figures(g.worst),
  })),
  scenarios: scenarios.map((r) => ({ scenario: r.scenario, rule: r.rule, ...figures(r) })),
  designs_anchor: designs.map((r) => ({ rule: r.rule, ...figures(r) })),
  accept_curve_anchor: curve.map((c) => ({
    rule: c.rule,
    points: c.points.map((p) => ({ effect: p.effect, accept: p.accept, mean_pairs: p.meanPairs })),
  })),
};
writeFileSync(
  join(import.meta.dirname!, "..", "bench", "verdict_simulation.json"),
  JSON.stringify(result, null, 2) + "\n",
);

// ---- the table ----
const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);
const num = (x: number) => x.toFixed(2).padStart(6);
console.log(`${CLIMBS} climbs per cell, seed ${SEED}, ${seconds} s; min_effect ${MIN_EFFECT}, effect ${EFFECT}`);
console.log("\ngrid (worst over noise shapes): rho futility  FA@0  FA@min  acc@5  pairs@0 pairs@5  cost  goals");
for (const g of grid) {
  const w = g.worst;
  console.log(
    `  ${String(g.rho).padStart(3)} ${String(g.gamma).padStart(8)} ${pct(w.falseAccept)} ${pct(w.acceptAtMinEffect)}` +
      `${pct(w.acceptAtEffect)} ${num(w.pairsNoEffect)}  ${num(w.pairsWithEffect)} ${num(g.cost)}  ${
        g.ok ? "met" : "-"
      }`,
  );
}
console.log(
  `chosen: rho ${best.rho}, futility ${best.gamma}` +
    (matches ? " (= the code's defaults)" : ` — DIFFERS from the code's defaults rho ${SPENDING_POWER}, ` +
      `futility ${FUTILITY_POWER}`),
);
console.log(
  "\nscenario                   rule                               FA@0  FA@min  acc@5  pairs@0 pairs@5   rej@0 rej@min  rej@5",
);
for (const r of scenarios) {
  console.log(
    `${r.scenario.padEnd(26)} ${r.rule.padEnd(32)} ${pct(r.falseAccept)} ${pct(r.acceptAtMinEffect)}` +
      `${pct(r.acceptAtEffect)} ${num(r.pairsNoEffect)}  ${num(r.pairsWithEffect)} ${pct(r.rejectNoEffect)}` +
      `${pct(r.rejectAtMinEffect)}${pct(r.rejectAtEffect)}`,
  );
}
console.log("\nother designs, defaults (anchor)");
for (const r of designs) {
  console.log(
    `${"".padEnd(26)} ${r.rule.padEnd(32)} ${pct(r.falseAccept)} ${pct(r.acceptAtMinEffect)}` +
      `${pct(r.acceptAtEffect)} ${num(r.pairsNoEffect)}  ${num(r.pairsWithEffect)} ${pct(r.rejectNoEffect)}` +
      `${pct(r.rejectAtMinEffect)}${pct(r.rejectAtEffect)}`,
  );
}
console.log(`\naccept rate by true effect (anchor): ${CURVE_EFFECTS.join(" / ")}`);
for (const c of curve) console.log(`  ${c.rule.padEnd(32)} ${c.points.map((p) => pct(p.accept).trim()).join(" / ")}`);
