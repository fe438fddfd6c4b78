import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../src/run/contract.ts";
import { decide, formatNumber, VERDICT_EXIT } from "../src/run/decide.ts";
import { formatDecisionTable, formatMeasureStates } from "../src/run/table.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", ...extra }, "test");
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
    const c = contract({ siblings: [{ name: "lat", command: "x", metric: "ms" }] });
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
      siblings: ["a", "b", "c"].map((name) => ({ name, command: "x", metric: "m", tolerance: 1 })),
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

describe("VERDICT_EXIT", () => {
  it("maps accept, reject and inconclusive to exit codes 0, 10 and 11", () => {
    assert.deepEqual(VERDICT_EXIT, { accept: 0, reject: 10, inconclusive: 11 });
  });
});

describe("formatDecisionTable()", () => {
  it("lists every measure with its value, the delta beside each candidate side, then the verdict and reasons", () => {
    const c = contract({
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "minimize", tolerance: 0.5 }],
    });
    const text = formatDecisionTable(decide(c, { ...pair(12.1, 12.3), "sib-lat-base": 10, "sib-lat-cand": 11 }));
    assert.equal(
      text,
      [
        "measure       value  delta",
        "baseline       12.1",
        "candidate      12.3   +0.2",
        "sib-lat-base     10",
        "sib-lat-cand     11     +1",
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
