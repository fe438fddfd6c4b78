import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PairingComparison } from "../../src/evaluation/pairing_choice.ts";
import { formatPairingComparison, pairingComparisonJson } from "../../src/report/pairing_table.ts";

const C: PairingComparison = {
  rows: [
    { pairing: "separate", n: 20, sd: 0.4, detectable: 0.35, minEffect: 0.5, repeats: 4, maxRepeats: 16 },
    { pairing: "same-job", n: 20, sd: 0.2, detectable: 0.18, minEffect: 0.25, repeats: 3, maxRepeats: 12 },
  ],
  nodeShare: 0.75,
  recommended: "same-job",
  reason: "its spread is half of separate's",
};

describe("formatPairingComparison()", () => {
  it("a row per pairing, the node-to-node share and the recommendation", () => {
    const lines = formatPairingComparison(C, "pi").trimEnd().split("\n");
    assert.equal(lines[0], "pairings of pi: the base against itself under each");
    assert.match(lines.find((l) => l.startsWith("same-job"))!, /^same-job +20 +0\.2 +0\.18 +0\.25 +3 \/ 12$/);
    assert.ok(lines.includes("measuring apart (separate) adds 75% of its variance: the node-to-node share"));
    assert.equal(lines.at(-1), 'recommended: "pairing": "same-job" — its spread is half of separate\'s');
  });

  it("says nothing of the node share without it", () => {
    assert.doesNotMatch(formatPairingComparison({ ...C, nodeShare: null }, "pi"), /node-to-node/);
  });
});

describe("pairingComparisonJson()", () => {
  it("snake_case, each pairing's suggestion as contract keys", () => {
    const j = pairingComparisonJson(C);
    assert.equal(j.node_share, 0.75);
    assert.deepEqual(j.pairings[1], {
      pairing: "same-job",
      n: 20,
      sd: 0.2,
      detectable: 0.18,
      suggestion: { min_effect: 0.25, repeats: 3, max_repeats: 12 },
    });
    assert.ok(j.compared_at_pairs > 0);
  });
});
