import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbValueFigure } from "../../src/report/html_climb_values.ts";
import { makeRun, roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements } from "../helpers/surface_read.ts";

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
