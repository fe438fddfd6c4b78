import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cli } from "../helpers/cli.ts";
import { calibratedRun, interruptedRun, seededRun, timingCase } from "../helpers/seeded_run.ts";
import { agrees, elements, markerX, markerY, mdCells, mdRows, textCell } from "../helpers/surface_read.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * Issue 14, defect by defect: on a real timing benchmark (minimize, 10 pairs)
 * the verdict was right and the surfaces around it contradicted it. Each test
 * reads a surface of real run dirs (seeded_run.ts) as a person or a script
 * would, and fails on the code the issue was filed against.
 */

/** The differences of the timing case, pair by pair, and their mean. */
function timingDiffs() {
  const v = timingCase().values;
  const diffs = Array.from({ length: 10 }, (_, i) => {
    const s = i === 0 ? "" : `#${i + 1}`;
    return v[`candidate${s}`]! - v[`baseline${s}`]!;
  });
  return { diffs, mean: diffs.reduce((s, x) => s + x, 0) / diffs.length };
}

/** The zero line of a chart, by its look (a solid grey line 1.5 wide), and the min_effect line (dashed). */
function zeroAndThreshold(svg: string, axis: "x" | "y") {
  const zero = elements(
    svg,
    (e) => e.tag === "line" && e.attrs["stroke-width"] === "1.5" && !e.attrs["stroke-dasharray"],
  )
    .find((e) => (axis === "x" ? e.attrs["x1"] === e.attrs["x2"] : e.attrs["y1"] === e.attrs["y2"]));
  const dashed = elements(svg, (e) => e.tag === "line" && e.attrs["stroke-dasharray"] === "6 4")[0];
  const at = (e: typeof zero) => Number(axis === "x" ? e?.attrs["x1"] : e?.attrs["y1"]);
  return { zero: at(zero), threshold: at(dashed) };
}

describe("issue 14: what a person reads agrees with the verdict", () => {
  it("report --html: the mean marker of the difference chart lies on the side of zero its pairs' dots do", async () => {
    const root = tempDir("issue14-");
    const { dir, compute } = await seededRun(timingCase(), root);
    const file = join(root, "run.html");
    assert.equal((await cli(["report", dir.path, "--html", file], { compute })).code, 0);
    const html = readFileSync(file, "utf8");
    const svg = /<svg id="diff-[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    const { zero, threshold } = zeroAndThreshold(svg, "x");
    const dots = elements(svg, (e) => e.attrs["data-point"] === "pair");
    assert.equal(dots.length, 10);
    for (const d of dots) assert.ok(markerX(d) < zero, `every pair improves (lower is better): dot at ${markerX(d)}`);
    const mean = elements(svg, (e) => e.attrs["data-point"] === "mean")[0]!;
    assert.ok(markerX(mean) < zero, `the mean marker at ${markerX(mean)} is left of zero at ${zero}, with its pairs`);
    assert.ok(Number(mean.attrs["data-value"]) < 0, "the mean marker stands for a negative difference");
    assert.ok(threshold < zero, "min_effect sits on the improving (lower) side");
  });

  it("report --html of a climb: the accepted run sits on the side of zero its min_effect line does", async () => {
    const root = tempDir("issue14-");
    const { compute } = await seededRun(timingCase(), root);
    const file = join(root, "climb.html");
    assert.equal((await cli(["report", root, "--html", file], { compute })).code, 0);
    const html = readFileSync(file, "utf8");
    const charts = [...html.matchAll(/<svg id="[^"]*"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    const chart = charts.find((s) =>
      elements(s, (e) => e.attrs["data-run"] === "r1" && !["baseline", "candidate"].includes(e.attrs["data-point"]!))
        .length > 0
    )!;
    const mark = elements(chart, (e) => e.attrs["data-run"] === "r1")[0]!;
    const { zero, threshold } = zeroAndThreshold(chart, "y");
    assert.ok((markerY(mark) - zero) * (threshold - zero) > 0, "the run and min_effect on one side of zero");
    assert.ok(Math.abs(markerY(mark) - zero) > Math.abs(threshold - zero), "and the run beyond min_effect: accepted");
  });

  it("report --md: the mean difference is negative for a faster candidate, and the mean row is the mean", async () => {
    const root = tempDir("issue14-");
    const { dir, compute } = await seededRun(timingCase(), root);
    const md = (await cli(["report", dir.path, "--md"], { compute })).stdout;
    assert.doesNotMatch(md, /andidate [-−] baseline[^.\n]*mean \+/, "a difference is never printed with a + here");
    const { diffs, mean } = timingDiffs();
    const rows = mdRows(md).slice(2).map(mdCells);
    const meanRow = rows.find((r) => r[0]!.includes("mean of 10 pairs"))!;
    assert.ok(agrees(meanRow[3]!, mean), `the mean row shows the mean ${mean}, got ${meanRow[3]}`);
    assert.ok(!agrees(meanRow[3]!, diffs[0]!), `not pair 1's difference ${diffs[0]}`);
  });

  it("runs --json: the difference is candidate − baseline, the improvement positive, the values the means", async () => {
    const root = tempDir("issue14-");
    const { compute } = await seededRun(timingCase(), root);
    const entry = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs[0];
    assert.equal("delta" in entry, false, "no key called delta: it meant two things");
    assert.ok(entry.candidate < entry.baseline);
    const { mean } = timingDiffs();
    assert.ok(Math.abs(entry.difference - mean) < 1e-12, `difference ${entry.difference}, mean ${mean}`);
    assert.ok(entry.improvement.mean > 0 && entry.improvement.lower > 0, "the improvement: positive is better");
    const v = timingCase().values;
    const avg = (side: string) =>
      Object.entries(v).filter(([k]) => k.startsWith(side)).reduce((s, [, x]) => s + x, 0) / 10;
    assert.ok(Math.abs(entry.baseline - avg("baseline")) < 1e-12, "baseline is the mean over the pairs, not pair 1's");
    assert.ok(Math.abs(entry.candidate - avg("candidate")) < 1e-12, "candidate is the mean over the pairs");
  });

  it("prints numbers to the digits the data supports: no 12-digit values or intervals anywhere", async () => {
    const root = tempDir("issue14-");
    const { dir, compute } = await seededRun(timingCase(), root, { unit: "ms" });
    const file = join(root, "run.html");
    await cli(["report", dir.path, "--html", file], { compute });
    const surfaces = {
      runs: (await cli(["runs", root], { compute })).stdout,
      md: (await cli(["report", dir.path, "--md"], { compute })).stdout.split("\n- ")[0]!, // the reasons are stored sentences
      html: readFileSync(file, "utf8").replace(/<ul class="reasons">[\s\S]*?<\/ul>/, "").replace(/"[^"]*"/g, '""'),
      show: (await cli(["show", dir.path], { compute })).stdout.split("\n  - ")[0]!,
    };
    for (const [name, text] of Object.entries(surfaces)) {
      const long = [...text.matchAll(/\d+\.\d+/g)].map((m) => m[0]).filter((n) =>
        n.replace(/^0\.0*|\./g, "").length > 6
      );
      assert.deepEqual(long, [], `${name} prints more than 6 significant digits`);
    }
    // the interval is 0.070 wide: two significant digits of its width are 3 decimals, for all three numbers
    assert.match(
      surfaces.runs,
      / {2}-0\.743 {2,}\+0\.743 {2}\[\+0\.708, \+0\.778\] 95% {2}1\.0606× faster \[1\.0575, 1\.0636\] {2}10 {2}/,
      surfaces.runs,
    );
  });

  it("shows a calibration as calibrated and an open local run as interrupted, and leaves calibrations out of the charts", async () => {
    const root = tempDir("issue14-");
    const { compute } = await seededRun(timingCase(), root, { tag: "r1", createdAt: "2026-01-02T03:00:00.000Z" });
    await calibratedRun(root, "r2", "2026-01-02T04:00:00.000Z");
    interruptedRun(root, "r3", "2026-01-02T05:00:00.000Z");
    const runs = (await cli(["runs", root], { compute })).stdout;
    assert.equal(textCell(runs, 2, "state", "left"), "calibrated", runs);
    assert.equal(textCell(runs, 3, "state", "left"), "interrupted", runs);
    const json = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs;
    assert.deepEqual(json.map((r: { state: string }) => r.state), ["decided", "calibrated", "interrupted"]);
    const md = (await cli(["report", root, "--md"], { compute })).stdout;
    assert.match(md, /^### Climb of `toy`: 3 runs \(1 accept, 1 calibrated, 1 interrupted\)$/m);
    const file = join(root, "climb.html");
    await cli(["report", root, "--html", file], { compute });
    const html = readFileSync(file, "utf8");
    const charts = [...html.matchAll(/<svg id="[^"]*"[\s\S]*?<\/svg>/g)].map((m) => m[0]).join("");
    assert.equal(elements(charts, (e) => e.attrs["data-run"] === "r2").length, 0, "no chart plots the calibration");
    assert.match(html, /1 calibrated/);
  });

  it("gives each metric of a climb its own charts: a chart never plots two metrics under one label", async () => {
    const root = tempDir("issue14-");
    const { compute } = await seededRun(timingCase(), root, { tag: "r1", createdAt: "2026-01-02T03:00:00.000Z" });
    await seededRun(timingCase(), root, { tag: "r2", createdAt: "2026-01-02T04:00:00.000Z", metric: "ns" });
    const file = join(root, "climb.html");
    await cli(["report", root, "--html", file], { compute });
    const html = readFileSync(file, "utf8");
    const charts = [...html.matchAll(/<svg id="[^"]*"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    const plotted = charts.map((s) =>
      new Set(elements(s, (e) => e.attrs["data-run"] !== undefined).map((e) => e.attrs["data-run"]))
    )
      .filter((runs) => runs.size > 0);
    assert.ok(plotted.length >= 4, "two charts per metric");
    for (const runs of plotted) assert.equal(runs.size, 1, `one metric per chart, got runs ${[...runs]}`);
  });

  it("never shows a disputed decision as fact: runs, the Markdown and the HTML mark it", async () => {
    const root = tempDir("issue14-");
    const { dir, compute } = await seededRun(timingCase(), root);
    const d = JSON.parse(readFileSync(dir.decision, "utf8"));
    writeFileSync(dir.decision, JSON.stringify({ ...d, verdict: "reject" }));
    const runs = (await cli(["runs", root], { compute })).stdout;
    assert.match(runs, /^r1 .* reject \(disputed\) /m);
    assert.match(runs, /^ {2}disputed: its verdict is reject, but the results on disk give accept$/m);
    const json = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs[0];
    assert.deepEqual(json.disputes, ["its verdict is reject, but the results on disk give accept"]);
    const md = (await cli(["report", dir.path, "--md"], { compute })).stdout;
    assert.match(md, /^### `toy`: reject \(disputed\)(?:, .+)?$/m);
    assert.match(md, /^\*\*Disputed:\*\* .*its verdict is reject, but the results on disk give accept/m);
    const climbMd = (await cli(["report", root, "--md"], { compute })).stdout;
    assert.match(climbMd, /\(1 reject \(disputed\)\)/);
    const file = join(root, "run.html");
    await cli(["report", dir.path, "--html", file], { compute });
    const html = readFileSync(file, "utf8");
    assert.match(
      html,
      /<h1>toy <span class="badge badge-disputed">reject \(disputed\)<\/span>(?: <span class="relative">[^<]*<\/span>)?<\/h1>/,
    );
    assert.match(html, /Disputed:<\/strong>.*its verdict is reject, but the results on disk give accept/);
    const show = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(show, /^verdict: reject \(disputed\)$/m);
  });
});
