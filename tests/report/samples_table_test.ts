import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatSamplesTable, samplesHeading } from "../../src/report/samples_table.ts";

describe("formatSamplesTable()", () => {
  it("a row per measure: how many samples, the smallest, the median and the largest", () => {
    const lines = formatSamplesTable({
      baseline: { n: 7, min: 11.9, median: 12, max: 30.2 },
      "candidate#2": { n: 3, min: 9.5, median: 10, max: 10.5 },
    }).trimEnd().split("\n");
    assert.match(lines[0]!, /^measure +n +min +median +max$/);
    assert.match(lines.find((l) => l.startsWith("baseline"))!, /^baseline +7 +11\.9 +12 +30\.2$/);
    assert.match(lines.find((l) => l.startsWith("candidate#2"))!, /^candidate#2 +3 +9\.5 +10 +10\.5$/);
  });
});

describe("samplesHeading()", () => {
  it("says what a value is made of, naming a sibling whose summary differs", () => {
    assert.equal(samplesHeading("median", []), "samples (each measure's value is their median):");
    assert.equal(
      samplesHeading("median", [{ name: "lat", summary: "min" }, { name: "mem", summary: "median" }]),
      "samples (each measure's value is their median; sibling lat's their min):",
    );
  });
});
