import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isTimeUnit, relativeWords } from "../../src/verdict/relative_words.ts";
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

/** A time: the words of a timing tool. */
const MS = { unit: "ms" } as const;

describe("relativeWords()", () => {
  it("reads a minimized time as a factor faster and a change of the time", () => {
    const w = relativeWords(rel(0.882, 0.84, 0.926), "minimize", MS);
    assert.equal(w.factor, "1.134× faster [1.08, 1.19]");
    assert.equal(w.change, "-11.8% time [-16.0%, -7.4%]");
  });

  it("reads the same benchmark's rate (1/t maximized) with the same factor", () => {
    const t = relativeWords(rel(0.882, 0.84, 0.926), "minimize", MS);
    const rate = relativeWords(rel(1 / 0.882, 1 / 0.926, 1 / 0.84), "maximize", MS);
    assert.equal(rate.factor, t.factor);
    assert.equal(rate.change, "+13.4% [+8.0%, +19.0%]");
  });

  it("turns a slow-down round and names it so", () => {
    assert.equal(relativeWords(rel(1.05, 1.02, 1.08), "minimize", MS).factor, "1.050× slower [1.02, 1.08]");
    assert.equal(relativeWords(rel(1 / 1.05, 1 / 1.08, 1 / 1.02), "maximize", MS).factor, "1.050× slower [1.02, 1.08]");
  });

  it("gives one pair's figure with no interval", () => {
    const w = relativeWords(rel(0.8, 0.8, 0.8, 1), "minimize", MS);
    assert.deepEqual(w, { factor: "1.250× faster", change: "-20.0% time" });
  });

  it("reads a loss or a size lower / higher, with no time: only a time unit is faster or slower", () => {
    // a loss (bpb) of 0.833 the baseline's: the "1.200× faster (-16.6% time)" was wrong
    assert.deepEqual(relativeWords(rel(0.8333, 0.7752, 0.9009), "minimize", { unit: "bpb" }), {
      factor: "1.200× lower [1.11, 1.29]",
      change: "-16.7% [-22.5%, -9.9%]",
    });
    assert.equal(relativeWords(rel(1.05, 1.05, 1.05, 1), "minimize", { unit: "MB" }).factor, "1.050× higher");
    assert.equal(relativeWords(rel(0.9, 0.9, 0.9, 1), "maximize").factor, "1.111× lower", "no unit: not a time");
    assert.equal(relativeWords(rel(1.1, 1.1, 1.1, 1), "maximize", { unit: "acc" }).factor, "1.100× higher");
  });

  it("knows the time units, and nothing else, as a time", () => {
    for (const u of ["ns", "us", "µs", "ms", "s", "sec", "min", "h"]) assert.equal(isTimeUnit(u), true, u);
    for (const u of [null, "bpb", "MB", "loss", "S", "tokens/s"]) assert.equal(isTimeUnit(u), false, String(u));
  });

  it("reads no change as +0.0% without a sign", () => {
    assert.equal(relativeWords(rel(1, 1, 1, 1), "minimize", MS).change, "0.0% time");
  });
});
