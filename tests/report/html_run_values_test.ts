import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { samplesTable, valueFigures } from "../../src/report/html_run_values.ts";
import { makeRun, repeatRun, stalledRun } from "../helpers/report_fixtures.ts";
import { elements } from "../helpers/surface_read.ts";

const ids = (group: string) => `values-${group}`;

describe("valueFigures()", () => {
  it("gives the benchmark and each sibling a figure of their own, a row per pair", () => {
    const figures = valueFigures(repeatRun(), ids);
    assert.equal(figures.length, 2);
    assert.match(figures[0]!, /<svg id="values-m:" .*<title[^>]*>Values: pi</);
    assert.match(figures[1]!, /<svg id="values-s:tsp" .*<title[^>]*>Values: sibling tsp</);
    const points = elements(figures[0]!, (e) => e.attrs["data-point"] !== undefined);
    assert.equal(points.filter((p) => p.attrs["data-point"] === "baseline").length, 5);
    assert.deepEqual(points.filter((p) => p.attrs["data-point"] === "candidate").map((p) => p.attrs["data-measure"]), [
      "candidate",
      "candidate#2",
      "candidate#3",
      "candidate#4",
      "candidate#5",
    ]);
    assert.match(figures[1]!, /sib-tsp-cand/);
  });

  it("marks the benchmark's candidate by the verdict, a sibling's neutrally", () => {
    const [bench, sib] = valueFigures(repeatRun({ verdict: "reject" }), ids);
    const cand = (html: string) => elements(html, (e) => e.attrs["data-point"] === "candidate")[0]!;
    assert.equal(cand(bench!).attrs["stroke"], "#cf222e");
    assert.equal(cand(sib!).attrs["stroke"], "#8250df");
  });

  it("draws each measure's samples as a whisker and labels a pair set aside", () => {
    const [fig] = valueFigures(stalledRun(), ids);
    const whiskers = elements(fig!, (e) => e.attrs["data-whisker"] !== undefined);
    assert.equal(whiskers.length, 20);
    const top = whiskers.find((w) => w.attrs["data-measure"] === "candidate#8")!;
    assert.equal(top.attrs["data-max"], "18.2");
    assert.match(fig!, />pair 8 \(set aside\)</);
    assert.match(fig!, /samples: min to max/);
  });
});

describe("samplesTable()", () => {
  it("is empty when no measure reported several samples", () => {
    assert.equal(samplesTable(makeRun()), "");
  });

  it("lists each measure's n, min, median and max", () => {
    const html = samplesTable(stalledRun());
    assert.match(html, /<caption>Samples behind each value<\/caption>/);
    assert.match(html, /<td>candidate#8<\/td><td class="num">7<\/td>/);
    assert.match(html, /<td class="num">18\.2<\/td><\/tr>/);
  });
});
