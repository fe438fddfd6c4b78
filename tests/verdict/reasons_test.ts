import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseContract } from "../../src/contract/contract.ts";
import { decideLook } from "../../src/verdict/decide.ts";
import { formatEstimate } from "../../src/text/numbers.ts";
import { estimateText } from "../../src/report/verdict_table.ts";

/**
 * The reasons of a repeated design print their estimates by the one rule of
 * src/text/numbers.ts (`formatEstimate`), as the reports and `show` do; the
 * single pair's sentences keep their words (pinned in decide_test.ts).
 */

// a timing benchmark, 10 pairs, the candidate about 0.77 faster; a sibling that barely moves
const noise = [0.02, -0.05, 0.08, -0.01, 0.04, -0.07, 0.03, 0.06, -0.04, 0.01];
const values = {
  baseline: noise.map((_, i) => 13 + 0.1 * Math.sin(i + 1)),
  candidate: noise.map((e, i) => 13 + 0.1 * Math.sin(i + 1) - 0.75 + e - 0.02 * i),
  "sib-lat-base": noise.map((_, i) => 50 + i / 7),
  "sib-lat-cand": noise.map((e, i) => 50 + i / 7 + e * 3),
};
const contract = parseContract({
  name: "bench",
  command: "run",
  metric: "ms",
  direction: "minimize",
  min_effect: 0.3,
  repeats: 10,
  siblings: [{ name: "lat", command: "x", metric: "ms", direction: "minimize", tolerance: 1 }],
}, "test");

describe("the reasons of a repeated design", () => {
  const d = decideLook(contract, values);

  it("print the benchmark's estimate as the reports do: to the digits of the interval's width", () => {
    const t = formatEstimate(d.benchmark);
    assert.match(t.mean, /^0\.\d\d$/, "two decimals for an interval 0.1 to 1 wide");
    assert.ok(
      d.reasons[0]!.includes(`ms mean improvement ${t.mean} over 10 pairs (95% CI ${t.lower} to ${t.upper})`),
      d.reasons[0],
    );
    const old = (x: number) => String(Number(x.toPrecision(4))); // the 4 significant digits they printed before
    assert.ok(!d.reasons[0]!.includes(`CI ${old(d.benchmark.lower)} to ${old(d.benchmark.upper)}`), d.reasons[0]);
    // the same three numbers as show's estimate line
    assert.equal(estimateText(d.benchmark), `mean ${t.mean}, 95% CI [${t.lower}, ${t.upper}], n=10`);
  });

  it("print a sibling's estimate by the same rule", () => {
    const s = d.siblings["lat"]!;
    const t = formatEstimate(s);
    assert.ok(
      d.reasons[1]!.includes(`ms mean improvement ${t.mean} over 10 pairs (95% CI ${t.lower} to ${t.upper})`),
      d.reasons[1],
    );
  });
});

describe("the reason of an early stop (issue 30: README and behaviour agreed)", () => {
  const c = parseContract(
    { name: "b", command: "x", metric: "t", direction: "maximize", repeats: 3, max_repeats: 9, min_effect: 1 },
    "t",
  );

  it("says why a stop whose mean is at or below 0 is inconclusive: without a pair that may have stalled it is above", () => {
    // the third pair's improvement (-5) looks like a stall: without it, +0.55; a stall never makes a stop a reject
    const d = decideLook(c, { baseline: [10, 10, 10], candidate: [10.5, 10.6, 5] });
    assert.deepEqual([d.outcome, d.verdict, d.benchmark.mean], ["futile", "inconclusive", -1.3]);
    assert.match(
      d.reasons[0]!,
      /^Stopped early after 3 of up to 9 pairs, inconclusive \(its mean improvement is at or below 0, but above 0 without a pair that may have stalled, and a stall cannot make an early stop a reject\): /,
    );
  });

  it("rejects a stop whose mean is at or below 0 with no pair singled out", () => {
    const d = decideLook(c, { baseline: [10, 10, 10], candidate: [9.9, 9.95, 10.05] });
    assert.deepEqual([d.outcome, d.verdict], ["futile", "reject"]);
    assert.match(
      d.reasons[0]!,
      /^Stopped early after 3 of up to 9 pairs, rejected \(its mean improvement is at or below 0\)/,
    );
  });
});
