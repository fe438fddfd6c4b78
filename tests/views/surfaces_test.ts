import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cli } from "../helpers/cli.ts";
import { mirroredCase, outlierCase, type SeededCase, seededCase, seededRun } from "../helpers/seeded_run.ts";
import {
  agrees,
  elements,
  estimateAgrees,
  factText,
  intervalIn,
  markerX,
  markerY,
  mdCells,
  mdRows,
  type RatioJson,
  relativeAgrees,
  svgById,
  textCell,
  unitOf,
} from "../helpers/surface_read.ts";
import { tempDir } from "../helpers/temp.ts";
import { setAsideClause } from "../../src/report/set_aside.ts";
import { setAsideReason } from "../../src/verdict/set_aside_reason.ts";
import { roundCase, roundRun } from "../helpers/seeded_round.ts";
import { checkPrinted, checkRoundSurfaces } from "../helpers/round_surfaces.ts";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * What a person reads agrees with decision.json, for random decisions: either
 * direction, one pair or a (sequential) repeated design, with and without a
 * sibling — and outlier cases: 6 to 12 pairs, one far off the others (set
 * aside by the screen), half of them with every benchmark measure reporting
 * samples. Each case makes a real run dir (seeded_run.ts: `runPhase` on a
 * fake scheduler until decided) and reads `show --json`, `show`, `runs
 * --json`, `runs`, `resume --json`, `report --md` and `report --html` back,
 * in process: the verdict, the improvement (the estimate the verdict rests
 * on, positive = better) with its interval, and the differences (candidate −
 * baseline) must be the decision's, in sign and value, to the digits printed;
 * the pairs set aside are named wherever the mean is shown, and the mean is
 * the kept pairs'; each measure's samples are decision.json's `samples`.
 * Rounds too (K = 2–4 candidates against one baseline, either direction,
 * with and without a sibling): every surface gives the winner, each
 * candidate's verdict and its improvement's mean and interval as
 * decision.json's `round` does (tests/helpers/round_surfaces.ts).
 */

const CASES = 40;
const FIRST_SEED = 1400;
const OUTLIER_CASES = 12;
const FIRST_OUTLIER = 3000;
const ROUND_CASES = 30;
const FIRST_ROUND = 4000;

/** decision.json as a reader of the file sees it. */
interface DecisionJson {
  verdict: string;
  values: Record<string, number>;
  deltas: Record<string, number>;
  benchmark?: {
    n: number;
    mean: number;
    lower: number;
    upper: number;
    confidence: number;
    method: string;
    set_aside?: number[];
  };
  samples?: Record<string, { n: number; min: number; median: number; max: number }>;
  relative?: { benchmark: RatioJson | null };
}

/** What the decision says a person must read: the improvement, the difference and their intervals. */
function expected(c: SeededCase, d: DecisionJson) {
  const sign = c.direction === "maximize" ? 1 : -1;
  const b = d.benchmark;
  const mean = b ? b.mean : sign * d.deltas["candidate"]!;
  const pairs = Object.keys(d.deltas).filter((k) => /^candidate(#\d+)?$/.test(k));
  const diffs = pairs.map((k) => d.deltas[k]!);
  const setAside = b?.set_aside ?? [];
  const kept = diffs.filter((_, i) => !setAside.includes(i + 1));
  return {
    n: b?.n ?? 1,
    improvement: mean,
    interval: b ? { lower: b.lower, upper: b.upper, confidence: b.confidence } : null,
    difference: sign * mean,
    differenceInterval: b ? (sign > 0 ? [b.lower, b.upper] as const : [-b.upper, -b.lower] as const) : null,
    diffs,
    setAside,
    /** The mean of the pairs' differences the estimate kept (all of them, but for those set aside). */
    meanOfDiffs: kept.reduce((s, x) => s + x, 0) / kept.length,
    /** The mean row's label: `mean of 10 pairs`, `mean of 9 of 10 pairs; pair 8 set aside`. */
    meanLabel: setAside.length === 0
      ? `mean of ${b?.n ?? 1} pairs`
      : `mean of ${(b?.n ?? 1) - setAside.length} of ${b?.n ?? 1} pairs; pair${setAside.length > 1 ? "s" : ""} `,
    samples: d.samples ?? {},
    /** The one clause every surface names the pairs set aside with, and why; "" when none. */
    clause: setAside.length === 0 ? "" : setAsideClause(setAside, setAsideReason(b!.method)),
    why: setAside.length === 0 ? null : setAsideReason(b!.method),
  };
}

/** Checks every surface of one case; a failure names the seed, so `seededCase(seed)` (or `outlierCase`) replays it. */
async function checkCase(c: SeededCase): Promise<void> {
  const seed = c.seed;
  const root = tempDir("surfaces-");
  const { dir, compute } = await seededRun(c, root);
  const d = JSON.parse(readFileSync(dir.decision, "utf8")) as DecisionJson;
  const e = expected(c, d);
  const ratio = d.relative?.benchmark ?? null;
  const at = `seed ${seed} (${c.direction}, repeats ${c.repeats}/${c.maxRepeats}, sibling ${c.sibling}, ` +
    `set aside ${e.setAside}, samples ${Object.keys(e.samples).length})`;
  const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  assert.ok(near(e.difference, e.meanOfDiffs), `${at}: the improvement's mean is the kept pairs' mean difference`);

  // show --json and resume --json: decision.json's own keys
  const show = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
  assert.equal(show.verdict, d.verdict, `${at}: show --json verdict`);
  assert.deepEqual(show.disputes, [], at);
  assert.deepEqual(show.benchmark, d.benchmark, `${at}: show --json benchmark`);
  checkQuantities(at, show, d, e);
  for (const m of show.measures) {
    assert.deepEqual(m.samples, e.samples[m.name] ?? null, `${at}: show --json samples of ${m.name}`);
  }
  const resume = JSON.parse((await cli(["resume", dir.path, "--json"], { compute })).stdout);
  assert.equal(resume.verdict, d.verdict, `${at}: resume --json verdict`);
  assert.deepEqual(resume.deltas, d.deltas, `${at}: resume --json deltas`);
  assert.deepEqual(resume.benchmark, d.benchmark, `${at}: resume --json benchmark`);
  checkQuantities(at, resume, d, e);

  // show: the estimate line to the digits printed
  const showText = (await cli(["show", dir.path], { compute })).stdout;
  assert.match(showText, new RegExp(`^verdict: ${d.verdict}$`, "m"), at);
  if (e.interval) {
    const line = /^improvement \(positive = better\): mean (\S+), [\d.]+% CI \[(\S+), (\S+)\], n=(\d+)$/m.exec(
      showText,
    );
    assert.ok(line, `${at}: show prints the improvement\n${showText}`);
    const i = e.interval;
    assert.ok(estimateAgrees([line[1]!, line[2]!, line[3]!], [e.improvement, i.lower, i.upper]), `${at}: ${line[0]}`);
    assert.equal(Number(line[4]), e.n, at);
  }
  const showRatio = /^relative \(candidate \/ baseline\): (.*)$/m.exec(showText);
  checkRelative(`${at}: show`, showRatio?.[1] ?? "", ratio, c.direction);
  const aside = /^set aside: (.*)$/m.exec(showText);
  if (e.setAside.length === 0) assert.equal(aside, null, `${at}: show names no pair set aside`);
  else {
    assert.ok(aside, `${at}: show names the pairs set aside\n${showText}`);
    assert.ok(aside[1]!.startsWith(`${e.clause} (`), `${at}: show says ${aside[0]}, not ${e.clause}`);
    const named = [...aside[1]!.matchAll(/candidate(?:#(\d+))?/g)].map((m) => Number(m[1] ?? 1));
    assert.deepEqual(named, [...e.setAside].sort((x, y) => x - y), `${at}: ${aside[0]}`);
  }
  checkSamplesTable(at, showText, e.samples);

  // runs --json: the difference and the improvement, each under its own key
  const runs = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs[0];
  assert.equal(runs.verdict, d.verdict, `${at}: runs --json verdict`);
  assert.equal(runs.improvement.mean, e.improvement, `${at}: runs --json improvement.mean`);
  assert.equal(runs.improvement.n, e.n, at);
  assert.equal(runs.improvement.lower, e.interval?.lower ?? null, at);
  assert.equal(runs.improvement.upper, e.interval?.upper ?? null, at);
  assert.equal(runs.improvement.confidence, e.interval?.confidence ?? null, at);
  assert.deepEqual(runs.improvement.set_aside, [...e.setAside].sort((x, y) => x - y), `${at}: runs --json set_aside`);
  assert.equal(runs.improvement.set_aside_why, e.why, `${at}: runs --json set_aside_why`);
  assert.equal(runs.difference, e.difference, `${at}: runs --json difference`);
  const side = (prefix: string) => {
    const xs = Object.entries(d.values).filter(([k]) => new RegExp(`^${prefix}(#\\d+)?$`).test(k)).map(([, v]) => v);
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  };
  assert.ok(near(runs.baseline, side("baseline")), `${at}: runs --json baseline is the mean over the pairs`);
  assert.ok(near(runs.candidate, side("candidate")), `${at}: runs --json candidate is the mean over the pairs`);

  // runs: the same numbers as printed
  const table = (await cli(["runs", root], { compute })).stdout;
  assert.equal(textCell(table, 1, "verdict", "left"), d.verdict, at);
  const diffCell = textCell(table, 1, "difference", "right");
  const impCell = textCell(table, 1, "improvement", "right");
  const ivCell = textCell(table, 1, "improvement interval", "left");
  checkPrinted(`${at}: runs`, impCell, ivCell, e.improvement, e.interval);
  const printed = intervalIn(ivCell);
  const unit = Math.max(...[diffCell, impCell, printed?.lower ?? "0", printed?.upper ?? "0"].map(unitOf));
  assert.ok(agrees(diffCell, e.difference, unit), `${at}: runs difference ${diffCell} for ${e.difference}`);
  assert.equal(textCell(table, 1, "n", "right"), String(e.n), at);
  assert.equal(table.includes("set aside"), e.clause !== "", `${at}: runs names the pairs set aside\n${table}`);
  if (e.clause !== "") assert.match(table, new RegExp(`\n  ${escapeRegExp(e.clause)}\n`), `${at}: runs\n${table}`);
  checkRelative(`${at}: runs`, ratio === null ? "" : textCell(table, 1, "relative", "left"), ratio, c.direction);

  // Markdown: each pair's difference, the mean row, the estimate sentence
  const md = (await cli(["report", dir.path, "--md"], { compute })).stdout;
  const headline = new RegExp(`^### \`toy\`: ${d.verdict}(?:, (.+))?\\n`).exec(md);
  assert.ok(headline, `${at}: the Markdown headline\n${md}`);
  checkRelative(`${at}: Markdown headline`, headline[1] ?? "", ratio, c.direction);
  const rows = mdRows(md).slice(2).map(mdCells).filter((r) => r[0]!.startsWith("`toy`"));
  const pairRows = rows.filter((r) => !r[0]!.includes("mean of"));
  assert.equal(pairRows.length, e.diffs.length, at);
  pairRows.forEach((r, i) => assert.ok(agrees(r[3]!, e.diffs[i]!), `${at}: Markdown pair ${i + 1}: ${r[3]}`));
  pairRows.forEach((r, i) =>
    assert.equal(r[0]!.endsWith("(set aside)"), e.setAside.includes(i + 1), `${at}: Markdown ${r[0]}`)
  );
  if (e.interval) {
    const meanRow = rows.find((r) => r[0]!.includes("mean of"));
    assert.ok(meanRow?.[0]?.startsWith(`\`toy\` ${e.meanLabel}`), `${at}: a mean row ${meanRow?.[0]}\n${md}`);
    const s =
      /Improvement \(positive = better\) over (\d+|\d+ of \d+) pairs(?: \((.*?) set aside, [^:]*\))?: mean (\S+), interval (\[[^\]]+\] \S+); difference \(candidate − baseline\): mean (\S+), interval (\[[^\]]+\] [\d.]+%)(?:; relative \(candidate \/ baseline\): ([^\n]+), [\d.]+%)?\./
        .exec(md);
    assert.ok(s, `${at}: the estimate sentence\n${md}`);
    const k = e.setAside.length;
    assert.equal(s[1], k === 0 ? String(e.n) : `${e.n - k} of ${e.n}`, `${at}: ${s[0]}`);
    assert.equal(s[2] === undefined, k === 0, `${at}: ${s[0]}`);
    if (k > 0) assert.ok(s[0].includes(`pairs (${e.clause}):`), `${at}: Markdown says ${s[0]}, not ${e.clause}`);
    s.splice(1, 1);
    checkPrinted(`${at}: Markdown improvement`, s[2]!, s[3]!, e.improvement, e.interval);
    const [dl, du] = e.differenceInterval!;
    checkPrinted(`${at}: Markdown difference`, s[4]!, s[5]!, e.difference, {
      lower: dl,
      upper: du,
      confidence: e.interval.confidence,
    });
    assert.equal(meanRow?.[3], s[4], `${at}: the mean row shows the mean difference`);
    checkRelative(`${at}: Markdown estimate sentence`, s[6] ?? "", ratio, c.direction);
  } else {
    assert.match(md, /Improvement \(positive = better\) on one pair: (\S+); difference/, at);
    const s = /on one pair: (\S+); difference \(candidate − baseline\) (\S+)\./.exec(md)!;
    assert.ok(agrees(s[1]!, e.improvement) && agrees(s[2]!, e.difference), `${at}: ${s[0]}`);
  }

  // HTML: the badge, the facts, and the difference chart's marks where the numbers say
  const file = join(root, "report.html");
  assert.equal((await cli(["report", dir.path, "--html", file], { compute })).code, 0, at);
  const html = readFileSync(file, "utf8");
  const h1 = new RegExp(
    `<h1>toy <span class="badge badge-${d.verdict}">${d.verdict}</span>(?: <span class="relative">([^<]*)</span>)?</h1>`,
  ).exec(html);
  assert.ok(h1, `${at}: the HTML headline`);
  checkRelative(`${at}: HTML headline`, h1[1] ?? "", ratio, c.direction);
  checkRelative(`${at}: HTML facts`, factText(html, "relative (candidate / baseline)"), ratio, c.direction);
  const impFact = factText(html, "improvement (positive = better)");
  checkPrinted(`${at}: HTML improvement`, impFact.split(",")[0]!, impFact, e.improvement, e.interval);
  checkDifferenceChart(at, html, c, e);
  if (e.clause !== "") assert.ok(impFact.endsWith(`, ${e.clause}`), `${at}: HTML says ${impFact}, not ${e.clause}`);
  checkWhiskers(at, html, e.samples);
  if (Object.keys(e.samples).length > 0) assert.match(html, /<caption>Samples behind each value<\/caption>/, at);
}

/** A surface's relative figure: the decision's ratio to the digits printed, or nothing where the decision has none. */
function checkRelative(at: string, text: string, ratio: RatioJson | null, direction: "minimize" | "maximize"): void {
  if (ratio === null) return assert.equal(text, "", `${at}: no relative figure without the decision's`);
  assert.equal(
    relativeAgrees(text, ratio, direction),
    true,
    `${at}: ${JSON.stringify(text)} for ${JSON.stringify(ratio)}`,
  );
}

/** `show --json` / `resume --json`: `improvement` is the benchmark's estimate, `difference` it through the direction. */
// deno-lint-ignore no-explicit-any -- the parsed --json output
function checkQuantities(at: string, j: any, d: DecisionJson, e: ReturnType<typeof expected>): void {
  const b = d.benchmark;
  if (b === undefined) {
    assert.deepEqual(j.improvement, {
      n: 1,
      mean: e.improvement,
      lower: null,
      upper: null,
      confidence: null,
      method: "single pair, no interval",
      set_aside: [],
      set_aside_why: null,
    }, at);
    assert.deepEqual(
      j.difference,
      { n: 1, mean: d.deltas["candidate"], lower: null, upper: null, confidence: null },
      at,
    );
    return;
  }
  const { set_aside = [], ...rest } = b;
  assert.deepEqual(
    j.improvement,
    { ...rest, set_aside: [...set_aside].sort((x, y) => x - y), set_aside_why: e.why },
    `${at}: improvement`,
  );
  const [lower, upper] = e.differenceInterval!;
  assert.deepEqual(j.difference, { n: b.n, mean: e.difference, lower, upper, confidence: b.confidence }, at);
}

/** `show`'s samples table: one row per measure that reported samples, each the decision's. */
function checkSamplesTable(at: string, text: string, samples: DecisionJson["samples"] & object): void {
  const head = /^samples \(.*\):$/m.exec(text);
  if (Object.keys(samples).length === 0) {
    assert.equal(head, null, `${at}: no samples table`);
    return;
  }
  assert.ok(head, `${at}: a samples table\n${text}`);
  const table = text.slice(head.index + head[0].length + 1);
  const lines = table.split("\n");
  for (const [name, s] of Object.entries(samples)) {
    const row = lines.findIndex((l) => l.startsWith(`${name} `));
    assert.ok(row > 0, `${at}: a samples row for ${name}`);
    assert.equal(textCell(table, row, "n", "right"), String(s.n), at);
    for (const k of ["min", "median", "max"] as const) {
      assert.ok(agrees(textCell(table, row, k, "right"), s[k]), `${at}: ${name} ${k}`);
    }
  }
}

/** The values chart's whiskers: one per measure with samples, its ends at their min and max. */
function checkWhiskers(at: string, html: string, samples: DecisionJson["samples"] & object): void {
  const svg = svgById(html, "values-");
  const whiskers = elements(svg, (x) => x.attrs["class"] === "whisker");
  assert.equal(whiskers.length, Object.keys(samples).filter((k) => /^(baseline|candidate)/.test(k)).length, at);
  for (const w of whiskers) {
    const s = samples[w.attrs["data-measure"]!]!;
    assert.deepEqual([Number(w.attrs["data-min"]), Number(w.attrs["data-max"])], [s.min, s.max], at);
  }
}

/**
 * The run page's difference chart: each pair's dot at its difference, the
 * mean marker at the mean difference — on the same side of zero as the
 * pairs' mean, where the dots' own scale puts it — the interval's ends at
 * the difference interval, and min_effect on the improving side.
 */
function checkDifferenceChart(at: string, html: string, c: SeededCase, e: ReturnType<typeof expected>): void {
  const svg = svgById(html, "diff-");
  assert.ok(svg !== "", `${at}: a difference chart`);
  const zero = Number(elements(svg, (x) => x.attrs["class"] === "zero")[0]?.attrs["x1"]);
  const dots = elements(svg, (x) => x.attrs["data-point"] === "pair");
  assert.deepEqual(dots.map((x) => Number(x.attrs["data-value"])), e.diffs, `${at}: the dots are the differences`);
  dots.forEach((dot, i) => {
    const aside = e.setAside.includes(i + 1);
    assert.equal(dot.attrs["data-set-aside"] === "true", aside, `${at}: pair ${i + 1} set aside or not`);
    assert.equal(dot.attrs["fill"] === "#ffffff", aside, `${at}: pair ${i + 1}'s dot hollow exactly when set aside`);
  });
  if (e.setAside.length > 0) assert.match(html, /set aside \(outlying\)<\/li>/, `${at}: the legend says so`);
  const wide = dots.find((x) => Math.abs(markerX(x) - zero) >= 20);
  const perUnit = wide ? (markerX(wide) - zero) / Number(wide.attrs["data-value"]) : null;
  for (const dot of dots) {
    const v = Number(dot.attrs["data-value"]);
    assert.ok((markerX(dot) - zero) * v >= 0, `${at}: pair dot ${v} on its side of zero`);
  }
  const line = elements(svg, (x) => x.attrs["class"] === "min-effect")[0];
  const lineX = Number(line?.attrs["x1"]);
  if (c.minEffect > 0) {
    const rightward = c.direction === "maximize";
    assert.ok(rightward ? lineX > zero : lineX < zero, `${at}: min_effect on the improving side of zero`);
  }
  const mean = elements(svg, (x) => x.attrs["data-point"] === "mean")[0];
  if (e.interval === null) {
    assert.equal(mean, undefined, `${at}: no mean marker for one pair`);
    return;
  }
  assert.ok(mean, `${at}: a mean marker`);
  assert.equal(Number(mean.attrs["data-value"]), e.difference, `${at}: the mean marker is the mean difference`);
  assert.ok(
    (markerX(mean) - zero) * e.meanOfDiffs >= 0,
    `${at}: the mean marker on the side of zero its pairs' mean is`,
  );
  if (perUnit !== null) {
    const predicted = zero + perUnit * e.meanOfDiffs;
    assert.ok(Math.abs(markerX(mean) - predicted) < 1, `${at}: the mean marker at ${predicted}, not ${markerX(mean)}`);
  }
  const iv = elements(svg, (x) => x.attrs["class"] === "interval")[0];
  assert.deepEqual([Number(iv?.attrs["data-lower"]), Number(iv?.attrs["data-upper"])], e.differenceInterval, at);
}

describe("every surface agrees with decision.json when a pair is set aside (property, seeded)", () => {
  it(
    `holds for ${OUTLIER_CASES} outlier cases, seeds ${FIRST_OUTLIER}..${FIRST_OUTLIER + OUTLIER_CASES - 1}`,
    { timeout: 120_000 },
    async () => {
      for (let seed = FIRST_OUTLIER; seed < FIRST_OUTLIER + OUTLIER_CASES; seed++) {
        const c = outlierCase(seed);
        await checkCase(c).catch((err: Error) => {
          throw new Error(`seed ${seed} (replay: outlierCase(${seed})): ${err.message}`, { cause: err });
        });
      }
    },
  );

  it("sets the far pair aside in every outlier case (the cases are what they say)", async () => {
    const directions = new Set<string>();
    for (let seed = FIRST_OUTLIER; seed < FIRST_OUTLIER + OUTLIER_CASES; seed++) {
      const c = outlierCase(seed);
      directions.add(c.direction);
      const { dir } = await seededRun(c, tempDir("outlier-"));
      const d = JSON.parse(readFileSync(dir.decision, "utf8")) as DecisionJson;
      assert.ok((d.benchmark?.set_aside ?? []).length >= 1, `seed ${seed}: ${JSON.stringify(d.benchmark)}`);
      assert.equal(d.samples !== undefined, seed % 2 === 0, `seed ${seed}: samples for even seeds`);
      // odd seeds are calibrated: their pairs are set aside beyond the fence, the others' by the ESD test
      const why = setAsideReason(d.benchmark!.method);
      assert.match(
        why,
        seed % 2 === 1 ? /^beyond the fence of the calibrated noise \(sd / : /^outlying by the generalized ESD/,
      );
    }
    assert.equal(directions.size, 2, "both directions");
  });
});

describe("every surface agrees with decision.json (property, seeded)", () => {
  it(
    `holds for ${CASES} random decisions, seeds ${FIRST_SEED}..${FIRST_SEED + CASES - 1}`,
    { timeout: 120_000 },
    async () => {
      const kinds = new Set<string>();
      for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
        const c = seededCase(seed);
        kinds.add(`${c.direction} ${c.maxRepeats === 1 ? "n=1" : "n>1"} ${c.sibling ? "sibling" : "alone"}`);
        await checkCase(c).catch((err: Error) => {
          throw new Error(`seed ${seed} (replay: seededCase(${seed})): ${err.message}`, { cause: err });
        });
      }
      assert.equal(
        kinds.size,
        8,
        `the seeds cover both directions, n = 1 and n > 1, with and without a sibling: ${[...kinds]}`,
      );
    },
  );
});

/** The marks of a chart (`<svg id="<prefix>…">`) as [data-point, x, y], and its zero line's position. */
function marks(html: string, prefix: string, axis: "x" | "y") {
  const svg = svgById(html, prefix);
  const zeroLine = elements(svg, (x) => x.attrs["class"] === "zero")[0]!;
  const zero = Number(zeroLine.attrs[axis === "x" ? "x1" : "y1"]);
  const points = elements(svg, (x) => x.attrs["data-point"] !== undefined)
    .map((x) => [x.attrs["data-point"]!, markerX(x), markerY(x)] as const);
  const shade = elements(svg, (x) => x.attrs["class"] === "accept-side")[0];
  return { zero, points, shade };
}

describe("a mirrored run (the metric negated, the direction flipped, the same seeds)", () => {
  it(
    "gives the same verdict and improvement, opposite differences and mirrored charts",
    { timeout: 60_000 },
    async () => {
      for (let seed = 2000; seed < 2012; seed++) {
        const c = seededCase(seed);
        const at = `seed ${seed} (${c.direction}, repeats ${c.repeats}/${c.maxRepeats})`;
        const one = await seededRun(c, tempDir("mirror-"));
        const two = await seededRun(mirroredCase(c), tempDir("mirror-"));
        const [d1, d2] = [one, two].map(({ dir }) => JSON.parse(readFileSync(dir.decision, "utf8")) as DecisionJson);
        assert.equal(d2!.verdict, d1!.verdict, `${at}: the verdict`);
        assert.deepEqual(d2!.benchmark, d1!.benchmark, `${at}: the improvement, bit for bit`);
        for (const [k, v] of Object.entries(d1!.deltas)) assert.equal(d2!.deltas[k], -v, `${at}: difference ${k}`);
        const [r1, r2] = await Promise.all([one, two].map(async ({ dir, compute }) => {
          const file = join(dir.path, "..", "run.html");
          await cli(["report", dir.path, "--html", file], { compute });
          const climbFile = join(dir.path, "..", "climb.html");
          await cli(["report", join(dir.path, ".."), "--html", climbFile], { compute });
          const runs = JSON.parse((await cli(["runs", join(dir.path, ".."), "--json"], { compute })).stdout).runs[0];
          return { run: readFileSync(file, "utf8"), climb: readFileSync(climbFile, "utf8"), runs };
        }));
        assert.deepEqual(r2!.runs.improvement, r1!.runs.improvement, `${at}: runs --json improvement`);
        assert.equal(r2!.runs.difference, -r1!.runs.difference, `${at}: runs --json difference`);
        // the run page's difference chart: every mark mirrored about zero, the shaded side too
        const [m1, m2] = [marks(r1!.run, "diff-", "x"), marks(r2!.run, "diff-", "x")];
        assert.equal(m2.points.length, m1.points.length, at);
        m1.points.forEach(([kind, x, y], i) => {
          const [kind2, x2, y2] = m2.points[i]!;
          assert.equal(kind2, kind, at);
          assert.equal(y2, y, at);
          assert.ok(
            Math.abs((x2 - m2.zero) + (x - m1.zero)) <= 0.3,
            `${at}: ${kind} ${i} at ${x - m1.zero} / ${x2 - m2.zero}`,
          );
        });
        const side = (m: typeof m1) =>
          Math.sign(Number(m.shade!.attrs["x"]) + Number(m.shade!.attrs["width"]) / 2 - m.zero);
        if (c.minEffect > 0) assert.equal(side(m2), -side(m1), `${at}: the shaded (improving) side flips`);
        // the climb's improvement chart: positive = better, the same picture both ways
        const [i1, i2] = [marks(r1!.climb, "improvement-", "y"), marks(r2!.climb, "improvement-", "y")];
        assert.deepEqual(i2.points, i1.points, `${at}: the improvement chart is the same`);
        assert.deepEqual(i2.shade?.attrs, i1.shade?.attrs, at);
      }
    },
  );
});

describe("every surface agrees with decision.json on a round (property, seeded)", () => {
  it(
    `holds for ${ROUND_CASES} random rounds, seeds ${FIRST_ROUND}..${FIRST_ROUND + ROUND_CASES - 1}`,
    { timeout: 180_000 },
    async () => {
      const kinds = new Set<string>();
      const outcomes = new Set<string>();
      for (let seed = FIRST_ROUND; seed < FIRST_ROUND + ROUND_CASES; seed++) {
        const c = roundCase(seed);
        const root = tempDir("surfaces-round-");
        const { dir, compute } = await roundRun(c, root);
        const at = `seed ${seed} (replay: roundCase(${seed}); K ${c.k}, ${c.direction}, repeats ${c.repeats}/` +
          `${c.maxRepeats}, sibling ${c.sibling})`;
        await checkRoundSurfaces(at, dir, root, compute, c.direction);
        const d = JSON.parse(readFileSync(dir.decision, "utf8"));
        kinds.add(`K${c.k} ${c.direction} ${c.sibling ? "sibling" : "alone"}`);
        outcomes.add(d.round.winner === null ? d.verdict : "winner");
      }
      for (const k of [2, 3, 4]) assert.ok([...kinds].some((x) => x.startsWith(`K${k} `)), `K = ${k}: ${[...kinds]}`);
      for (const w of ["maximize", "minimize", "sibling", "alone"]) {
        assert.ok([...kinds].some((x) => x.includes(w)), `${w}: ${[...kinds]}`);
      }
      assert.deepEqual([...outcomes].sort(), ["inconclusive", "reject", "winner"], "a winner, all rejected, neither");
    },
  );
});
