/**
 * Simulates climbs in-process (the real `decideLook`, look after look) over
 * the family of outlier models of issue 31, to measure the verdict's rule
 * against it before and after, the bounds no rule of these designs passes,
 * and the levers (scripts/outlier_rules.ts).
 *
 * The model of one measured value (per-run sd σ = 1): 100 + a seed term
 * shared by the pair (σ 20) + the true effect (candidate only) + per-run
 * noise (normal, or Student t with 3 df scaled to sd 1), mirrored for
 * `minimize`; an outlier moves a measure by `size` σ against it (a stall: a
 * time up, a rate down), each measure of the affected side(s) on its own
 * with probability `rate`. On the candidate's side an outlier makes the
 * candidate look worse; on the baseline's it makes it look better (a stalled
 * baseline); on both, either. The family: size 8, 12, 24 σ × the candidate's
 * side, the baseline's, both × 5% and 10% of measures × min_effect 0 and 15%
 * of the effect × `minimize` and `maximize` × designs 3/9 and 4/12, a true
 * effect of 3 σ, confidence 0.95 (144 cells); and the same designs on clean
 * normal and t3 noise (16 cells). Per cell: accepts at the effect, false
 * accepts at no effect and at exactly min_effect (the worst case the
 * guarantee covers; the same climbs when min_effect is 0), and the mean pairs
 * measured at each (a pair measured again counts twice).
 *
 * A false accept is an accept of a candidate whose true effect — what it does
 * on a machine that behaves — is not above min_effect: a stalled baseline
 * raises the mean improvement, but not the candidate's effect.
 *
 * The A/A calibration a calibrated rule reads is drawn for each climb from a
 * stream of its own: `--aa-pairs` pairs (default 20) of the base measured
 * twice under the cell's noise, every measure as likely to stall, its noise
 * ×`--aa-scale` (default 1; 0.5 is a calibration on a quieter machine than
 * the run's). Climb j of a cell and effect draws from its own seeded stream,
 * the same for every rule (common random numbers). Each accept rate is
 * printed with its Monte-Carlo standard error; false accepts with the 95%
 * Wilson interval.
 *
 * `--scan`: for each cell a rule accepts less than 90% of the time, the
 * smallest design r/3r (r = 4, 5, 6, 8, 10, 12, 16) with which it reaches
 * 90% (by the point estimate), and its mean pairs at the effect and with no
 * effect: what the goal would cost in pairs with that rule.
 *
 * Usage: bun run scripts/simulate_outliers.ts [--rules a,b] [--cells REGEX]
 *   [--climbs N] [--null-climbs N] [--aa-pairs N] [--aa-scale X] [--scan]
 *   [--write FILE.json] [--md FILE.md] [--list]
 *   --climbs: climbs per cell at the effect (default 1000: ±0.95 points at 90%);
 *   --null-climbs: at no effect and at min_effect (default 10000).
 * The files it writes are then laid out by `deno fmt` (the repository's lint checks them).
 */
import { writeFileSync } from "node:fs";
import { type Contract, parseContract } from "../src/contract/contract.ts";
import { decideLook } from "../src/verdict/decide.ts";
import { hash, normal, rngFrom } from "./sim_noise.ts";
import { type ClimbRule, OUTLIER_RULES, type PairTruth } from "./outlier_rules.ts";

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CLIMBS = Number(flag("--climbs") ?? 1000);
const NULL_CLIMBS = Number(flag("--null-climbs") ?? 10000);
const RULES = flag("--rules")?.split(",") ?? ["today"];
const CELLS = new RegExp(flag("--cells") ?? ".");
const AA_PAIRS = Number(flag("--aa-pairs") ?? 20);
const AA_SCALE = Number(flag("--aa-scale") ?? 1);
const SCAN = process.argv.includes("--scan");
const SEED = 20261231;
const CONFIDENCE = 0.95;
const EFFECT = 3;

if (process.argv.includes("--list")) {
  for (const [name, r] of Object.entries(OUTLIER_RULES)) console.log(`${name}: ${r.label}`);
  process.exit(0);
}

type Side = "candidate" | "baseline" | "both";
type Noise = "normal" | "t3";

/** One cell of the family. */
interface CellSpec {
  readonly design: readonly [number, number];
  readonly direction: "minimize" | "maximize";
  /** min_effect as a share of the effect: 0 or 0.15. */
  readonly minShare: number;
  readonly noise: Noise;
  /** null: clean noise. */
  readonly outliers: { readonly size: number; readonly side: Side; readonly rate: number } | null;
}

const cellLabel = (c: CellSpec) =>
  `${c.design[0]}/${c.design[1]} ${c.direction} me${c.minShare} ` +
  (c.outliers === null ? `clean ${c.noise}` : `${c.outliers.side} ${c.outliers.rate * 100}% ×${c.outliers.size}`);

function family(): CellSpec[] {
  const cells: CellSpec[] = [];
  for (const design of [[3, 9], [4, 12]] as const) {
    for (const direction of ["minimize", "maximize"] as const) {
      for (const minShare of [0, 0.15]) {
        for (const noise of ["normal", "t3"] as const) {
          cells.push({ design, direction, minShare, noise, outliers: null });
        }
        for (const side of ["candidate", "baseline", "both"] as const) {
          for (const rate of [0.05, 0.1]) {
            for (const size of [8, 12, 24]) {
              cells.push({ design, direction, minShare, noise: "normal", outliers: { size, side, rate } });
            }
          }
        }
      }
    }
  }
  return cells;
}

/** Student t with 3 df, scaled to sd 1. */
const t3 = (u: () => number) => {
  const z = normal(u);
  const chi2 = normal(u) ** 2 + normal(u) ** 2 + normal(u) ** 2;
  return z / Math.sqrt(chi2 / 3) / Math.sqrt(3);
};

/** The pair source of one climb: pair i's values; drawn again for a re-measure, on the same seed term. */
function source(cell: CellSpec, u: () => number, effect: number, truth: PairTruth) {
  const sign = cell.direction === "maximize" ? 1 : -1;
  const noise = cell.noise === "t3" ? t3 : normal;
  const o = cell.outliers;
  const shared: number[] = [];
  const measure = (arm: "baseline" | "candidate", seedTerm: number): [number, boolean] => {
    const hit = o !== null && (o.side === "both" || o.side === arm) && u() < o.rate;
    const v = seedTerm + sign * ((arm === "candidate" ? effect : 0) + noise(u) - (hit ? o!.size : 0));
    return [v, hit];
  };
  return (i: number): [number, number] => {
    if (shared[i] === undefined) shared[i] = 100 + 20 * normal(u);
    const [b, hb] = measure("baseline", shared[i]!);
    const [c, hc] = measure("candidate", shared[i]!);
    truth.moved[i] = hb !== hc;
    return [b, c];
  };
}

/** The A/A calibration under the cell's noise: the base measured twice per seed, every measure as likely to stall. */
function calibrationOf(cell: CellSpec, u: () => number): number[] {
  const noise = cell.noise === "t3" ? t3 : normal;
  const o = cell.outliers;
  const run = () => AA_SCALE * noise(u) - (o !== null && u() < o.rate ? o.size : 0);
  return Array.from({ length: AA_PAIRS }, () => run() - run());
}

interface Tally {
  accept: number;
  climbs: number;
  pairs: number;
}

function contractOf(cell: CellSpec, design: readonly [number, number] = cell.design): Contract {
  return parseContract({
    name: "sim",
    command: "sim",
    metric: "t",
    direction: cell.direction,
    min_effect: cell.minShare * EFFECT,
    repeats: design[0],
    max_repeats: design[1],
    confidence: CONFIDENCE,
  }, "sim");
}

/** One climb under `rule`: the verdict and the pairs measured (a re-measured pair counts again). */
function climb(c: Contract, draw: (i: number) => [number, number], rule: ClimbRule, truth: PairTruth) {
  const base: number[] = [];
  const cand: number[] = [];
  let measured = 0;
  let n = c.repeats;
  const redone = new Set<number>();
  for (;;) {
    while (base.length < n) {
      const [b, x] = draw(base.length);
      base.push(b);
      cand.push(x);
      measured++;
    }
    rule.before?.(truth, c);
    for (const i of rule.remeasure?.(c, base, cand, redone) ?? []) {
      [base[i], cand[i]] = draw(i);
      redone.add(i);
      measured++;
    }
    const d = decideLook(c, { baseline: base, candidate: cand }, rule.options);
    if (d.next.kind === "final") return { verdict: d.verdict, pairs: measured };
    n += d.next.pairs;
  }
}

function tally(
  cell: CellSpec,
  c: Contract,
  effect: number,
  climbs: number,
  rule: ClimbRule,
  stream: string,
): Tally {
  const t: Tally = { accept: 0, climbs, pairs: 0 };
  for (let j = 0; j < climbs; j++) {
    const u = rngFrom((SEED ^ hash(`${stream}|${effect}`)) + j * 7919);
    const aa = rngFrom((SEED ^ hash(`${stream}|aa`)) + j * 7919);
    const truth: PairTruth = { moved: [], calibration: calibrationOf(cell, aa) };
    const o = climb(rule.contract?.(c, truth) ?? c, source(cell, u, effect, truth), rule, truth);
    if (o.verdict === "accept") t.accept++;
    t.pairs += o.pairs;
  }
  return t;
}

interface CellResult {
  readonly cell: string;
  readonly spec: CellSpec;
  readonly effect: Tally;
  readonly none: Tally;
  /** At exactly min_effect; null when min_effect is 0 (the no-effect climbs are that case). */
  readonly atMin: Tally | null;
}

/** The smallest design r/3r (from the cell's own up) with which `rule` accepts 90%, and its mean pairs. */
function scan(spec: CellSpec, rule: ClimbRule) {
  for (const r of [4, 5, 6, 8, 10, 12, 16].filter((r) => 3 * r > spec.design[1])) {
    const c = contractOf(spec, [r, 3 * r]);
    const stream = `${cellLabel(spec)}|scan${r}`;
    const effect = tally(spec, c, EFFECT, CLIMBS, rule, stream);
    if (effect.accept / effect.climbs >= 0.9) {
      const none = tally(spec, c, 0, CLIMBS, rule, stream);
      return { design: `${r}/${3 * r}`, accept: effect.accept / effect.climbs, pairs: [none, effect].map(meanPairs) };
    }
  }
  return null;
}

const started = performance.now();
const cells = family().filter((c) => CELLS.test(cellLabel(c)));
const results: Record<string, CellResult[]> = {};
const scans: Record<string, Record<string, ReturnType<typeof scan>>> = {};
for (const name of RULES) {
  const rule = OUTLIER_RULES[name];
  if (rule === undefined) throw new Error(`unknown rule ${name}; --list lists them`);
  results[name] = cells.map((spec) => {
    const c = contractOf(spec);
    const stream = cellLabel(spec);
    const me = spec.minShare * EFFECT;
    return {
      cell: stream,
      spec,
      effect: tally(spec, c, EFFECT, CLIMBS, rule, stream),
      none: tally(spec, c, 0, NULL_CLIMBS, rule, stream),
      atMin: me > 0 ? tally(spec, c, me, NULL_CLIMBS, rule, stream) : null,
    };
  });
  if (SCAN) {
    scans[name] = Object.fromEntries(
      results[name].filter((r) => r.effect.accept / r.effect.climbs < 0.9).map((r) => [r.cell, scan(r.spec, rule)]),
    );
  }
  console.error(`${name}: ${Math.round((performance.now() - started) / 1000)} s`);
}

function rate(t: Tally): number {
  return t.accept / t.climbs;
}
function se(t: Tally): number {
  return Math.sqrt(rate(t) * (1 - rate(t)) / t.climbs);
}
/** The 95% Wilson score interval of a rate. */
function wilson(t: Tally): [number, number] {
  const z = 1.959964;
  const p = rate(t);
  const n = t.climbs;
  const mid = (p + z * z / (2 * n)) / (1 + z * z / n);
  const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return [Math.max(0, mid - half), Math.min(1, mid + half)];
}
function meanPairs(t: Tally): number {
  return Math.round(t.pairs / t.climbs * 100) / 100;
}
const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}%`;
const withSe = (t: Tally) => `${pct(rate(t))} ±${(se(t) * 100).toFixed(1)}`;
const withCi = (t: Tally) => {
  const [lo, hi] = wilson(t);
  return `${pct(rate(t), 2)} [${pct(lo, 2)}, ${pct(hi, 2)}]`;
};
/** The worse of a cell's false-accept tallies: at min_effect, or at no effect when that is higher. */
const worseNull = (r: CellResult) => (r.atMin !== null && rate(r.atMin) > rate(r.none) ? r.atMin : r.none);
const worst = (rows: CellResult[], f: (r: CellResult) => number, pick: "min" | "max") =>
  rows.reduce((a, b) => ((pick === "min" ? f(b) < f(a) : f(b) > f(a)) ? b : a));

const out: string[] = [];
for (const [name, rows] of Object.entries(results)) {
  out.push(`\n## ${name}: ${OUTLIER_RULES[name]!.label}\n`);
  out.push(
    "| cell | accepts (effect 3 σ) | false accepts, no effect | at min_effect | mean pairs (0 / min_effect / 3 σ) |",
  );
  out.push("| --- | --- | --- | --- | --- |");
  for (const r of rows) {
    out.push(
      `| ${r.cell} | ${withSe(r.effect)} | ${withCi(r.none)} | ${r.atMin === null ? "=" : withCi(r.atMin)} | ` +
        `${meanPairs(r.none)} / ${r.atMin === null ? "=" : meanPairs(r.atMin)} / ${meanPairs(r.effect)} |`,
    );
  }
  const outlier = rows.filter((r) => r.spec.outliers !== null);
  if (outlier.length > 0) {
    const w = worst(outlier, (r) => rate(r.effect), "min");
    out.push(
      `\nworst accepts: ${withSe(w.effect)} (${w.cell}); cells below 90%: ` +
        `${outlier.filter((r) => rate(r.effect) < 0.9).length} of ${outlier.length}`,
    );
  }
  const wf = worst(rows, (r) => rate(worseNull(r)), "max");
  out.push(`worst false accepts: ${withCi(worseNull(wf))} (${wf.cell})`);
  const above = rows.filter((r) => wilson(worseNull(r))[0] > (1 - CONFIDENCE) / 2);
  out.push(
    `cells whose false accepts are above ${pct((1 - CONFIDENCE) / 2)} beyond their 95% interval: ${above.length}`,
  );
  if (SCAN) {
    out.push(`\ncells below 90% and the smallest design with which this rule accepts 90%:\n`);
    out.push("| cell | design | accepts | mean pairs (0 / 3 σ) |");
    out.push("| --- | --- | --- | --- |");
    for (const [cell, s] of Object.entries(scans[name]!)) {
      out.push(
        s === null
          ? `| ${cell} | none up to 16/48 | | |`
          : `| ${cell} | ${s.design} | ${pct(s.accept)} | ${s.pairs[0]} / ${s.pairs[1]} |`,
      );
    }
  }
}
const seconds = Math.round((performance.now() - started) / 100) / 10;
out.push(
  `\n${CLIMBS} climbs per cell at the effect, ${NULL_CLIMBS} at 0 and at min_effect, A/A calibrations of ` +
    `${AA_PAIRS} pairs ×${AA_SCALE}, seed ${SEED}, ${seconds} s`,
);
console.log(out.join("\n"));

const command = `bun run scripts/simulate_outliers.ts ${process.argv.slice(2).join(" ")}`;
const md = flag("--md");
if (md !== undefined) writeFileSync(md, `# ${command}\n${out.join("\n")}\n`);
const json = flag("--write");
if (json !== undefined) {
  const counts = (t: Tally) => ({ accepts: t.accept, climbs: t.climbs, mean_pairs: meanPairs(t) });
  writeFileSync(
    json,
    JSON.stringify(
      {
        command,
        climbs: CLIMBS,
        null_climbs: NULL_CLIMBS,
        aa_pairs: AA_PAIRS,
        aa_scale: AA_SCALE,
        seed: SEED,
        confidence: CONFIDENCE,
        effect_sd: EFFECT,
        rules: Object.fromEntries(
          Object.entries(results).map(([name, rows]) => [name, {
            label: OUTLIER_RULES[name]!.label,
            cells: rows.map((r) => ({
              cell: r.cell,
              effect: counts(r.effect),
              no_effect: counts(r.none),
              at_min_effect: r.atMin === null ? null : counts(r.atMin),
            })),
            ...(SCAN ? { scan: scans[name] } : {}),
          }]),
        ),
      },
      null,
      2,
    ) + "\n",
  );
}
