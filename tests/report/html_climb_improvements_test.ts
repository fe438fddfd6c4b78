import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbImprovementFigure } from "../../src/report/html_climb_improvements.ts";
import { makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;

describe("climbImprovementFigure()", () => {
  it("marks each run's improvement with its verdict, and one shaded min_effect line when every run shares it", () => {
    const runs = [
      { number: 1, run: makeRun({ tag: "r1" }) },
      { number: 2, run: repeatRun({ tag: "r2", verdict: "inconclusive" }) },
    ];
    const html = climbImprovementFigure(runs, 2, "imp");
    assert.equal(count(html, /data-point="improvement"/g), 2);
    assert.match(html, /data-run="r1"[^>]*data-verdict="accept"|data-verdict="accept"[^>]*data-run="r1"/);
    assert.equal(count(html, /class="min-effect"/g), 1, "one dashed line");
    assert.equal(count(html, /class="accept-side"/g), 1, "its accepting side shaded");
    assert.equal(count(html, /class="zero"/g), 1);
    // the repeated run's interval is drawn with its ends; the single pair has none
    assert.equal(count(html, /class="interval"/g), 1);
    assert.match(html, /data-lower="0\.55"/);
    assert.match(html, /: improvement per run \(positive = better\)/);
  });

  it("draws a short dashed tick at each run when the runs' min_effect differ, and shades nothing", () => {
    const runs = [
      { number: 1, run: makeRun({ tag: "r1", minEffect: 0.5 }) },
      { number: 2, run: makeRun({ tag: "r2", minEffect: 1 }) },
    ];
    const html = climbImprovementFigure(runs, 2, "imp");
    assert.equal(count(html, /class="min-effect"/g), 2);
    assert.equal(count(html, /class="accept-side"/g), 0);
    assert.match(html, /the dashed ticks are min_effect/);
  });

  it("a round shows each candidate at its run number, the winner marked, the dropped greyed", () => {
    const html = climbImprovementFigure([{ number: 1, run: roundSummaryRun() }], 1, "imp");
    assert.equal(count(html, /data-point="improvement"/g), 3);
    assert.equal(count(html, /data-winner="true"/g), 1);
    assert.match(html, /data-arm="2"[^>]*data-winner="true"/);
    assert.equal(count(html, /<g class="arm dropped"/g), 2);
    assert.match(html, /↳ candidate-2 \(winner\)/);
    assert.match(html, /↳ candidate \(dropped\)/);
  });
});
