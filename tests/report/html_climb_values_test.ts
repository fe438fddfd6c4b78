import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbValueFigure } from "../../src/report/html_climb_values.ts";
import { crashedRun, makeRun, roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements, markerY } from "../helpers/surface_read.ts";

const points = (html: string, kind: string) => elements(html, (e) => e.attrs["data-point"] === kind);

describe("climbValueFigure()", () => {
  it("marks each run's baseline and candidate, the candidate by its verdict, and links the accepted ones", () => {
    const runs = [
      { number: 1, run: makeRun({ tag: "r1" }) },
      { number: 2, run: makeRun({ tag: "r2", verdict: "reject", values: { baseline: 12, candidate: 11 } }) },
      { number: 3, run: makeRun({ tag: "r3", values: { baseline: 12, candidate: 14 } }) },
    ];
    const html = climbValueFigure(runs, 3, "vals");
    assert.deepEqual(points(html, "baseline").map((p) => p.attrs["data-run"]), ["r1", "r2", "r3"]);
    assert.deepEqual(points(html, "candidate").map((p) => [p.attrs["data-run"], p.attrs["data-verdict"]]), [
      ["r1", "accept"],
      ["r2", "reject"],
      ["r3", "accept"],
    ]);
    assert.equal((html.match(/<polyline /g) ?? []).length, 1, "the accepted candidates linked in order");
    assert.match(html, /2 candidate\(s\) accepted\./);
    assert.match(html, /<caption>pi: score over the climb<\/caption>/);
  });

  it("marks a crash with no value of its candidate on the bottom edge, named in the legend", () => {
    const runs = [
      { number: 1, run: makeRun({ tag: "r1" }) },
      // crashed on pair 1: the baseline measured, the candidate never printed a value
      { number: 2, run: crashedRun({ tag: "r2", values: { baseline: 10 }, pairs: [] }) },
      // a smoke crash: nothing measured at all
      { number: 3, run: crashedRun({ tag: "r3", values: {}, pairs: [] }) },
    ];
    const html = climbValueFigure(runs, 3, "vals");
    const crashes = points(html, "crash");
    assert.deepEqual(crashes.map((p) => [p.attrs["data-run"], p.attrs["data-verdict"]]), [
      ["r2", "crashed"],
      ["r3", "crashed"],
    ]);
    const lowest = Math.max(...points(html, "baseline").map(markerY));
    assert.ok(crashes.every((p) => markerY(p) > lowest), "below every value: on the bottom edge");
    assert.match(html, /<title>run 2 \(r2\): candidate crashed: eval exited with code 1; no value/);
    assert.match(html, /<ul class="legend">.*crashed, no value: on the bottom edge \(greyed\)<\/li>/s);
    assert.doesNotMatch(climbValueFigure(runs.slice(0, 1), 1, "vals"), /crashed, no value/, "no crash, no entry");
  });

  it("links nothing with one accepted candidate", () => {
    const html = climbValueFigure([{ number: 1, run: makeRun() }], 1, "vals");
    assert.doesNotMatch(html, /<polyline /);
  });

  it("a round shows its winner's values, and its verdict with the winner in the table", () => {
    const html = climbValueFigure([{ number: 1, run: roundSummaryRun() }], 1, "vals");
    assert.equal(points(html, "candidate").length, 1);
    assert.match(html, /accept: winner candidate-2/);
  });
});
