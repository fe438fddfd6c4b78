import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseContract } from "../../src/contract/contract.ts";
import { decide } from "../../src/verdict/decide.ts";
import { formatDecisionTable } from "../../src/report/verdict_table.ts";

describe("formatDecisionTable() with a relative figure", () => {
  const c = parseContract({ name: "bench", command: "run", metric: "t", direction: "minimize" }, "test");
  const d = decide(c, { baseline: 1.25, candidate: 1.1 });

  it("puts the relative change after the verdict, as timing users read it, with its level", () => {
    const relative = { mean: 0.8818, lower: 0.8403, upper: 0.92, confidence: 0.95 };
    const text = formatDecisionTable(d, null, false, undefined, { relative, direction: "minimize", unit: "ms" });
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("verdict: "));
    assert.equal(lines[at + 1], "relative (candidate / baseline): 1.134× faster [1.09, 1.19] (-11.8% time), 95%");
    assert.match(lines[0]!, /^measure +value \(ms\) +difference \(ms\)$/, "the unit heads the value columns");
  });

  it("says a loss (a unit that is no time) is lower, not faster", () => {
    const relative = { mean: 0.8333, lower: 0.7752, upper: 0.9009, confidence: 0.95 };
    const text = formatDecisionTable(d, null, false, undefined, { relative, direction: "minimize", unit: "bpb" });
    assert.match(text, /\nrelative \(candidate \/ baseline\): 1\.200× lower \[1\.11, 1\.29\] \(-16\.7%\), 95%\n/);
    assert.doesNotMatch(text, /faster|time/);
  });

  it("prints no line without one, as before", () => {
    assert.equal(formatDecisionTable(d, null, false, undefined, null), formatDecisionTable(d));
    assert.doesNotMatch(formatDecisionTable(d), /relative/);
  });
});

describe("formatDecisionTable() with guards", () => {
  it("shows a guard's difference beside its candidate side, as a sibling's", () => {
    const c = parseContract({ name: "bench", command: "run", metric: "t", direction: "minimize" }, "test");
    const d = {
      ...decide(c, { baseline: 1.25, candidate: 1.1 }),
      values: { baseline: 1.25, candidate: 1.1, "guard-size-base": 100, "guard-size-cand": 110 },
      deltas: { candidate: -0.15, "guard-size-cand": 10 },
    };
    const rows = formatDecisionTable(d).split("\n");
    assert.match(rows.find((r) => r.startsWith("guard-size-cand ")) ?? "", /\s110\s+\+10$/);
    assert.match(rows.find((r) => r.startsWith("guard-size-base ")) ?? "", /\s100$/);
  });
});

describe("formatDecisionTable() without values", () => {
  it("has no table, not a header alone, when nothing was measured (a --smoke crash)", () => {
    const c = parseContract({ name: "bench", command: "run", metric: "t", direction: "minimize" }, "test");
    const d = { ...decide(c, { baseline: 1.25, candidate: 1.1 }), verdict: "crashed" as const, values: {}, deltas: {} };
    const text = formatDecisionTable(d, null, false, undefined, { relative: null, direction: "minimize", unit: "s" });
    assert.ok(text.startsWith("verdict: crashed\n"), text);
    assert.doesNotMatch(text, /measure +value/);
  });
});
