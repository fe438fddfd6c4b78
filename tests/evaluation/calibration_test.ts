import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runPlan } from "../../src/plan/run_plan.ts";
import { formatCalibration } from "../../src/report/calibration_table.ts";
import type { RunRecord } from "../../src/rundir/run_record.ts";
import { calibrationOf, percentUp, relativeSuggestionOf } from "../../src/evaluation/calibration.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

const NOW = () => Date.parse("2025-01-02T03:04:05.678Z");

/** A calibration run of `toy` (metric `score`) in `pairs` pairs, with a sibling named `b-cand` (its measures: `sib-b-cand-base`, `sib-b-cand-cand`). */
function record(direction: "maximize" | "minimize", pairs: number): RunRecord {
  return runRecordFixture({ kind: "calibrate", candidateSha: "a".repeat(40) }, {
    direction,
    repeats: pairs,
    max_repeats: pairs,
    siblings: [{ name: "b-cand", command: "sh sib.sh", metric: "cost", direction, tolerance: 0.01 }],
  });
}

/** Each pair: baseline, candidate, sibling base, sibling cand (the plan's order), pair 1 first. */
const PAIRS: [number, number, number, number][] = [
  [10, 10.5, 50, 50.4],
  [9, 9.4, 48, 47.5],
  [11, 10.2, 52, 52.1],
  [10.4, 10.1, 49, 49.8],
  [9.8, 10.6, 51, 50.3],
  [10.1, 9.7, 50.5, 50.6],
];

function calibrationFor(direction: "maximize" | "minimize", sign: 1 | -1) {
  const r = record(direction, PAIRS.length);
  const { plan, seeds } = runPlan(r).all;
  const values: Record<string, number> = {};
  plan.forEach((m, i) => (values[m.name] = sign * PAIRS[Math.floor(i / 4)]![i % 4]!));
  return calibrationOf(r, plan, values, seeds, NOW);
}

/** Every number a text shows, in order. */
function numbers(text: string): string[] {
  return text.match(/-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?/g) ?? [];
}

describe("calibrationOf()", () => {
  it("reads the improvement of each pair's second measure over its first in the contract's direction", () => {
    const up = calibrationFor("maximize", 1);
    const down = calibrationFor("minimize", 1);
    assert.deepEqual(up.differences, down.differences, "the difference is the raw numbers' sign");
    assert.ok(Math.abs(up.mean - (0.5 + 0.4 - 0.8 - 0.3 + 0.8 - 0.4) / 6) < 1e-12, String(up.mean));
    assert.equal(down.mean, -up.mean);
    assert.equal(down.lower, -up.upper);
    assert.equal(down.sd, up.sd);
  });

  it("gives mirrored data (t minimized, −t maximized) the same suggestion, table numbers and sentence", () => {
    const minimized = calibrationFor("minimize", 1);
    const maximized = calibrationFor("maximize", -1);
    assert.deepEqual(maximized.suggestion, minimized.suggestion);
    assert.deepEqual([maximized.mean, maximized.lower, maximized.upper], [
      minimized.mean,
      minimized.lower,
      minimized.upper,
    ]);
    assert.equal(maximized.derivation, minimized.derivation);
    // the negated values have no ratio: the minimized (positive) data's relative form is its own line
    const absolute = (text: string) => text.split("\n").filter((l) => !/relative/.test(l)).join("\n");
    assert.deepEqual(numbers(absolute(formatCalibration(maximized))), numbers(absolute(formatCalibration(minimized))));
    assert.equal(maximized.relativeSuggestion, null, "a value <= 0: no relative form");
    assert.match(
      formatCalibration(minimized),
      /\n {2}or relative \(every value is positive\): \{"min_effect":"[0-9.]+%"\}\n/,
    );
    assert.match(formatCalibration(minimized), /toy \(score, lower is better\)/);
    assert.match(formatCalibration(maximized), /toy \(score, higher is better\)/);
  });

  it("measures each sibling's spread in its own direction, from names parseMeasureName reads", () => {
    const c = calibrationFor("minimize", 1);
    const sib = PAIRS.map(([, , base, cand]) => base - cand); // minimize: first − second
    const mean = sib.reduce((a, b) => a + b, 0) / sib.length;
    const sd = Math.sqrt(sib.reduce((a, x) => a + (x - mean) ** 2, 0) / (sib.length - 1));
    const s = c.siblings["b-cand"]!;
    assert.equal(s.n, 6);
    assert.ok(Math.abs(s.mean - mean) < 1e-12 && Math.abs(s.sd - sd) < 1e-12, `${s.mean} ${s.sd}`);
    assert.deepEqual([s.metric, s.direction], ["cost", "minimize"]);
    assert.deepEqual(Object.keys(c.suggestion.siblings), ["b-cand"]);
  });

  it("suggests each sibling's tolerance from an independently computed noncentral-t factor", () => {
    // 6 A/A pairs at 95% suggest (5, 14); its last look: 14 pairs at 1 − 0.05·4/14, held with 90%: 1.13249 sd
    const c = calibrationFor("maximize", 1);
    assert.deepEqual([c.suggestion.repeats, c.suggestion.maxRepeats], [5, 14]);
    const x = c.siblings["b-cand"]!.sd * 1.1324935269249747;
    const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
    assert.equal(c.suggestion.siblings["b-cand"]!.tolerance, Number((Math.ceil(x / unit) * unit).toPrecision(2)));
  });

  it("says in one sentence how each suggested key was derived, with its numbers", () => {
    const c = calibrationFor("minimize", 1);
    const s = c.suggestion;
    assert.ok(c.derivation !== null);
    assert.match(c.derivation, new RegExp(`^min_effect ${s.minEffect}: .*A/A check \\(6 pairs, 95%.*80% power`));
    assert.match(c.derivation, /max_repeats 14: the fewest pairs whose last look \(of 3, at 5, 10, 14 pairs\)/);
    assert.match(c.derivation, /repeats 5: /);
    assert.match(
      c.derivation,
      new RegExp(`tolerance b-cand ${s.siblings["b-cand"]!.tolerance} .*90% chance at that design's last look\\.$`),
    );
    const table = formatCalibration(c);
    assert.ok(table.includes(`how: ${c.derivation}`), table);
    assert.match(table, /sibling b-cand: \{"tolerance":[0-9.]+\}/);
  });
});

describe("relativeSuggestionOf()", () => {
  const suggestionFor = (direction: "maximize" | "minimize", map: (x: number) => number) => {
    const r = record(direction, PAIRS.length);
    const { plan } = runPlan(r).all;
    const values: Record<string, number> = {};
    plan.forEach((m, i) => (values[m.name] = map(PAIRS[Math.floor(i / 4)]![i % 4]!)));
    return relativeSuggestionOf(r, plan, values);
  };

  it("suggests min_effect and each sibling's tolerance as percentages, judged on the log ratio", () => {
    const s = suggestionFor("minimize", (x) => x)!;
    assert.match(s.minEffect, /^[0-9.]+%$/);
    assert.match(s.siblings["b-cand"]!, /^[0-9.]+%$/);
    // the A/A log ratios spread about 5% for the benchmark and 1% for the sibling: the suggestions follow
    assert.ok(Number(s.minEffect.slice(0, -1)) > Number(s.siblings["b-cand"]!.slice(0, -1)));
  });

  it("gives t minimized and 1/t maximized one suggestion", () => {
    assert.deepEqual(suggestionFor("maximize", (x) => 1 / x), suggestionFor("minimize", (x) => x));
  });

  it("is null when a value of the benchmark is at or below 0, and a sibling's null when its value is", () => {
    assert.equal(suggestionFor("maximize", (x) => x - 10), null);
    const s = suggestionFor("maximize", (x) => (x > 40 ? x - 50 : x))!;
    assert.equal(s.siblings["b-cand"], null);
    assert.match(s.minEffect, /%$/);
  });
});

describe("percentUp()", () => {
  it("rounds a fraction up to two significant digits of a percentage", () => {
    assert.equal(percentUp(0.02134), "2.2%");
    assert.equal(percentUp(0.0037), "0.37%");
    assert.equal(percentUp(0.02), "2%");
    assert.equal(percentUp(0.1234), "13%");
    assert.equal(percentUp(0), "0%");
  });
});
