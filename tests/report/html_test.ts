import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderClimbHtml } from "../../src/report/html_climb.ts";
import { attrs, escapeHtml, uniqueId } from "../../src/report/html_escape.ts";
import { renderRunHtml } from "../../src/report/html_run.ts";
import type { RunSummary } from "../../src/report/model.ts";
import { climbFixture, makeRun, nastyRun, repeatRun, stalledRun } from "../helpers/report_fixtures.ts";
import { elements, factText, markerX, svgById } from "../helpers/surface_read.ts";

/** How many plotted points of each kind (`data-point="kind"`) a page has. */
function points(html: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of html.matchAll(/data-point="([^"]*)"/g)) out[m[1] ?? ""] = (out[m[1] ?? ""] ?? 0) + 1;
  return out;
}

/** Every `<svg …>…</svg>` element of a page. */
function svgs(html: string): string[] {
  return [...html.matchAll(/<svg[^>]*>[\s\S]*?<\/svg>/g)].map((m) => m[0]);
}

/** Checks what every report page owes: self-contained, accessible charts, unique ids, finite geometry. */
function assertWellFormed(html: string): void {
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.match(html, /<title>[^<]+<\/title>/);
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|\ssrc=|href=|https?:|url\(|@import/i);
  const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length, "element ids are unique");
  for (const svg of svgs(html).filter((s) => s.includes('role="img"'))) {
    const labelled = /aria-labelledby="([^"]*)"/.exec(svg)?.[1] ?? "";
    const [title, desc] = labelled.split(" ");
    assert.match(svg, new RegExp(`<title id="${title}">[^<]+</title>`));
    assert.match(svg, new RegExp(`<desc id="${desc}">[^<]+</desc>`));
    assert.match(svg, /<text[^>]*>[^<]+<\/text>/, "the chart has axis labels");
  }
  assert.doesNotMatch(html, /NaN|Infinity|undefined/);
  for (const m of html.matchAll(/\s(?:x|y|cx|cy|r|x1|x2|y1|y2|width|height)="([^"]*)"/g)) {
    assert.ok(Number.isFinite(Number(m[1])), `a finite coordinate, got ${m[0]}`);
  }
}

describe("HTML escaping", () => {
  it("escapeHtml() escapes the five characters that matter", () => {
    assert.equal(escapeHtml(`<a href="x">&'</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  });

  it("attrs() escapes values and leaves out null and undefined", () => {
    assert.equal(attrs({ a: 1, b: '"<', c: undefined, d: null }), ' a="1" b="&quot;&lt;"');
  });

  it("uniqueId() slugs text and numbers repeats", () => {
    const seen = new Set<string>();
    assert.equal(uniqueId("diff", "R 1!", seen), "diff-r-1");
    assert.equal(uniqueId("diff", "r-1", seen), "diff-r-1-2");
    assert.equal(uniqueId("diff", "<>", seen), "diff");
  });
});

describe("renderRunHtml()", () => {
  it("plots each pair's difference, the mean, and every measured value", () => {
    const html = renderRunHtml(repeatRun());
    assertWellFormed(html);
    assert.deepEqual(points(html), { pair: 5, mean: 1, baseline: 6, candidate: 6 });
    assert.equal(svgs(html).filter((s) => s.includes('role="img"')).length, 3);
    assert.match(html, /min_effect \+0\.5/);
    assert.match(html, /<table>/);
  });

  it("names the backend the run's jobs ran on among its facts", () => {
    assert.equal(factText(renderRunHtml(makeRun({ backend: "sge" })), "backend"), "Grid Engine");
    assert.equal(factText(renderRunHtml(makeRun({ backend: "local" })), "backend"), "local");
    assert.equal(factText(renderRunHtml(makeRun()), "backend"), "Slurm");
  });

  it("draws the min_effect line on the improving side when minimizing", () => {
    const run = makeRun({
      direction: "minimize",
      values: { baseline: 5, candidate: 4 },
      differences: { candidate: -1 },
    });
    const html = renderRunHtml({ ...run, pairs: [{ baseline: 5, candidate: 4 }] });
    assertWellFormed(html);
    assert.match(html, /min_effect -0\.5/);
    assert.match(html, /lower is better/);
  });

  it("escapes every name, tag, reason and failure", () => {
    const html = renderRunHtml(nastyRun());
    assertWellFormed(html);
    assert.doesNotMatch(html, /<script>|<b>|<val>|<failure>|<i>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; \*bold\*/);
    assert.match(html, /<h1>loss&lt;val&gt; &amp; &quot;co&quot; \| &#39;q&#39; /);
    assert.match(html, /no &lt;failure&gt; \| here/);
  });

  it("copes with a run that has no values, no pairs and no verdict yet", () => {
    const run = makeRun({ state: "parked", verdict: null, values: {}, differences: {}, pairs: [], reasons: [] });
    const html = renderRunHtml({ ...run, decidedAt: null, wallSeconds: null });
    assertWellFormed(html);
    assert.deepEqual(points(html), {});
    assert.match(html, /No difference yet: the run is parked\./);
    assert.match(html, /No values measured yet\./);
  });

  const edges: [string, Partial<RunSummary>][] = [
    ["no pairs, a recorded delta", { pairs: [] }],
    ["equal values", { values: { baseline: 3, candidate: 3 }, differences: { candidate: 0 }, pairs: [] }],
    ["negative values", { values: { baseline: -12, candidate: -9 }, differences: { candidate: 3 }, pairs: [] }],
    ["huge values", { values: { baseline: 4e15, candidate: 4.2e15 }, differences: { candidate: 2e14 }, pairs: [] }],
    ["tiny values", { values: { baseline: 3e-9, candidate: 2e-9 }, differences: { candidate: -1e-9 }, pairs: [] }],
    ["zero min_effect", { minEffect: 0 }],
    ["an interval and no pairs", {
      pairs: [],
      improvement: { n: 9, mean: 1, interval: { lower: 0.2, upper: 1.8, confidence: 0.9 }, setAside: [] },
      difference: 1,
    }],
  ];
  for (const [what, over] of edges) {
    it(`renders finite charts for ${what}`, () => {
      const html = renderRunHtml(makeRun(over));
      assertWellFormed(html);
      const p = points(html);
      assert.equal(p["baseline"], 1);
      assert.equal(p["candidate"], 1);
      assert.equal((p["pair"] ?? 0) + (p["mean"] ?? 0), 1);
    });
  }
});

describe("renderClimbHtml()", () => {
  it("plots each run's baseline and candidate, and each run's improvement", () => {
    const html = renderClimbHtml(climbFixture());
    assertWellFormed(html);
    assert.deepEqual(points(html), { baseline: 7, candidate: 5, improvement: 5 });
    assert.equal((html.match(/data-point="candidate"[^>]*data-verdict="accept"/g) ?? []).length, 3);
    assert.match(html, /<polyline points="[^"]+" fill="none" stroke="#1a7f37"/);
  });

  it("has one row per run in the table of all runs, with the failure", () => {
    const html = renderClimbHtml(climbFixture());
    const table = html.slice(html.indexOf("All runs, oldest first"));
    assert.equal((table.match(/<tr>/g) ?? []).length, 1 + 8);
    assert.match(table, /eval exited 1: boom/);
  });

  it("works with one run, and with no runs", () => {
    const one = renderClimbHtml([makeRun()]);
    assertWellFormed(one);
    assert.deepEqual(points(one), { baseline: 1, candidate: 1, improvement: 1 });
    const none = renderClimbHtml([]);
    assertWellFormed(none);
    assert.match(none, /No runs in this climb yet\./);
  });

  it("gives each benchmark its own charts and escapes their names", () => {
    const html = renderClimbHtml([makeRun(), { ...nastyRun(), createdAt: "2025-03-02T00:00:00Z" }]);
    assertWellFormed(html);
    assert.equal(svgs(html).filter((s) => s.includes('role="img"')).length, 4);
    assert.doesNotMatch(html, /<val>|<script>/);
  });

  it("notes the runs measured against another base than the best so far, above the chart, and none for one descent", () => {
    const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40)) as [string, string, string];
    const line = [
      makeRun({ tag: "r1", baseSha: a, candidateSha: b }),
      makeRun({ tag: "r2", baseSha: b, candidateSha: c, createdAt: "2025-03-01T11:00:00Z" }),
    ];
    assert.doesNotMatch(renderClimbHtml(line), /class="note bases"/);
    const html = renderClimbHtml([
      ...line,
      makeRun({ tag: "r3", baseSha: a, candidateSha: b, createdAt: "2025-03-01T12:00:00Z" }),
    ]);
    assert.match(
      html,
      /<p class="note bases">Not one descent: 1 run measured against another base than the best so far .*: run 3 \(r3\) on aaaaaaaaaa, not cccccccccc\./,
    );
    assert.ok(html.indexOf('class="note bases"') < html.indexOf('<svg id="climb-'), "above the values chart");
  });

  it("draws one min_effect line when runs share it, and a tick per run when they differ", () => {
    const dashes = (html: string) => (html.match(/stroke-dasharray="6 4"( class="min-effect")?\/>/g) ?? []).length;
    const same = renderClimbHtml([makeRun(), makeRun({ tag: "r2" })]);
    const differ = renderClimbHtml([makeRun(), makeRun({ tag: "r2", minEffect: 1 }), makeRun({ tag: "r3" })]);
    assertWellFormed(differ);
    // the legend's swatch, plus one line across, or one tick per run
    assert.equal(dashes(same), 1 + 1);
    assert.equal(dashes(differ), 1 + 3);
    assert.match(differ, /<td class="num">\+1<\/td><\/tr>/);
  });

  it("draws equal, negative and huge values on finite axes", () => {
    for (const [b, c] of [[5, 5], [-3, -1], [1e15, 1.1e15], [2e-12, 1e-12]] as const) {
      const html = renderClimbHtml([
        makeRun({ values: { baseline: b, candidate: c }, differences: { candidate: c - b }, pairs: [] }),
      ]);
      assertWellFormed(html);
    }
  });
});

describe("renderRunHtml() of a run with a pair set aside and samples (issue 15)", () => {
  const run = stalledRun();
  const html = renderRunHtml(run);
  const diff = svgById(html, "diff-");
  const values = svgById(html, "values-");

  it("is well formed", () => assertWellFormed(html));

  it("draws the set-aside pair's dot hollow, the others filled, and says so in the legend", () => {
    const dots = elements(diff, (e) => e.attrs["data-point"] === "pair");
    assert.equal(dots.length, 10);
    const aside = dots.filter((d) => d.attrs["data-set-aside"] === "true");
    assert.equal(aside.length, 1);
    assert.equal(aside[0], dots[7], "pair 8's dot");
    assert.equal(aside[0]!.attrs["fill"], "#ffffff", "hollow");
    for (const d of dots.filter((d) => d !== aside[0])) assert.notEqual(d.attrs["fill"], "#ffffff");
    assert.match(html, /<li><svg[^>]*>[^]*?<\/svg>set aside \(outlying\)<\/li>/);
    assert.match(
      diff,
      /<title>pair 8 set aside, outlying by the generalized ESD test: 17\.4 − 13\.099 = \+4\.301<\/title>/,
    );
  });

  it("puts the mean marker at the decision's estimate, the kept pairs' mean, and labels its row so", () => {
    const zero = Number(elements(diff, (e) => e.attrs["class"] === "zero")[0]!.attrs["x1"]);
    const dots = elements(diff, (e) => e.attrs["data-point"] === "pair");
    const far = dots[7]!;
    const perUnit = (markerX(far) - zero) / Number(far.attrs["data-value"]);
    const mean = elements(diff, (e) => e.attrs["data-point"] === "mean")[0]!;
    assert.equal(Number(mean.attrs["data-value"]), run.difference);
    const kept = run.pairs.filter((_, i) => i !== 7).map((p) => p.candidate - p.baseline);
    const keptMean = kept.reduce((a, b) => a + b, 0) / kept.length;
    assert.ok(Math.abs(markerX(mean) - (zero + perUnit * keptMean)) < 1, "at the kept pairs' mean");
    assert.match(html, /<td>pair 8 \(set aside\)<\/td><td class="num">\+4\.301<\/td>/);
    assert.match(html, /<td>mean of 9 of 10 pairs; pair 8 set aside<\/td><td class="num">-0\.749<\/td>/);
    // the values table's summary row: the kept pairs' means, labelled so; pair 8 marked on the chart and in the table
    assert.match(
      html,
      /<td>mean of 9 of 10 pairs; pair 8 set aside<\/td><td class="num">13\.0[0-9]*<\/td><td class="num">12\.2[0-9]*<\/td><td class="num">-0\.749<\/td>/,
    );
    assert.match(html, /<td>8 \(set aside\)<\/td>/);
    assert.match(values, />pair 8 \(set aside\)<\/text>/);
    assert.match(
      factText(html, "improvement (positive = better)"),
      /, n = 10, pair 8 set aside, outlying by the generalized ESD test$/,
    );
  });

  it("draws each measure's samples as a min–max whisker where its numbers say, labelled in the legend", () => {
    const whiskers = elements(values, (e) => e.attrs["class"] === "whisker");
    assert.equal(whiskers.length, 20);
    const markers = elements(values, (e) => e.attrs["data-measure"] !== undefined && e.attrs["class"] !== "whisker");
    // the chart's scale, from two markers
    const at = (name: string) => markers.find((m) => m.attrs["data-measure"] === name)!;
    const [a, b] = [at("baseline#8"), at("candidate#8")];
    const perUnit = (markerX(b) - markerX(a)) / (run.values["candidate#8"]! - run.values["baseline#8"]!);
    const xOf = (v: number) => markerX(a) + perUnit * (v - run.values["baseline#8"]!);
    for (const w of whiskers) {
      const name = w.attrs["data-measure"]!;
      const s = run.samples[name]!;
      assert.deepEqual([Number(w.attrs["data-min"]), Number(w.attrs["data-max"]), Number(w.attrs["data-n"])], [
        s.min,
        s.max,
        s.n,
      ], name);
      const [x1, x2] = whiskerEnds(w);
      assert.ok(Math.abs(x1 - xOf(s.min)) < 0.2 && Math.abs(x2 - xOf(s.max)) < 0.2, `${name}: ${x1}–${x2}`);
      assert.ok(x1 <= markerX(at(name)) && markerX(at(name)) <= x2, `${name}: the marker lies on its whisker`);
    }
    assert.match(html, /<\/svg>samples: min to max \(the marker is the value\)<\/li>/);
    assert.match(html, /<caption>Samples behind each value<\/caption>/);
    assert.match(
      html,
      /<td>candidate#8<\/td><td class="num">7<\/td><td class="num">17\.35<\/td><td class="num">17\.4<\/td><td class="num">18\.2<\/td>/,
    );
  });

  it("draws neither without samples or set-aside pairs", () => {
    const plain = renderRunHtml(repeatRun());
    assert.doesNotMatch(plain, /whisker|set aside|Samples behind/);
  });
});

/** A whisker's two ends along x, from its path `M<x1> <y>H<x2>…`. */
function whiskerEnds(e: { attrs: Readonly<Record<string, string>> }): [number, number] {
  const m = /^M(-?[\d.]+) -?[\d.]+H(-?[\d.]+)/.exec(e.attrs["d"] ?? "");
  return [Number(m?.[1]), Number(m?.[2])];
}

describe("renderRunHtml() and renderClimbHtml() with a relative figure (issue 22)", () => {
  const relative = { mean: 0.9, lower: 0.85, upper: 0.95, confidence: 0.95 };
  const run = repeatRun({ direction: "minimize", unit: "s", relative });

  it("puts it in the headline beside the verdict and among the facts with its level", () => {
    const html = renderRunHtml(run);
    assert.match(
      html,
      /<h1>pi <span class="badge badge-accept">accept<\/span> <span class="relative">1\.111× faster \[1\.05, 1\.18\] \(-10\.0% time\)<\/span><\/h1>/,
    );
    assert.equal(factText(html, "relative (candidate / baseline)"), "1.111× faster [1.05, 1.18] (-10.0% time), 95%");
  });

  it("shows nothing when the run has none", () => {
    const html = renderRunHtml(repeatRun());
    assert.doesNotMatch(html, /class="relative"|relative \(candidate/);
  });

  it("gives the climb's table a relative column when a run has one", () => {
    assert.doesNotMatch(renderClimbHtml(climbFixture()), /<th[^>]*>relative<\/th>/);
    const html = renderClimbHtml([makeRun(), { ...run, tag: "r2" }]);
    assert.match(html, /<th scope="col">improvement interval<\/th><th scope="col">relative<\/th>/);
    assert.match(html, /<td class="words">1\.111× faster \[1\.05, 1\.18\]<\/td>/, "a brief cell: the factor");
  });
});

describe("renderRunHtml() reads the differences it draws (issue 20: renderers format, never compute)", () => {
  it("plots each pair's difference and the difference interval as the model gives them", () => {
    const run = repeatRun();
    // numbers no subtraction of the pair's values would give: the chart must read them, not work them out
    const pairs = run.pairs.map((p, i) => ({ ...p, difference: 0.25 * (i + 1) }));
    const html = renderRunHtml({ ...run, pairs, differenceInterval: { lower: 0.2, upper: 1.4, confidence: 0.9 } });
    const svg = svgById(html, "diff-");
    const dots = elements(svg, (e) => e.attrs["data-point"] === "pair").map((e) => Number(e.attrs["data-value"]));
    assert.deepEqual(dots, [0.25, 0.5, 0.75, 1, 1.25]);
    const iv = elements(svg, (e) => e.attrs["class"] === "interval")[0]!;
    assert.deepEqual([iv.attrs["data-lower"], iv.attrs["data-upper"]], ["0.2", "1.4"]);
    assert.match(factText(html, "difference (candidate − baseline)"), /\[\+0\.2, \+1\.4\] 90%/);
  });
});
