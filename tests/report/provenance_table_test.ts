import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Provenance } from "../../src/dispatch/provenance.ts";
import { formatProvenanceTable } from "../../src/report/provenance_table.ts";

const P: Provenance = {
  host: "node7",
  startedAt: "2026-01-02T03:04:05Z",
  endedAt: "2026-01-02T03:05:06Z",
  jobId: "42",
  nodeList: "node7",
  cpuModel: "",
  cpus: "0-3",
  gpus: [],
};

describe("formatProvenanceTable()", () => {
  it("gives each measure's host, job and times of day, the day in the header", () => {
    const lines = formatProvenanceTable({ baseline: P, candidate: { ...P, host: "node8", jobId: "43" } })
      .trimEnd().split("\n");
    assert.match(lines[0]!, /^measure +host +job +started \(2026-01-02 UTC\) +ended +CPUs$/);
    assert.match(lines[1]!, /^baseline +node7 +42 +03:04:05 +03:05:06 +0-3$/);
    assert.match(lines[2]!, /^candidate +node8 +43 /);
  });

  it("leaves out a column no measure has, and shows GPUs when there are any", () => {
    const text = formatProvenanceTable({ baseline: { ...P, cpus: "", gpus: ["GPU-a", "GPU-b"] } });
    assert.doesNotMatch(text, /CPUs|CPU model/);
    assert.match(text, /GPU-a GPU-b/);
  });
});
