import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbImprovementFigure } from "../../src/report/html_climb_improvements.ts";
import { crashedRound, crashedRun, makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements, markerY } from "../helpers/surface_read.ts";

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

  it("marks a crash without an estimate on the bottom edge, names it in the legend, and says so in its table row", () => {
    const runs = [
      { number: 1, run: makeRun({ tag: "r1" }) },
      { number: 2, run: crashedRun({ tag: "r2", values: { baseline: 10 }, pairs: [] }) },
      { number: 3, run: crashedRound(false) },
    ];
    const html = climbImprovementFigure(runs, 3, "imp");
    const crashes = elements(html, (e) => e.attrs["data-point"] === "crash");
    assert.deepEqual(crashes.map((p) => [p.attrs["data-run"], p.attrs["data-arm"]]), [
      ["r2", undefined],
      ["r-round-crash", "3"],
    ]);
    const lowest = Math.max(...elements(html, (e) => e.attrs["data-point"] === "improvement").map(markerY));
    assert.ok(crashes.every((p) => markerY(p) > lowest), "below every improvement: on the bottom edge");
    assert.match(html, /<ul class="legend">.*crashed, no value: on the bottom edge \(greyed\)<\/li>/s);
    // no blank row: "crashed" where the improvement would be, its cause beside it
    assert.match(
      html,
      /<tr><td class="nowrap">2<\/td><td class="num">crashed<\/td><td class="words">eval exited with code 1<\/td>/,
    );
    assert.match(
      html,
      /↳ candidate-3 \(crashed\)<\/td><td class="num">crashed<\/td><td class="words">eval exited with code 1</,
    );
  });
});
