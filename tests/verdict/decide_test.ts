import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { decide, decideLook } from "../../src/verdict/decide.ts";
import { pairMeasureName } from "../../src/measure/measure_name.ts";
import { VERDICT_EXIT } from "../../src/exit_codes.ts";
import { formatNumber } from "../../src/text/numbers.ts";
import { formatDecisionTable, formatMeasureStates } from "../../src/report/verdict_table.ts";
import { STUDENT_T } from "../../src/stats/location_interval.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

const pair = (baseline: number, candidate: number) => ({ baseline, candidate });

describe("decide() on the benchmark alone", () => {
  // [direction, min_effect, baseline, candidate, verdict]; values exact in binary so boundaries are exact
  const table: ["maximize" | "minimize", number, number, number, string][] = [
    ["maximize", 0, 10, 12, "accept"],
    ["maximize", 0, 10, 10, "reject"],
    ["maximize", 0, 10, 9, "reject"],
    ["maximize", 0.5, 10, 10.75, "accept"],
    ["maximize", 0.5, 10, 10.5, "inconclusive"],
    ["maximize", 0.5, 10, 10.25, "inconclusive"],
    ["maximize", 0.5, 10, 10, "reject"],
    ["maximize", 0.5, 10, 9.75, "reject"],
    ["minimize", 0, 10, 8, "accept"],
    ["minimize", 0, 10, 10, "reject"],
    ["minimize", 0, 10, 12, "reject"],
    ["minimize", 0.5, 10, 9.25, "accept"],
    ["minimize", 0.5, 10, 9.5, "inconclusive"],
    ["minimize", 0.5, 10, 9.75, "inconclusive"],
    ["minimize", 0.5, 10, 10.25, "reject"],
  ];
  for (const [direction, minEffect, base, cand, verdict] of table) {
    it(`${verdict}s ${base} -> ${cand} when ${direction === "maximize" ? "higher" : "lower"} is better and min_effect is ${minEffect}`, () => {
      const d = decide(contract({ direction, min_effect: minEffect }), pair(base, cand));
      assert.equal(d.verdict, verdict);
      assert.deepEqual(d.deltas, { candidate: cand - base });
      assert.deepEqual(d.values, pair(base, cand));
      assert.equal(d.reasons.length, 1);
      assert.match(d.reasons[0]!, new RegExp(`acc ${base} -> ${cand}, delta -?[0-9.]+`));
    });
  }

  it("says why in full sentences with the numbers", () => {
    const c = contract({ min_effect: 0.5 });
    assert.deepEqual(decide(c, pair(10, 12)).reasons, [
      "The candidate improved on the baseline by 2, above min_effect 0.5: acc 10 -> 12, delta 2, higher is better.",
    ]);
    assert.deepEqual(decide(c, pair(10, 9)).reasons, [
      "The candidate did not improve on the baseline: acc 10 -> 9, delta -1, higher is better.",
    ]);
    assert.deepEqual(decide(c, pair(10, 10.25)).reasons, [
      "The candidate improved by 0.25, at or below min_effect 0.5: acc 10 -> 10.25, delta 0.25, higher is better.",
    ]);
  });

  it("writes float noise out of the sentences but keeps exact values and deltas", () => {
    const d = decide(contract(), pair(12.1, 12.3));
    assert.equal(d.deltas["candidate"], 12.3 - 12.1);
    assert.match(d.reasons[0]!, /by 0\.2, .*delta 0\.2,/);
    assert.equal(formatNumber(0.1 + 0.2), "0.3");
    assert.equal(formatNumber(-1e-20), "-1e-20");
  });

  it("refuses to decide without a finite value for every measure", () => {
    assert.throws(() => decide(contract(), { baseline: 1 }), /measure "candidate" has no finite value/);
    assert.throws(() => decide(contract(), pair(1, NaN)), /measure "candidate" has no finite value \(got NaN\)/);
    const c = contract({ siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize" }] });
    assert.throws(() => decide(c, pair(1, 2)), /measure "sib-lat-base" has no finite value/);
  });
});

describe("decide() with suite siblings", () => {
  const sib = (direction: string, tolerance: number) =>
    contract({ siblings: [{ name: "lat", command: "x", metric: "ms", direction, tolerance }] });
  const values = (sBase: number, sCand: number) => ({ ...pair(10, 12), "sib-lat-base": sBase, "sib-lat-cand": sCand });

  // [sibling direction, tolerance, sib base, sib cand, verdict]
  const table: ["maximize" | "minimize", number, number, number, string][] = [
    ["maximize", 0, 5, 5, "accept"],
    ["maximize", 0, 5, 4.75, "reject"],
    ["maximize", 0.5, 5, 4.5, "accept"],
    ["maximize", 0.5, 5, 4.25, "reject"],
    ["minimize", 0, 5, 5.25, "reject"],
    ["minimize", 0.5, 5, 5.5, "accept"],
    ["minimize", 0.5, 5, 5.75, "reject"],
    ["minimize", 0.5, 5, 3, "accept"],
  ];
  for (const [direction, tolerance, sBase, sCand, verdict] of table) {
    it(`${verdict}s an improved candidate whose ${direction}d sibling goes ${sBase} -> ${sCand} with tolerance ${tolerance}`, () => {
      const d = decide(sib(direction, tolerance), values(sBase, sCand));
      assert.equal(d.verdict, verdict);
      assert.deepEqual(d.deltas, { candidate: 2, "sib-lat": sCand - sBase });
      assert.equal(d.reasons.length, 2);
      const held = verdict === "accept" ? "held within" : "regressed beyond";
      assert.equal(
        d.reasons[1],
        `Sibling "lat" ${held} its tolerance ${tolerance}: ms ${sBase} -> ${sCand}, delta ${sCand - sBase}, ` +
          `${direction === "maximize" ? "higher" : "lower"} is better.`,
      );
    });
  }

  it("names every regressed sibling in the main reason, and gives one reason per sibling", () => {
    const c = contract({
      siblings: ["a", "b", "c"].map((name) => ({
        name,
        command: "x",
        metric: "m",
        direction: "maximize",
        tolerance: 1,
      })),
    });
    const d = decide(c, {
      ...pair(10, 12),
      "sib-a-base": 5,
      "sib-a-cand": 3,
      "sib-b-base": 5,
      "sib-b-cand": 5,
      "sib-c-base": 5,
      "sib-c-cand": 2,
    });
    assert.equal(d.verdict, "reject");
    assert.equal(d.reasons.length, 4);
    assert.equal(
      d.reasons[0],
      'The candidate improved on the benchmark (acc 10 -> 12, delta 2, higher is better) but is rejected: siblings "a", "c" regressed.',
    );
    assert.deepEqual(Object.keys(d.deltas), ["candidate", "sib-a", "sib-b", "sib-c"]);
  });

  it("rejects a candidate that did not improve even when every sibling held", () => {
    const d = decide(sib("maximize", 0), { ...pair(10, 9), "sib-lat-base": 5, "sib-lat-cand": 6 });
    assert.equal(d.verdict, "reject");
    assert.match(d.reasons[0]!, /^The candidate did not improve on the baseline/);
  });
});

describe("decideLook() on one pair is today's rule", () => {
  it("decides a list of one value per measure exactly as the plain numbers, reasons included", () => {
    const c = contract({
      min_effect: 0.5,
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize", tolerance: 0.5 }],
    });
    for (const [b, cand, sb, sc] of [[10, 12, 5, 5], [10, 10.25, 5, 5], [10, 9, 5, 6], [10, 12, 5, 4]]) {
      const flat = { baseline: b!, candidate: cand!, "sib-lat-base": sb!, "sib-lat-cand": sc! };
      const lists = { baseline: [b!], candidate: [cand!], "sib-lat-base": [sb!], "sib-lat-cand": [sc!] };
      assert.deepEqual(decideLook(c, lists), decideLook(c, flat));
      assert.deepEqual(decide(c, lists), decide(c, flat));
    }
  });

  it("is final, with the point interval [Δ, Δ] and the method named as a single pair", () => {
    const d = decideLook(contract({ min_effect: 0.5 }), pair(10, 12));
    assert.deepEqual(d.next, { kind: "final" });
    assert.equal(d.outcome, "accepted");
    const { relative, ...absolute } = d.benchmark;
    assert.deepEqual(absolute, {
      n: 1,
      mean: 2,
      lower: 2,
      upper: 2,
      confidence: 0.95,
      method: "single pair, no interval",
      setAside: [],
    });
    // the ratio 12/10 with no interval
    assert.ok(relative !== null && relative !== undefined);
    assert.ok(Math.abs(relative.mean - 1.2) < 1e-12);
    assert.deepEqual([relative.lower, relative.upper, relative.n], [relative.mean, relative.mean, 1]);
  });

  it("decide() keeps to the four keys decision.json stores", () => {
    assert.deepEqual(Object.keys(decide(contract(), pair(10, 12))), ["verdict", "values", "deltas", "reasons"]);
  });
});

describe("decideLook() on several pairs in one look (repeats = max_repeats)", () => {
  it("reads two pairs through a Student t interval with 1 df: [2, 4] gives 3 ± 12.7062047", () => {
    const d = decideLook(contract({ repeats: 2, min_effect: 1 }), { baseline: [10, 10], candidate: [12, 14] });
    assert.equal(d.verdict, "inconclusive");
    assert.deepEqual(d.next, { kind: "final" });
    assert.ok(Math.abs(d.benchmark.lower - (3 - 12.7062047)) < 1e-7, String(d.benchmark.lower));
    assert.ok(Math.abs(d.benchmark.upper - (3 + 12.7062047)) < 1e-7, String(d.benchmark.upper));
    assert.deepEqual(d.reasons, [
      "Inconclusive after 2 pairs: the interval lies neither wholly above min_effect 1 nor wholly at or below 0: " +
      "acc mean improvement 3.0 over 2 pairs (95% CI -10 to 16), higher is better; " +
      "paired screened Student t interval (outlying pairs set aside from 6 pairs on, by the generalized ESD test).",
    ]);
  });

  it("accepts equal improvements above min_effect on the zero-width interval [mean, mean]", () => {
    const d = decideLook(contract({ repeats: 3, min_effect: 1 }), { baseline: [10, 20, 30], candidate: [12, 22, 32] });
    assert.equal(d.verdict, "accept");
    assert.deepEqual([d.benchmark.lower, d.benchmark.upper], [2, 2]);
    assert.deepEqual(d.reasons, [
      "The candidate improved on the baseline, above min_effect 1: acc mean improvement 2 over 3 pairs " +
      "(95% CI 2 to 2), higher is better; paired screened Student t interval (outlying pairs set aside from 6 pairs on, by the generalized ESD test).",
    ]);
  });

  it("rejects when the whole interval is at or below 0, whichever the direction", () => {
    // improvements -1, -2, -1.5: upper bound -1.5 + t(0.975, 2)·0.5/√3 = -0.258
    const max = decideLook(contract({ repeats: 3 }), { baseline: [10, 10, 10], candidate: [9, 8, 8.5] });
    const min = decideLook(contract({ repeats: 3, direction: "minimize" }), {
      baseline: [10, 10, 10],
      candidate: [11, 12, 11.5],
    });
    for (const d of [max, min]) {
      assert.equal(d.verdict, "reject");
      assert.ok(Math.abs(d.benchmark.upper - (-1.5 + 4.30265273 * 0.5 / Math.sqrt(3))) < 1e-8);
      // the whole interval below 0: the words say worse, not merely no better
      assert.match(d.reasons[0]!, /^The candidate is worse than the baseline \(the whole interval lies below 0\)/);
    }
  });

  it("says the candidate did not improve when the interval's upper end is exactly 0", () => {
    const d = decideLook(contract({ repeats: 2 }), { baseline: [10, 10], candidate: [10, 10] });
    assert.equal(d.verdict, "reject");
    assert.match(d.reasons[0]!, /^The candidate did not improve on the baseline \(the interval reaches no higher/);
  });

  it("names pair i's measures <name>#i in values and deltas, pair by pair", () => {
    const c = contract({ repeats: 2, siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize" }] });
    const d = decideLook(c, { baseline: [1, 2], candidate: [3, 4], "sib-lat-base": [5, 6], "sib-lat-cand": [7, 9] });
    assert.deepEqual(Object.entries(d.values), [
      ["baseline", 1],
      ["candidate", 3],
      ["sib-lat-base", 5],
      ["sib-lat-cand", 7],
      ["baseline#2", 2],
      ["candidate#2", 4],
      ["sib-lat-base#2", 6],
      ["sib-lat-cand#2", 9],
    ]);
    assert.deepEqual(d.deltas, { candidate: 2, "sib-lat": 2, "candidate#2": 2, "sib-lat#2": 3 });
    assert.equal(pairMeasureName("sib-lat-cand", 1), "sib-lat-cand");
    assert.equal(pairMeasureName("sib-lat-cand", 3), "sib-lat-cand#3");
  });

  it("is unmoved by the scale of the values", () => {
    const small = decideLook(contract({ repeats: 4, min_effect: 1 }), {
      baseline: [10, 11, 12, 13],
      candidate: [12, 14, 13, 16],
    });
    const big = decideLook(contract({ repeats: 4, min_effect: 1000 }), {
      baseline: [10000, 11000, 12000, 13000],
      candidate: [12000, 14000, 13000, 16000],
    });
    assert.equal(big.verdict, small.verdict);
    assert.ok(Math.abs(big.benchmark.lower / 1000 - small.benchmark.lower) < 1e-12);
  });

  it("refuses values with fewer pairs for one measure, or a non-finite value, naming the measure", () => {
    const c = contract({ repeats: 2 });
    assert.throws(
      () => decideLook(c, { baseline: [1, 2], candidate: [3] }),
      /"candidate" has 1 values, "baseline" has 2/,
    );
    assert.throws(
      () => decideLook(c, { baseline: [1, 2], candidate: [3, NaN] }),
      /measure "candidate#2" has no finite/,
    );
    assert.throws(() => decideLook(c, { baseline: [1, 2], candidate: [] }), /measure "candidate" has no finite/);
  });

  it("refuses a pair count off the schedule (a partial batch)", () => {
    const c = contract({ repeats: 4, max_repeats: 12 });
    assert.throws(() => decideLook(c, { baseline: [1, 2, 3], candidate: [3, 4, 5] }), /looks at 4, 8, 12 pairs/);
  });
});

describe("decideLook() in a sequential design (repeats 4, max_repeats 12)", () => {
  const seq = (extra: Record<string, unknown> = {}) =>
    contract({ repeats: 4, max_repeats: 12, min_effect: 1, ...extra });
  const climb = (improvements: number[]) => ({
    baseline: improvements.map(() => 10),
    candidate: improvements.map((d) => 10 + d),
  });
  const METHOD =
    "group-sequential paired screened Student t (outlying pairs set aside from 6 pairs on, by the generalized ESD test), look 1 of 3, alpha 0.05 split over the looks in proportion " +
    "to their pairs (95% confidence over all looks together)";

  it("asks for another batch while the interval straddles (0, min_effect] and an accept is in reach", () => {
    const d = decideLook(seq(), climb([3, 5, 1, 7]));
    assert.equal(d.verdict, "inconclusive");
    assert.deepEqual(d.next, { kind: "more", pairs: 4 });
    assert.equal(d.outcome, "undecided");
    // level 1 − 0.05/3; ends from scipy: 4 ± t(1 − 0.05/6, 3)·sd/2
    assert.equal(d.benchmark.confidence, 1 - 0.05 / 3);
    assert.ok(Math.abs(d.benchmark.lower - -2.269917578557134) < 1e-9);
    assert.ok(Math.abs(d.benchmark.upper - 10.269917578557134) < 1e-9);
    assert.equal(d.benchmark.method, METHOD);
    assert.equal(
      d.reasons[0],
      "Another batch of 4 pairs is needed: the interval lies neither wholly above min_effect 1 nor wholly at or " +
        `below 0: acc mean improvement 4.0 over 4 pairs (98.33% CI -2 to 10; the 95% asked for, adjusted for 3 looks), higher is better; ${METHOD}.`,
    );
  });

  it("stops for futility when the last look could hardly clear min_effect, and says so", () => {
    const d = decideLook(seq(), climb([0, 1, -1, 0.5]));
    assert.equal(d.verdict, "inconclusive");
    assert.deepEqual(d.next, { kind: "final" });
    assert.equal(d.outcome, "futile");
    assert.equal(
      d.reasons[0],
      "Stopped early after 4 of up to 12 pairs, inconclusive: it cannot reach min_effect 1 (too noisy to tell " +
        "better from worse at this size): acc mean improvement 0.13 over 4 pairs " +
        "(98.33% CI -1.9 to 2.2; the 95% asked for, adjusted for 3 looks), higher is better; predicted from these pairs, the last look would clear " +
        `min_effect with a chance of 1%, below the futility threshold 20%; ${METHOD}.`,
    );
  });

  it("rejects a clearly worse candidate stopped for futility, as the single-pair rule reads mean <= 0", () => {
    // repeats 3: mean -3 over 3 pairs; the interval still reaches above 0, so only futility can end it
    const d = decideLook(seq({ repeats: 3 }), climb([-2, -3, -4]));
    assert.equal(d.outcome, "futile");
    assert.ok(d.benchmark.upper > 0);
    assert.equal(d.verdict, "reject");
    assert.deepEqual(d.next, { kind: "final" });
    assert.match(
      d.reasons[0]!,
      /^Stopped early after 3 of up to 12 pairs, rejected \(its mean improvement is at or below 0\): it cannot reach min_effect 1 \(too noisy to tell better from worse at this size\): acc mean improvement -3\.0 over 3 pairs \(98\.75% CI -8 to 2; the 95% asked for, adjusted for 4 looks\)/,
    );
  });

  it("rejects a futility stop at a mean of exactly 0, and never accepts one above min_effect", () => {
    const flat = decideLook(seq(), climb([1, -1, 2, -2]));
    assert.deepEqual([flat.outcome, flat.verdict], ["futile", "reject"]);
    // mean 1.5 > min_effect 1 but a spread so wide that the last look could hardly clear it: inconclusive
    const wide = decideLook(seq(), climb([40, -40, 43, -37]));
    assert.ok(wide.benchmark.mean > 1);
    assert.deepEqual([wide.outcome, wide.verdict], ["futile", "inconclusive"]);
  });

  it("never stops for futility when the threshold is 0: it goes on to max_repeats", () => {
    const d = decideLook(seq(), climb([0, 1, -1, 0.5]), { futilityPower: 0 });
    assert.deepEqual(d.next, { kind: "more", pairs: 4 });
  });

  it("accepts at a later look once the lower bound clears min_effect", () => {
    // [2, 3] four times: mean 2.5, lower 2.5 − t(1 − 0.05/6, 7)·0.5345/√8 = 1.909
    const d = decideLook(seq(), climb([2, 3, 2, 3, 2, 3, 2, 3]));
    assert.equal(d.verdict, "accept");
    assert.deepEqual(d.next, { kind: "final" });
    assert.ok(Math.abs(d.benchmark.lower - (2.5 - 3.1275522742463706 * Math.sqrt(2 / 7) / Math.sqrt(8))) < 1e-9);
    assert.match(d.reasons[0]!, /^The candidate improved on the baseline, above min_effect 1: .* look 2 of 3/);
  });

  it("ends inconclusive at max_repeats when the interval still straddles", () => {
    const d = decideLook(seq({ min_effect: 2 }), climb([1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3]));
    assert.equal(d.verdict, "inconclusive");
    assert.deepEqual(d.next, { kind: "final" });
    assert.match(d.reasons[0]!, /^Inconclusive after 12 pairs, the most max_repeats allows: /);
  });

  it("holds back an accept while a sibling may have regressed, then ends inconclusive at the last look", () => {
    const c = seq({
      max_repeats: 8,
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize", tolerance: 0.5 }],
    });
    const values = (n: number) => ({
      ...climb(Array.from({ length: n }, () => 2.5)),
      "sib-lat-base": Array.from({ length: n }, () => 5),
      "sib-lat-cand": Array.from({ length: n }, (_, i) => [5.2, 4.2, 5.8, 5][i % 4]!),
    });
    const early = decideLook(c, values(4));
    assert.deepEqual([early.verdict, early.outcome, early.next], ["inconclusive", "sibling-unsure", {
      kind: "more",
      pairs: 4,
    }]);
    assert.equal(early.siblings["lat"]!.standing, "unsure");
    assert.match(early.reasons[0]!, /^Another batch of 4 pairs is needed: sibling "lat" may have regressed/);
    assert.match(early.reasons[1]!, /^Sibling "lat" may have regressed beyond its tolerance 0.5: ms mean improvement/);
    const last = decideLook(c, values(8));
    assert.deepEqual([last.verdict, last.outcome, last.next], ["inconclusive", "sibling-unsure", { kind: "final" }]);
    assert.match(last.reasons[0]!, /^Inconclusive after 8 pairs, the most max_repeats allows: sibling "lat"/);
  });

  it("rejects on a regressed sibling even when the benchmark would accept", () => {
    const c = seq({ siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize", tolerance: 0.5 }] });
    const d = decideLook(c, {
      ...climb([2.5, 2.5, 2.5, 2.5]),
      "sib-lat-base": [5, 5, 5, 5],
      "sib-lat-cand": [3, 3.1, 2.9, 3],
    });
    assert.equal(d.verdict, "reject");
    assert.equal(d.siblings["lat"]!.standing, "regressed");
    assert.match(
      d.reasons[0]!,
      /^The candidate improved on the benchmark \(.*\) but is rejected: sibling "lat" regressed;/,
    );
  });

  it("never decides on the first pair of a sequential design: it only asks for the next batch", () => {
    const c = contract({
      repeats: 1,
      max_repeats: 3,
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "maximize", tolerance: 0 }],
    });
    for (const cand of [100, -100]) {
      const d = decideLook(c, { baseline: 10, candidate: cand, "sib-lat-base": 5, "sib-lat-cand": -50 });
      assert.equal(d.verdict, "inconclusive");
      assert.equal(d.outcome, "first-pair");
      assert.deepEqual(d.next, { kind: "more", pairs: 1 });
      assert.match(d.reasons[0]!, /^Another batch of 1 pair is needed: one pair \(acc 10 -> -?100, /);
      assert.equal(d.reasons[1], 'Sibling "lat" is not judged on one pair: ms 5 -> -50, delta -55, higher is better.');
    }
  });
});

describe("VERDICT_EXIT", () => {
  it("maps accept, reject and inconclusive to exit codes 0, 10 and 11", () => {
    assert.deepEqual(VERDICT_EXIT, { accept: 0, reject: 10, inconclusive: 11, crashed: 12 });
  });
});

describe("formatDecisionTable()", () => {
  it("lists every measure with its value, the difference beside each candidate side, then the verdict and reasons", () => {
    const c = contract({
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "minimize", tolerance: 0.5 }],
    });
    const text = formatDecisionTable(decide(c, { ...pair(12.1, 12.3), "sib-lat-base": 10, "sib-lat-cand": 11 }));
    assert.equal(
      text,
      [
        "measure       value  difference",
        "baseline       12.1",
        "candidate      12.3        +0.2",
        "sib-lat-base     10",
        "sib-lat-cand     11          +1",
        "",
        "verdict: reject",
        '  - The candidate improved on the benchmark (acc 12.1 -> 12.3, delta 0.2, higher is better) but is rejected: sibling "lat" regressed.',
        '  - Sibling "lat" regressed beyond its tolerance 0.5: ms 10 -> 11, delta 1, lower is better.',
        "",
      ].join("\n"),
    );
    // deno-lint-ignore no-control-regex -- control characters are what this checks
    assert.doesNotMatch(text, /\x1b/);
  });
});

describe("formatMeasureStates()", () => {
  it("shows each measure's state, value, job and detail in aligned columns", () => {
    const text = formatMeasureStates([
      { name: "baseline", state: "done", value: 12.5, jobId: "17" },
      { name: "candidate", state: "pending", jobId: "18", reason: "Resources" },
      { name: "sib-lat-base", state: "failed", jobId: "19", why: "was killed at its walltime (exit 143)" },
      { name: "sib-lat-cand", state: "not dispatched" },
    ]);
    assert.equal(
      text,
      [
        "measure       state           value  job  detail",
        "baseline      done             12.5  17",
        "candidate     pending                18   Resources",
        "sib-lat-base  failed                 19   was killed at its walltime (exit 143)",
        "sib-lat-cand  not dispatched",
        "",
      ].join("\n"),
    );
  });
});

describe("decideLook() with a stalled pair (issue 15)", () => {
  // a parser's speed-up of about 20 ms on 120 ms, 10 pairs: nine tight, pair 8 stalled the candidate's job
  const improvements = [19.2, 20.5, 21.1, 18.7, 20.0, 19.6, 20.9, -25.0, 20.3, 19.8];
  const c = contract({ metric: "ms", direction: "minimize", min_effect: 5, repeats: 5, max_repeats: 15 });
  const values = { baseline: improvements.map(() => 120), candidate: improvements.map((d) => 120 - d) };

  it("sets the outlying pair aside and accepts, naming the pair and how many were set aside", () => {
    const d = decideLook(c, values);
    assert.equal(d.verdict, "accept");
    assert.deepEqual(d.benchmark.setAside, [8]);
    assert.equal(d.benchmark.n, 10);
    // Student t on the nine kept pairs: mean 20.0111, sd 0.781736 (scipy), t(1 − 0.01667/2, 8) = 3.0158
    assert.ok(Math.abs(d.benchmark.mean - 20.011111111111113) < 1e-12, String(d.benchmark.mean));
    assert.match(
      d.reasons[0]!,
      /^The candidate improved on the baseline, above min_effect 5: ms mean improvement 20\.0 over 9 of 10 pairs \(1 outlying pair set aside: pair 8; 98\.33% CI 19\.2 to 20\.8; the 95% asked for, adjusted for 3 looks\), lower is better; group-sequential paired screened Student t \(outlying pairs set aside from 6 pairs on, by the generalized ESD test\), look 2 of 3/,
    );
  });

  it("is undecided with today's Student t, whose interval the stall widens", () => {
    const d = decideLook(c, values, { method: STUDENT_T });
    assert.equal(d.outcome, "undecided");
    assert.deepEqual(d.benchmark.setAside, []);
    assert.ok(d.benchmark.lower < 5, String(d.benchmark.lower));
    assert.match(d.benchmark.method, /^group-sequential paired Student t, look 2 of 3/);
  });

  it("names several pairs set aside, and does the same for a sibling", () => {
    const two = [...improvements.slice(0, 7), -25.0, 20.3, 80.0];
    const sib = [0.1, -0.1, 0.05, 0, -0.05, 0.1, 0, 0.05, -9, 0];
    const cs = contract({
      metric: "ms",
      direction: "minimize",
      min_effect: 5,
      repeats: 5,
      max_repeats: 15,
      siblings: [{ name: "mem", command: "m", metric: "mb", direction: "minimize", tolerance: 1 }],
    });
    const d = decideLook(cs, {
      baseline: two.map(() => 120),
      candidate: two.map((x) => 120 - x),
      "sib-mem-base": sib.map(() => 50),
      "sib-mem-cand": sib.map((x) => 50 - x),
    });
    assert.deepEqual(d.benchmark.setAside, [8, 10]);
    assert.match(d.reasons[0]!, /over 8 of 10 pairs \(2 outlying pairs set aside: pairs 8 and 10; /);
    assert.deepEqual(d.siblings["mem"]?.setAside, [9]);
    assert.equal(d.siblings["mem"]?.standing, "held");
    assert.match(d.reasons[1]!, /mb mean improvement .* over 9 of 10 pairs \(1 outlying pair set aside: pair 9; /);
  });

  it("sets nothing aside below 6 pairs: the look is Student t's, to the bit", () => {
    const c4 = contract({ repeats: 4, max_repeats: 12, min_effect: 1 });
    const v = { baseline: [10, 10, 10, 10], candidate: [12, 12.5, 11.5, -40] };
    const screened = decideLook(c4, v);
    const t = decideLook(c4, v, { method: STUDENT_T });
    assert.deepEqual(screened.benchmark.setAside, []);
    assert.deepEqual(
      [screened.benchmark.mean, screened.benchmark.lower, screened.benchmark.upper],
      [t.benchmark.mean, t.benchmark.lower, t.benchmark.upper],
    );
  });

  it("does not stop for futility on a stalled pair the screen sees among the first 4, where Student t does", () => {
    const c4 = contract({ repeats: 4, max_repeats: 12, min_effect: 1 });
    const v = { baseline: [10, 10, 10, 10], candidate: [15, 15.2, 14.9, -40] };
    assert.equal(decideLook(c4, v, { method: STUDENT_T }).outcome, "futile");
    const d = decideLook(c4, v);
    assert.equal(d.outcome, "undecided");
    assert.deepEqual(d.next, { kind: "more", pairs: 4 });
  });

  it("does not reject for futility on a mean a flagged stall drags below 0: inconclusive, where Student t rejects", () => {
    // three tight pairs improving by ~0.33 (short of min_effect 3: futile either way) and one stalled candidate
    const c4 = contract({ repeats: 4, max_repeats: 12, min_effect: 3 });
    const v = { baseline: [10, 10, 10, 10], candidate: [10.3, 10.5, 10.2, -40] };
    const t = decideLook(c4, v, { method: STUDENT_T });
    assert.deepEqual([t.outcome, t.verdict], ["futile", "reject"]);
    const d = decideLook(c4, v);
    assert.deepEqual([d.outcome, d.verdict], ["futile", "inconclusive"]);
    assert.match(
      d.reasons[0]!,
      /^Stopped early after 4 of up to 12 pairs, inconclusive \(its mean improvement is at or below 0, but above 0 without a pair that may have stalled, and a stall cannot make an early stop a reject\): it cannot reach min_effect 3 /,
    );
  });
});

describe("decideLook() with the contract's noise (issue 31: a calibrated fence)", () => {
  // the hidden trial: per-run sd 0.5 (a pair's improvement 0.71), effect 1.5, 3 / 9, min_effect 0.2
  const noise = { sd: 0.71, pairs: 20 };
  const c = (extra: Record<string, unknown> = {}) =>
    contract({ metric: "ms", direction: "minimize", min_effect: 0.2, repeats: 3, max_repeats: 9, ...extra });
  const valuesOf = (improvements: readonly number[]) => ({
    baseline: improvements.map(() => 100),
    candidate: improvements.map((d) => 100 - d),
  });

  it("goes on at the first look past one stalled pair, which stops the climb without it", () => {
    const v = valuesOf([2.8, 0.49, -4.5]);
    assert.equal(decideLook(c(), v).outcome, "futile");
    const d = decideLook(c({ noise }), v);
    assert.equal(d.outcome, "undecided");
    assert.deepEqual(d.next, { kind: "more", pairs: 3 });
  });

  it("sets a favourable outlier aside at the last look and accepts, naming the pair and the fence", () => {
    const v = valuesOf([7.21, 2.09, 1.88, 2.47, 0.84, 0.26, 0.74, 2.06, 2.25]);
    const today = decideLook(c(), v);
    assert.deepEqual([today.verdict, today.benchmark.setAside], ["inconclusive", []]);
    const d = decideLook(c({ noise }), v);
    assert.equal(d.verdict, "accept");
    assert.deepEqual(d.benchmark.setAside, [1]);
    // the ratio sets aside the pair the estimate did: the fence's scale is in the metric's units
    assert.deepEqual(d.benchmark.relative?.setAside, [1]);
    assert.equal(d.benchmark.relative?.n, 9);
    assert.match(
      d.reasons[0]!,
      /over 8 of 9 pairs \(1 outlying pair set aside: pair 1; .*group-sequential paired screened Student t \(outlying pairs set aside from 6 pairs on, beyond the fence of the calibrated noise \(sd 0\.71 over 20 A\/A pairs\)\), look 3 of 3/,
    );
  });

  it("keeps the ESD screen for siblings, whose noise was not calibrated", () => {
    const cs = c({
      noise,
      siblings: [{ name: "mem", command: "m", metric: "mb", direction: "minimize", tolerance: 1 }],
    });
    const v = { ...valuesOf([7.21, 2.09, 1.88, 2.47, 0.84, 0.26, 0.74, 2.06, 2.25]) };
    const d = decideLook(cs, {
      ...v,
      "sib-mem-base": v.baseline.map(() => 50),
      "sib-mem-cand": v.baseline.map(() => 50),
    });
    assert.match(d.benchmark.method, /beyond the fence of the calibrated noise/);
    assert.match(d.siblings["mem"]!.method, /by the generalized ESD test/);
  });
});
