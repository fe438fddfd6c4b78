import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbImprovementFigure } from "../../src/report/html_climb_improvements.ts";
import { crashedRound, crashedRun, makeRun, repeatRun, roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements, markerX, markerY } from "../helpers/surface_read.ts";
import { labelBox } from "../../src/report/svg_threshold.ts";

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
    assert.match(html, /<span class="nobr">↳ candidate-2<\/span> \(winner\)/);
    assert.match(html, /<span class="nobr">↳ candidate<\/span> \(dropped\)/);
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
      /<span class="nobr">↳ candidate-3<\/span> \(crashed\)<\/td><td class="num">crashed<\/td><td class="words">eval exited with code 1</,
    );
  });

  it("puts the min_effect label on no mark: along the line, or across it, clear of every point", () => {
    // the right half of the line crowded just above it (the label's first place), one run far above
    const at = (d: number) => ({ values: { baseline: 10, candidate: 10 + d }, differences: { candidate: d } });
    const runs = [2, 0.1, 0.62, 0.6, 0.58, 0.61, 0.63, 0.6].map((d, i) => ({
      number: i + 1,
      run: makeRun({ tag: `r${i + 1}`, verdict: d > 0.5 ? "accept" : "inconclusive", ...at(d) }),
    }));
    const html = climbImprovementFigure(runs, runs.length, "imp");
    const text = elements(html, (e) => e.attrs["class"] === "min-effect-label")[0]!;
    const label = labelBox("min_effect +0.5", Number(text.attrs["x"]), Number(text.attrs["y"]));
    // every marker here is a diamond (accept) or a square (inconclusive): its centre is at most 8 px from its path's start
    const marks = elements(html, (e) => e.attrs["data-point"] === "improvement").map((e) => {
      const [x, y] = [markerX(e), markerY(e)];
      return { left: x - 9, right: x + 9, top: y - 9, bottom: y + 17 };
    });
    assert.equal(marks.length, 8);
    const on = marks.filter((m) =>
      m.left < label.right && label.left < m.right && m.top < label.bottom && label.top < m.bottom
    );
    assert.deepEqual(on, [], `the label at ${JSON.stringify(label)} sits on no mark`);
  });
});
