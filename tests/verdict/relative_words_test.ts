import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { relativeWords } from "../../src/verdict/relative_words.ts";
import type { RelativeEstimate } from "../../src/stats/relative.ts";

const rel = (mean: number, lower: number, upper: number, n = 8): RelativeEstimate => ({
  n,
  mean,
  lower,
  upper,
  confidence: 0.95,
  method: "m",
  setAside: [],
});

describe("relativeWords()", () => {
  it("reads a minimized time as a factor faster and a change of the time", () => {
    const w = relativeWords(rel(0.882, 0.84, 0.926), "minimize");
    assert.equal(w.factor, "1.134× faster [1.08, 1.19]");
    assert.equal(w.change, "-11.8% time [-16.0%, -7.4%]");
  });

  it("reads the same benchmark's rate (1/t maximized) with the same factor", () => {
    const t = relativeWords(rel(0.882, 0.84, 0.926), "minimize");
    const rate = relativeWords(rel(1 / 0.882, 1 / 0.926, 1 / 0.84), "maximize");
    assert.equal(rate.factor, t.factor);
    assert.equal(rate.change, "+13.4% [+8.0%, +19.0%]");
  });

  it("turns a slow-down round and names it so", () => {
    assert.equal(relativeWords(rel(1.05, 1.02, 1.08), "minimize").factor, "1.050× slower [1.02, 1.08]");
    assert.equal(relativeWords(rel(1 / 1.05, 1 / 1.08, 1 / 1.02), "maximize").factor, "1.050× slower [1.02, 1.08]");
  });

  it("gives one pair's figure with no interval", () => {
    const w = relativeWords(rel(0.8, 0.8, 0.8, 1), "minimize");
    assert.deepEqual(w, { factor: "1.250× faster", change: "-20.0% time" });
  });

  it("names other metrics smaller/larger or higher/lower, and no time", () => {
    assert.deepEqual(relativeWords(rel(0.9, 0.9, 0.9, 1), "minimize", { timing: false }), {
      factor: "1.111× smaller",
      change: "-10.0%",
    });
    assert.equal(relativeWords(rel(0.9, 0.9, 0.9, 1), "maximize", { timing: false }).factor, "1.111× lower");
    assert.equal(relativeWords(rel(1.1, 1.1, 1.1, 1), "maximize", { timing: false }).factor, "1.100× higher");
  });

  it("reads no change as +0.0% without a sign", () => {
    assert.equal(relativeWords(rel(1, 1, 1, 1), "minimize").change, "0.0% time");
  });
});
