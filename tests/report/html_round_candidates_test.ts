import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { roundCandidatesFigure } from "../../src/report/html_round_candidates.ts";
import { roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements } from "../helpers/surface_read.ts";

describe("roundCandidatesFigure()", () => {
  it("draws one row per estimate: every screen, and the confirmation of the screen's choice", () => {
    const run = roundSummaryRun();
    const html = roundCandidatesFigure(run, run.round!, "cands")!;
    const points = elements(html, (e) => e.attrs["data-point"] === "improvement");
    assert.deepEqual(points.map((p) => [p.attrs["data-arm"], p.attrs["data-stage"], p.attrs["data-value"]]), [
      ["1", "screen", "0.1"],
      ["2", "screen", "2"],
      ["2", "confirmation", "1.9"],
      ["3", "screen", "-1"],
    ]);
    assert.deepEqual(points.filter((p) => p.attrs["data-winner"] === "true").map((p) => p.attrs["data-stage"]), [
      "confirmation",
    ]);
    assert.deepEqual(points.filter((p) => p.attrs["data-dropped"] === "true").map((p) => p.attrs["data-arm"]), [
      "1",
      "3",
    ]);
    assert.match(html, /><span class="nobr">candidate-2<\/span> · confirmation \(winner\)</);
    assert.match(html, />candidate · dropped at 2</);
  });

  it("is null while no candidate has an estimate", () => {
    const run = roundSummaryRun();
    const round = { ...run.round!, arms: run.round!.arms.map((a) => ({ ...a, screen: null, confirmation: null })) };
    assert.equal(roundCandidatesFigure(run, round, "cands"), null);
  });
});
