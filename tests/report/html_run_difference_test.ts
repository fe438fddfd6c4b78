import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { differenceFigure } from "../../src/report/html_run_difference.ts";
import { makeRun, repeatRun, stalledRun } from "../helpers/report_fixtures.ts";
import { elements } from "../helpers/surface_read.ts";

const points = (html: string, kind: string) => elements(html, (e) => e.attrs["data-point"] === kind);

describe("differenceFigure()", () => {
  it("a dot per pair's difference, their mean with its interval, zero and the min_effect line", () => {
    const html = differenceFigure(repeatRun(), "diff")!;
    assert.deepEqual(points(html, "pair").map((p) => Number(p.attrs["data-value"]).toFixed(1)), [
      "1.2",
      "0.6",
      "1.1",
      "0.5",
      "1.1",
    ]);
    assert.deepEqual(points(html, "mean").map((p) => p.attrs["data-value"]), ["0.9"]);
    const iv = elements(html, (e) => e.attrs["class"] === "interval")[0]!;
    assert.deepEqual([iv.attrs["data-lower"], iv.attrs["data-upper"]], ["0.55", "1.25"]);
    assert.equal(elements(html, (e) => e.attrs["class"] === "zero").length, 1);
    assert.match(html, /The dashed line is min_effect at \+0\.5, on the improving side of zero \(higher is better\)/);
  });

  it("minimizing: the difference keeps its raw sign and min_effect sits left of zero", () => {
    const html = differenceFigure(stalledRun(), "diff")!;
    const mean = Number(points(html, "mean")[0]!.attrs["data-value"]);
    assert.ok(mean < 0, `the mean difference is negative: ${mean}`);
    assert.match(html, /min_effect at -0\.3/);
  });

  it("a pair set aside is a hollow dot, named in the row and the description", () => {
    const html = differenceFigure(stalledRun(), "diff")!;
    const aside = points(html, "pair").filter((p) => p.attrs["data-set-aside"] === "true");
    assert.equal(aside.length, 1);
    assert.equal(aside[0]!.attrs["fill"], "#ffffff");
    assert.match(html, />pair 8 \(set aside\)</);
    assert.match(html, /pair 8 set aside, outlying by the generalized ESD test \(a hollow dot\)/);
  });

  it("a single pair without pairs recorded is one row; a run without a difference has no chart", () => {
    const one = differenceFigure(makeRun({ pairs: [] }), "diff")!;
    assert.equal(points(one, "pair").length, 1);
    assert.equal(points(one, "mean").length, 0);
    assert.equal(differenceFigure(makeRun({ pairs: [], verdict: null, differences: {} }), "diff"), null);
  });
});
