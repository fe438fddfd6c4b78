import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { anyRelative, formatRelative, formatSigned, relativeFact } from "../../src/report/format.ts";
import { makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

describe("formatRelative()", () => {
  const faster = { mean: 0.8818, lower: 0.8403, upper: 0.92, confidence: 0.95 };

  it("reads a lower time as a speed-up factor with its interval and the change of the time", () => {
    assert.equal(formatRelative(faster, "minimize", "ms"), "1.134× faster [1.09, 1.19] (-11.8% time)");
    assert.equal(
      formatRelative({ mean: 1.05, lower: 1.02, upper: 1.08, confidence: 0.95 }, "minimize", "ms"),
      "1.050× slower [1.020, 1.080] (+5.0% time)",
    );
  });

  it("reads a higher rate or score as a change in percent, and mirrors the time's figure for 1/t", () => {
    assert.equal(
      formatRelative({ mean: 1.166, lower: 1.12, upper: 1.21, confidence: 0.95 }, "maximize", null),
      "+16.6% [+12.0%, +21.0%]",
    );
    // the same commits measured as a rate: the ratio of 1/t is 1 / the ratio of t, its ends swapped
    const rate = { mean: 1 / faster.mean, lower: 1 / faster.upper, upper: 1 / faster.lower, confidence: 0.95 };
    assert.equal(formatRelative(rate, "maximize", null), "+13.4% [+9%, +19%]");
    assert.equal(formatRelative({ ...faster, mean: 1 / rate.mean }, "minimize", "ms").split(" ")[0], "1.134×");
  });

  it("never rounds an end onto no change, so the interval shows which side of it it reaches", () => {
    // a run on the testbed: accepted on its difference, its ratio's interval just reaching past 1
    const edge = { mean: 0.7864743, lower: 0.6167811, upper: 1.0028548, confidence: 0.975 };
    assert.equal(formatRelative(edge, "minimize", "ms"), "1.271× faster [0.997, 1.62] (-21.4% time)");
    assert.equal(
      formatRelative({ mean: 1.05, lower: 0.9998, upper: 1.1, confidence: 0.95 }, "maximize", null),
      "+5.0% [-0.02%, +10%]",
    );
    // exactly no change, or closer to it than four more decimals show, reads as it
    assert.equal(
      formatRelative({ mean: 1.05, lower: 1, upper: 1.1, confidence: 0.95 }, "maximize", null),
      "+5.0% [0%, +10%]",
    );
    assert.equal(
      formatRelative({ mean: 1.2, lower: 0.9999999999, upper: 1.5, confidence: 0.95 }, "minimize", "ms"),
      "1.200× slower [1.00, 1.50] (+20.0% time)",
    );
  });

  it("reads a loss or a size lower / higher, never faster nor time: only a time unit is", () => {
    // a loss (bpb) 0.8333 of the baseline's: the "1.200× faster [1.11, 1.29] (-16.6% time)" was wrong
    const loss = { mean: 0.8333, lower: 0.7752, upper: 0.9009, confidence: 0.95 };
    assert.equal(formatRelative(loss, "minimize", "bpb"), "1.200× lower [1.11, 1.29] (-16.7%)");
    assert.equal(formatRelative(loss, "minimize", null), "1.200× lower [1.11, 1.29] (-16.7%)", "no unit: no time");
    assert.equal(
      formatRelative({ mean: 1.05, lower: 1.02, upper: 1.08, confidence: 0.95 }, "minimize", "MB"),
      "1.050× higher [1.020, 1.080] (+5.0%)",
    );
    assert.equal(formatRelative(loss, "minimize", "s", true), "1.200× faster [1.11, 1.29]");
  });

  it("prints a change that rounds to none as 0.0%, without a sign, as formatSigned() prints 0", () => {
    const tiny = { mean: 0.9996, lower: 0.99, upper: 1.01, confidence: 0.95 };
    assert.equal(formatRelative(tiny, "minimize", "s"), "1.000× faster [0.990, 1.010] (0.0% time)");
    assert.equal(formatRelative({ ...tiny, lower: null, upper: null }, "maximize", null), "0.0%");
    assert.equal(formatRelative({ ...tiny, mean: 1.0004, lower: null, upper: null }, "maximize", null), "0.0%");
    assert.equal(formatSigned(-0), "0");
    // a change that shows a digit keeps its sign
    assert.equal(formatRelative({ ...tiny, mean: 0.9994, lower: null, upper: null }, "maximize", null), "-0.1%");
  });

  it("has no interval for a single pair, and prints nothing without a positive ratio", () => {
    const one = { mean: 0.9, lower: null, upper: null, confidence: null };
    assert.equal(formatRelative(one, "minimize", "ms"), "1.111× faster (-10.0% time)");
    assert.equal(formatRelative({ ...one, mean: 0.95 }, "maximize", null), "-5.0%");
    assert.equal(formatRelative(null, "minimize", "ms"), "");
    assert.equal(formatRelative(undefined, "maximize", null), "");
    assert.equal(formatRelative({ ...one, mean: 0 }, "maximize", null), "");
  });
});

describe("relativeFact() and anyRelative()", () => {
  it("adds the interval's level to a run's relative figure; '' without one", () => {
    const run = repeatRun({ relative: { mean: 1.09, lower: 1.055, upper: 1.125, confidence: 0.95 } });
    assert.equal(relativeFact(run), "+9.0% [+5.5%, +12.5%], 95%");
    assert.equal(relativeFact(repeatRun()), "");
  });

  it("says whether any run or round candidate of a climb has one", () => {
    assert.equal(anyRelative([makeRun(), roundSummaryRun()]), false);
    assert.equal(anyRelative([makeRun({ relative: { mean: 1.2, lower: null, upper: null, confidence: null } })]), true);
    const r = roundSummaryRun();
    const arms = r.round!.arms.map((a) =>
      a.arm === 2
        ? {
          ...a,
          confirmation: { ...a.confirmation!, relative: { mean: 1.19, lower: 1.14, upper: 1.24, confidence: 0.975 } },
        }
        : a
    );
    assert.equal(anyRelative([{ ...r, round: { ...r.round!, arms } }]), true);
  });
});
