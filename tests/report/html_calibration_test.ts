import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderClimbHtml } from "../../src/report/html_climb.ts";
import { renderRunHtml } from "../../src/report/html_run.ts";
import { escapeHtml } from "../../src/report/html_escape.ts";
import { calibrationRun, makeRun } from "../helpers/report_fixtures.ts";
import { elements, factText, svgById } from "../helpers/surface_read.ts";

describe("renderRunHtml() of a calibration", () => {
  const run = calibrationRun();
  const c = run.calibration!;
  const html = renderRunHtml(run);

  it("plots every A/A pair's improvement and their mean with the A/A interval against zero, no min_effect", () => {
    const svg = svgById(html, "calibration-");
    const dots = elements(svg, (e) => e.attrs["data-point"] === "pair");
    assert.deepEqual(dots.map((e) => Number(e.attrs["data-value"])), c.differences.map((d) => -d));
    const mean = elements(svg, (e) => e.attrs["data-point"] === "mean");
    assert.deepEqual(mean.map((e) => Number(e.attrs["data-value"])), [c.mean]);
    const iv = elements(svg, (e) => e.attrs["class"] === "interval")[0]!;
    assert.deepEqual([Number(iv.attrs["data-lower"]), Number(iv.attrs["data-upper"])], [
      c.lower,
      c.upper,
    ]);
    assert.equal(elements(svg, (e) => e.attrs["class"] === "zero").length, 1);
    assert.doesNotMatch(html, /min-effect|accept-side/, "nothing shades the contract's min_effect");
  });

  it("gives the sd, the A/A interval and the suggested keys as facts, then the power table and the derivation", () => {
    assert.equal(factText(html, "sd of the A/A improvements"), "0.0089");
    assert.match(factText(html, "improvement (positive = better)"), /A\/A interval \[-0\.\d+, \+0\.\d+\] 95%$/);
    assert.equal(factText(html, "suggested keys"), escapeHtml('{"min_effect":0.03,"repeats":4,"max_repeats":12}'));
    assert.match(html, /<caption>Fixed designs, one look at 95%/);
    assert.match(html, /<td class="num">10<\/td><td class="num">0\.012<\/td><td class="num">0\.042<\/td>/);
    assert.match(html, /<pre class="keys"><code>\{&quot;min_effect&quot;:0\.03,/);
    assert.match(html, /How: min_effect 0\.03: the smallest systematic difference/);
    assert.doesNotMatch(html, /Warning/);
  });

  it("warns when the A/A interval excludes 0", () => {
    const biased = renderRunHtml(calibrationRun(true));
    assert.match(biased, /class="failure bias"><strong>Warning:<\/strong> the A\/A interval excludes 0/);
    assert.match(biased, /badge-inconclusive">calibrated: biased</);
  });

  it("says a calibration still measuring has no result yet", () => {
    const open = renderRunHtml(calibrationRun(false, { state: "parked", calibration: null }));
    assert.match(open, /No calibration yet: the run is parked\./);
    assert.doesNotMatch(open, /<svg/);
  });
});

describe("renderClimbHtml() with a calibration", () => {
  it("gives the calibration's row in the table of all runs its sd, suggested min_effect and A/A interval", () => {
    const html = renderClimbHtml([makeRun(), calibrationRun()]);
    const row = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => m[1]!).find((r) => r.includes(">cal<")) ?? "";
    assert.match(row, /0123456789 <span class="nobr">\(A\/A\)<\/span>/);
    assert.match(row, /calibrated: sd 0\.0089, suggests min_effect 0\.03/);
    assert.match(row, /<span class="nobr">A\/A<\/span> \[-0\.\d+, \+0\.\d+\] 95%/);
  });
});
