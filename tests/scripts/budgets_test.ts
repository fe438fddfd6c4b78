import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Budgets, collected, judge } from "../../scripts/budgets.ts";

const budgets: Budgets = {
  tolerance: 0.1,
  note: "",
  figures: {
    pass: { ir: 1_000_000, commit: "abc1234", note: "" },
    show: { ir: 200, commit: "abc1234", note: "" },
  },
};

describe("judge", () => {
  it("passes a figure at or under its budget plus the tolerance, and fails one above", () => {
    const [pass, show] = judge({ pass: 1_100_000, show: 221 }, budgets);
    assert.equal(pass!.over, false);
    assert.equal(pass!.ratio, 1.1);
    assert.equal(pass!.line, "pass: 1,100,000 instructions, budget 1,000,000 (abc1234), 1.100x");
    assert.equal(show!.over, true);
    assert.match(show!.line, /^show: 221 instructions, budget 200 \(abc1234\), 1\.105x: OVER by more than 10%$/);
  });

  it("passes a figure that went down", () => {
    assert.deepEqual(judge({ pass: 10, show: 10 }, budgets).map((v) => v.over), [false, false]);
  });

  it("fails a figure without a budget and a budget nothing measured", () => {
    const verdicts = judge({ pass: 1, other: 5 }, budgets);
    assert.deepEqual(verdicts.map((v) => [v.figure, v.over]), [["pass", false], ["show", true], ["other", true]]);
    assert.equal(verdicts[1]!.line, "show: not measured");
    assert.equal(verdicts[2]!.line, "other: 5 instructions, no budget in bench/budgets.json");
  });
});

describe("collected", () => {
  it("reads the total from callgrind's log", () => {
    const log = "==123== Events    : Ir\n==123== Collected : 216523336\n==123== \n==123== I   refs:      216,523,336\n";
    assert.equal(collected(log), 216523336);
  });

  it("throws on a log without one", () => {
    assert.throws(() => collected("valgrind: no such file\n"), /no 'Collected :' line/);
  });
});
