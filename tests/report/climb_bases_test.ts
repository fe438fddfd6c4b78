import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { offBaseRuns } from "../../src/report/climb_bases.ts";
import { makeRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

const sha = (c: string) => c.repeat(40);

describe("offBaseRuns()", () => {
  it("is empty for one descent: each run on the first base or on the last accepted candidate", () => {
    const runs = [
      makeRun({ baseSha: sha("a"), candidateSha: sha("b") }),
      makeRun({ baseSha: sha("b"), candidateSha: sha("c"), verdict: "reject" }),
      makeRun({ baseSha: sha("b"), candidateSha: sha("d"), verdict: "crashed" }),
      makeRun({ baseSha: sha("b"), candidateSha: sha("e") }),
      makeRun({ baseSha: sha("e"), candidateSha: sha("f") }),
    ].map((run, i) => ({ number: i + 1, run }));
    assert.deepEqual(offBaseRuns(runs), []);
  });

  it("names each run on another base, with the best so far it left, and a round's winner moves the best", () => {
    const runs = [
      makeRun({ tag: "r1", baseSha: sha("a"), candidateSha: sha("b") }),
      makeRun({ tag: "r2", baseSha: sha("a"), candidateSha: sha("c"), verdict: "reject" }),
      roundSummaryRun({ tag: "r3", baseSha: sha("b"), candidateSha: sha("d") }),
      makeRun({ tag: "r4", baseSha: sha("9"), candidateSha: sha("e"), verdict: "inconclusive" }),
      makeRun({ tag: "r5", baseSha: sha("d"), candidateSha: sha("f"), verdict: "inconclusive" }),
    ].map((run, i) => ({ number: i + 1, run }));
    assert.deepEqual(offBaseRuns(runs), [
      { number: 2, tag: "r2", baseSha: sha("a"), bestSha: sha("b") },
      { number: 4, tag: "r4", baseSha: sha("9"), bestSha: sha("d") },
    ]);
  });
});
