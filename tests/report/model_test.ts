import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  differenceCells,
  estimateCells,
  formatDuration,
  formatSigned,
  formatTime,
  formatValue,
  improvementCells,
  outcome,
  shortSha,
  tally,
} from "../../src/report/format.ts";
import { groupMeasures, pairLabel, pairRows, parseMeasure } from "../../src/report/measures.ts";
import {
  armDifferenceInterval,
  benchmarkValues,
  differenceInterval,
  pairDifference,
  toClimb,
} from "../../src/report/model.ts";
import { makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

describe("toClimb()", () => {
  it("sorts runs oldest first, then by tag and run dir, and leaves its input alone", () => {
    const a = makeRun({ tag: "b", createdAt: "2025-01-01T00:00:00Z" });
    const b = makeRun({ tag: "a", createdAt: "2025-01-01T00:00:00Z" });
    const c = makeRun({ tag: "c", createdAt: "2024-12-31T23:00:00-02:00" }); // 01:00Z, the newest
    const d = makeRun({ tag: "d", createdAt: "2024-06-01T00:00:00Z" });
    const input = [a, b, c, d];
    assert.deepEqual(toClimb(input).map((r) => r.tag), ["d", "a", "b", "c"]);
    assert.deepEqual(input.map((r) => r.tag), ["b", "a", "c", "d"]);
  });

  it("puts a run with an unreadable timestamp last", () => {
    const runs = [makeRun({ tag: "x", createdAt: "yesterday" }), makeRun({ tag: "y" })];
    assert.deepEqual(toClimb(runs).map((r) => r.tag), ["y", "x"]);
  });
});

describe("benchmarkValues() and differenceInterval()", () => {
  it("reads a single-pair run's values; it has no interval", () => {
    const r = makeRun({ pairs: [] });
    assert.deepEqual(benchmarkValues(r), { baseline: 10, candidate: 12 });
    assert.equal(differenceInterval(r), null);
  });

  it("averages the pairs when the run has repeats", () => {
    const r = repeatRun();
    const v = benchmarkValues(r);
    assert.ok(Math.abs((v.baseline ?? 0) - 10.1) < 1e-12);
    assert.ok(Math.abs((v.candidate ?? 0) - 11) < 1e-12);
  });

  it("maps the improvement interval through the direction: swapped and negated when minimizing", () => {
    assert.deepEqual(differenceInterval(repeatRun()), { lower: 0.55, upper: 1.25, confidence: 0.95 });
    assert.deepEqual(differenceInterval(repeatRun({ direction: "minimize" })), {
      lower: -1.25,
      upper: -0.55,
      confidence: 0.95,
    });
  });

  it("gives null for what is not measured yet", () => {
    const r = makeRun({ values: { baseline: 3 }, differences: {}, pairs: [], verdict: null, state: "parked" });
    assert.deepEqual(benchmarkValues(r), { baseline: 3, candidate: null });
    assert.equal(r.improvement, null);
  });
});

describe("format helpers", () => {
  it("shortSha() keeps 10 characters", () => {
    assert.equal(shortSha("0123456789abcdef"), "0123456789");
  });

  it("formatValue() and formatSigned() print at most 6 significant digits and blanks for missing values", () => {
    assert.equal(formatValue(0.1 + 0.2), "0.3");
    assert.equal(formatValue(2.98259100001), "2.98259");
    assert.equal(formatSigned(-0.750275), "-0.750275");
    assert.equal(formatValue(null), "");
    assert.equal(formatSigned(2), "+2");
    assert.equal(formatSigned(-0.5), "-0.5");
    assert.equal(formatSigned(0), "0");
    assert.equal(formatSigned(undefined), "");
  });

  it("estimateCells() shows the mean and both ends signed, to the interval's digits, and the level", () => {
    assert.deepEqual(estimateCells(1, { lower: -0.25, upper: 2, confidence: 0.95 }), {
      mean: "+1.0",
      interval: "[-0.3, +2.0] 95%",
    });
    assert.deepEqual(estimateCells(8.11342, { lower: 3.81960341979, upper: 12.4067677802, confidence: 0.95 }), {
      mean: "+8.1",
      interval: "[+3.8, +12.4] 95%",
    });
    assert.deepEqual(estimateCells(2, null), { mean: "+2", interval: "" });
    assert.deepEqual(estimateCells(null, null), { mean: "", interval: "" });
  });

  it("improvementCells() and differenceCells() give the two quantities opposite signs when minimizing", () => {
    const r = repeatRun({ direction: "minimize", difference: -0.9 });
    assert.deepEqual(improvementCells(r), { mean: "+0.90", interval: "[+0.55, +1.25] 95%" });
    assert.deepEqual(differenceCells(r), { mean: "-0.90", interval: "[-1.25, -0.55] 95%" });
  });

  it("formatTime() prints UTC minutes whatever the offset, and an unreadable stamp as given", () => {
    assert.equal(formatTime("2025-03-01T10:00:59+02:00"), "2025-03-01 08:00");
    assert.equal(formatTime("soon"), "soon");
  });

  it("formatDuration() uses two units at most", () => {
    assert.equal(formatDuration(42), "42s");
    assert.equal(formatDuration(185), "3m05s");
    assert.equal(formatDuration(7440), "2h04m");
    assert.equal(formatDuration(3 * 86400 + 7200), "3d02h");
    assert.equal(formatDuration(null), "");
  });

  it("outcome() is the verdict, or the state without one, and never a disputed verdict as fact", () => {
    assert.equal(outcome(makeRun()), "accept");
    assert.equal(outcome(makeRun({ verdict: null, state: "failed" })), "failed");
    assert.equal(outcome(makeRun({ verdict: null, state: "calibrated" })), "calibrated");
    assert.equal(outcome(makeRun({ disputes: ["its verdict is accept, but …"] })), "accept (disputed)");
  });

  it("tally() counts every outcome, calibrated, measuring and interrupted included, in a fixed order", () => {
    const runs = [
      makeRun({ verdict: null, state: "interrupted" }),
      makeRun({ disputes: ["x"] }),
      makeRun({ verdict: null, state: "calibrated" }),
      makeRun(),
      makeRun({ verdict: null, state: "measuring" }),
    ];
    assert.deepEqual(tally(runs), [
      ["accept", 1],
      ["accept (disputed)", 1],
      ["calibrated", 1],
      ["measuring", 1],
      ["interrupted", 1],
    ]);
  });
});

describe("parseMeasure() and groupMeasures()", () => {
  it("reads the group, side and pair of each kind of name", () => {
    assert.deepEqual(parseMeasure("candidate#3"), {
      name: "candidate#3",
      group: "",
      sibling: false,
      guard: false,
      side: "candidate",
      pair: 3,
    });
    assert.deepEqual(parseMeasure("sib-tsp-base"), {
      name: "sib-tsp-base",
      group: "tsp",
      sibling: true,
      guard: false,
      side: "base",
      pair: 1,
    });
    assert.deepEqual(parseMeasure("guard-size-cand#2"), {
      name: "guard-size-cand#2",
      group: "size",
      sibling: false,
      guard: true,
      side: "candidate",
      pair: 2,
    });
    assert.equal(parseMeasure("sib-a-b-cand#2").group, "a-b");
    assert.equal(parseMeasure("other").side, "other");
  });

  it("orders the benchmark first, pair by pair, base before candidate, then siblings as they appear", () => {
    const names = ["sib-z-cand", "candidate#2", "sib-z-base", "baseline#2", "candidate", "sib-a-base", "baseline"];
    const groups = groupMeasures(names);
    assert.deepEqual(groups.map((g) => g.group), ["", "z", "a"]);
    assert.deepEqual(groups[0]?.measures.map((m) => m.name), ["baseline", "candidate", "baseline#2", "candidate#2"]);
    assert.deepEqual(groups[1]?.measures.map((m) => m.name), ["sib-z-base", "sib-z-cand"]);
  });
});

describe("pairRows() of guards", () => {
  it("gives a guard its own rows, its recorded differences and its mean, apart from the benchmark's", () => {
    const values = {
      baseline: 10,
      candidate: 9,
      "guard-size-base": 100,
      "guard-size-cand": 104,
      "baseline#2": 10,
      "candidate#2": 9,
      "guard-size-base#2": 100,
      "guard-size-cand#2": 106,
    };
    const deltas = { candidate: -1, "candidate#2": -1, "guard-size-cand": 4, "guard-size-cand#2": 6 };
    const { rows, others } = pairRows(values, deltas, -1);
    assert.deepEqual(others, []);
    const guard = rows.filter((r) => r.guard);
    assert.deepEqual(guard.map((r) => [r.group, r.pair, r.base, r.candidate, r.difference]), [
      ["size", 1, 100, 104, 4],
      ["size", 2, 100, 106, 6],
      ["size", null, 100, 105, 5],
    ]);
  });
});

describe("pairRows()", () => {
  it("puts base and candidate side by side with the recorded difference for a single pair", () => {
    const { rows, others } = pairRows({ candidate: 12, baseline: 10, "sib-t-base": 5, "sib-t-cand": 4, x: 1 }, {
      candidate: 2,
      "sib-t": -1,
    });
    assert.deepEqual(rows.map((r) => [r.group, r.pair, r.base, r.candidate, r.difference]), [
      ["", 1, 10, 12, 2],
      ["t", 1, 5, 4, -1],
    ]);
    assert.deepEqual(others, [["x", 1]]);
  });

  it("adds a summary row with each side's mean and the MEAN difference, not pair 1's, when there are several pairs", () => {
    const values = { baseline: 1, candidate: 2, "baseline#2": 3, "candidate#2": 5 };
    const { rows } = pairRows(values, { candidate: 1, "candidate#2": 2 });
    assert.deepEqual(rows.map((r) => [r.pair, r.base, r.candidate, r.difference]), [
      [1, 1, 2, 1],
      [2, 3, 5, 2],
      [null, 2, 3.5, 1.5],
    ]);
    const given = pairRows(values, { candidate: 1, "candidate#2": 2 }, 1.4999999999999998).rows;
    assert.equal(
      given.at(-1)?.difference,
      1.4999999999999998,
      "the run's difference, which agrees with its improvement",
    );
    assert.deepEqual(rows.map((r) => pairLabel(r)), [" pair 1", " pair 2", " mean of 2 pairs"]);
  });

  it("leaves a side that is not measured yet null, and its difference with it", () => {
    const { rows } = pairRows({ baseline: 1 }, {});
    assert.deepEqual(rows.map((r) => [r.base, r.candidate, r.difference]), [[1, null, null]]);
  });
});

describe("the model's accessors read what the views filled (issue 20: renderers format, never compute)", () => {
  it("benchmarkValues() gives the run's means when filled, and derives them only when unset", () => {
    const run = repeatRun();
    assert.deepEqual(benchmarkValues({ ...run, means: { baseline: 7, candidate: 8 } }), { baseline: 7, candidate: 8 });
    assert.deepEqual(benchmarkValues({ ...run, means: { baseline: null, candidate: null } }), {
      baseline: null,
      candidate: null,
    });
    assert.ok(Math.abs(benchmarkValues(run).baseline! - 10.1) < 1e-12, "derived: the pairs' mean");
  });

  it("differenceInterval() gives the run's when filled (null included), and derives it only when unset", () => {
    const run = repeatRun();
    const filled = { lower: -3, upper: -2, confidence: 0.9 };
    assert.deepEqual(differenceInterval({ ...run, differenceInterval: filled }), filled);
    assert.equal(differenceInterval({ ...run, differenceInterval: null }), null);
    assert.deepEqual(differenceInterval(run), { lower: 0.55, upper: 1.25, confidence: 0.95 });
  });

  it("armDifferenceInterval() gives a round candidate's when filled, else its improvement's through the direction", () => {
    const e = roundSummaryRun().round!.arms[1]!.confirmation!;
    assert.deepEqual(armDifferenceInterval({ ...e, differenceInterval: null }, "minimize"), null);
    assert.deepEqual(armDifferenceInterval(e, "minimize"), { lower: -2.4, upper: -1.4, confidence: 0.975 });
  });

  it("pairDifference() gives the pair's difference, else the run's recorded one, else its values'", () => {
    const run = repeatRun();
    const pairs = run.pairs.map((p, i) => (i === 0 ? { ...p, difference: 5 } : p));
    assert.equal(pairDifference({ ...run, pairs }, 1), 5);
    assert.equal(pairDifference({ ...run, differences: { "candidate#2": 9 } }, 2), 9);
    assert.ok(Math.abs(pairDifference({ ...run, differences: {} }, 3)! - 1.1) < 1e-12);
    assert.equal(pairDifference(run, 9), null);
  });
});
