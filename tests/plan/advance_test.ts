import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { advanceRun, decideAt } from "../../src/plan/advance.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";

// repeats 2, max_repeats 4: looks at 2 and 4 pairs
const plan = runPlan(runRecordFixture({}, { repeats: 2, max_repeats: 4, min_effect: 1 }));

/** Pairs `from`..`to` with the candidate `effect` above a baseline of 100 + pair (plus `wobble` alternating). */
function pairs(from: number, to: number, effect: number, wobble = 0): Record<string, number> {
  const out: Record<string, number> = {};
  for (let p = from; p <= to; p++) {
    const s = p === 1 ? "" : `#${p}`;
    out[`baseline${s}`] = 100 + p;
    out[`candidate${s}`] = 100 + p + effect + (p % 2 === 0 ? wobble : -wobble);
  }
  return out;
}

const names = (ms: readonly { name: string }[]) => ms.map((m) => m.name).sort();

describe("advanceRun() on a single candidate", () => {
  it("stands at the first look, needing all of it, before any value is in", () => {
    const a = advanceRun(plan, {});
    assert.equal(a.plan.seeds.length, 2);
    assert.deepEqual(names(a.missing), ["baseline", "baseline#2", "candidate", "candidate#2"]);
    assert.equal(a.step, null);
    assert.deepEqual(a.walked, []);
    assert.equal(a.final, false);
  });

  it("needs only what is not in hand", () => {
    const a = advanceRun(plan, { baseline: 1, candidate: 2 });
    assert.deepEqual(names(a.missing), ["baseline#2", "candidate#2"]);
  });

  it("decides the first look when it is complete, and stops there when it is final", () => {
    const a = advanceRun(plan, pairs(1, 2, -50));
    assert.equal(a.step?.kind, "look");
    assert.deepEqual(a.step?.kind === "look" && [a.step.index, a.step.of, a.step.decision.verdict], [1, 2, "reject"]);
    assert.equal(a.final, true);
    assert.deepEqual(a.missing, []);
  });

  it("walks on to the next look when the first asks for more, and stands at it", () => {
    // repeats 4, max_repeats 12: improvements 0.5, 3.5, 0.5, 3.5 (mean 2) are promising, not yet clear
    const longer = runPlan(runRecordFixture({}, { repeats: 4, max_repeats: 12, min_effect: 1 }));
    const a = advanceRun(longer, pairs(1, 4, 2, 1.5));
    assert.equal(a.walked.length, 1);
    const first = a.walked[0]!;
    assert.deepEqual(first.kind === "look" && [first.index, first.decision.next.kind], [1, "more"]);
    assert.equal(a.step, null);
    assert.equal(a.plan.seeds.length, 8);
    assert.equal(a.missing.length, 8, "pairs 5-8 of both sides");
    assert.ok(a.missing.every((m) => /#[5-8]$/.test(m.name)));
  });

  it("decides a look with a crashed candidate measure 'crashed', final, judging nothing it measured", () => {
    const values = pairs(1, 1, 5);
    const a = advanceRun(
      plan,
      { ...values, "baseline#2": 102 },
      {},
      new Map([["candidate#2", "eval exited with code 1"]]),
    );
    assert.equal(a.step?.kind, "crashed");
    assert.equal(a.step?.decision.verdict, "crashed");
    assert.equal(a.final, true);
  });
});

describe("decideAt()", () => {
  it("decides the look at a pair count of the schedule, whatever the looks before it say", () => {
    const step = decideAt(plan, 4, pairs(1, 4, -50));
    assert.deepEqual(step.kind === "look" && [step.index, step.of, step.decision.verdict], [2, 2, "reject"]);
  });

  it("refuses a pair count that is no look of the design", () => {
    assert.throws(() => decideAt(plan, 3, pairs(1, 3, 0)), /No look at 3 pair\(s\) in this design/);
  });
});

describe("advanceRun() on a round", () => {
  it("stands at the screen's first batch of every candidate before any value is in", () => {
    const record = runRecordFixture(
      { candidates: [{ ref: "c1", sha: "b".repeat(40) }, { ref: "c2", sha: "c".repeat(40) }] },
      { repeats: 2, max_repeats: 4, min_effect: 1 },
    );
    const a = advanceRun(runPlan(record), {});
    assert.deepEqual(names(a.missing), ["baseline", "candidate", "candidate-2"]);
    assert.equal(a.step, null);
  });
});
