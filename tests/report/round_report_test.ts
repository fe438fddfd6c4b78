import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderClimbHtml } from "../../src/report/html_climb.ts";
import { renderRunHtml } from "../../src/report/html_run.ts";
import { climbMarkdown, runMarkdown } from "../../src/report/markdown.ts";
import { formatRoundTable } from "../../src/report/round_table.ts";
import { runsJson } from "../../src/report/runs_json.ts";
import { formatRunsTable } from "../../src/report/runs_table.ts";
import { makeRun, roundSummaryRun } from "../helpers/report_fixtures.ts";
import { elements, mdCells, mdRows, svgById } from "../helpers/surface_read.ts";

/**
 * The renderers on a round (K candidates against one baseline): the runs
 * table's round row and a row per candidate, the Markdown and HTML pages of
 * a round (the winner marked, the dropped candidates greyed with where they
 * were dropped), a climb with a round beside a run of one candidate, and
 * hostile refs kept as text.
 */

const HOSTILE = ["a|b`<i>", "c2", "x&y\"'*z"];

describe("formatRunsTable() on a round", () => {
  it("gives the round a row (its verdict and winner) and each candidate a row under it", () => {
    const text = formatRunsTable([makeRun(), roundSummaryRun({ tag: "r2" })]);
    const lines = text.trimEnd().split("\n");
    assert.match(lines[1]!, /^r1 +\S+ \S+ +0123456789 -> fedcba9876 +decided +accept +\+2 +\+2 +1 +12m05s$/);
    assert.match(lines[2]!, /^r2 +\S+ \S+ +0123456789 -> 3 candidates +decided +accept: winner candidate-2 +12m05s$/);
    assert.match(
      lines[3]!,
      /^ {2}candidate +-> fedcba9876 \(c1\) +dropped at pair 2: below min_effect +inconclusive +\+0\.10 +\+0\.10 +\[-0\.30, \+0\.50\] 95% +2$/,
    );
    assert.match(
      lines[4]!,
      /^ {2}candidate-2 +-> 1111111111 \(c2\) +decided: winner +accept +\+1\.9 +\+1\.9 +\[\+1\.4, \+2\.4\] 97\.5% +4$/,
    );
    assert.match(
      lines[5]!,
      /^ {2}candidate-3 +-> 2222222222 \(c3\) +dropped at pair 2: below min_effect +reject +-1\.00 +-1\.00 +\[-1\.40, -0\.60\] 95% +2$/,
    );
    assert.equal(lines.length, 6);
  });
});

describe("runsJson() on a round", () => {
  it("adds the round's winner and candidates to the run's entry, null for a run of one", () => {
    const [one, round] = runsJson([makeRun(), roundSummaryRun()]).runs;
    assert.equal(one!.round, null);
    assert.deepEqual(round!.round!.winner, { arm: 2, measure: "candidate-2", ref: "c2", sha: "1".repeat(40) });
    assert.deepEqual(round!.round!.candidates.map((c) => [c.measure, c.verdict, c.standing, c.winner, c.stage]), [
      ["candidate", "inconclusive", "dropped", false, "screen"],
      ["candidate-2", "accept", "decided", true, "confirmation"],
      ["candidate-3", "reject", "dropped", false, "screen"],
    ]);
    assert.deepEqual(round!.round!.candidates[1]!.improvement, {
      n: 4,
      mean: 1.9,
      lower: 1.4,
      upper: 2.4,
      confidence: 0.975,
      set_aside: [],
      set_aside_why: null,
    });
    assert.deepEqual([round!.round!.candidates[1]!.first_pair, round!.round!.candidates[1]!.last_pair], [3, 6]);
    assert.equal(round!.improvement?.mean, 1.9, "the round's improvement is its winner's");
  });
});

describe("formatRoundTable()", () => {
  it("lists the baseline and every candidate, their intervals and verdicts, then names the winner", () => {
    const text = formatRoundTable(roundSummaryRun().round!, "0".repeat(40));
    const lines = text.trimEnd().split("\n");
    assert.equal(lines[0], "round of 3 candidates against one baseline, 6 pairs:");
    assert.match(lines[2]!, /^baseline +main +0{12} +measured on pairs 1–6$/);
    assert.match(
      lines[4]!,
      /^candidate-2 +c2 +1{12} +decided: winner +\+2\.00 \[\+1\.60, \+2\.40\] 95%, n = 2 \(pairs 1–2\) +\+1\.9 \[\+1\.4, \+2\.4\] 97\.5%, n = 4 \(pairs 3–6\) +accept$/,
    );
    assert.match(
      lines.at(-1)!,
      /^winner: candidate-2 \(c2, 1{10}\), improvement \(positive = better\) \+1\.9 \[\+1\.4, \+2\.4\] 97\.5%, n = 4 \(pairs 3–6\), fresh pairs that did not choose it$/,
    );
  });

  it("says why there is no winner when every candidate was rejected, or the screen's choice was not accepted", () => {
    const r = roundSummaryRun().round!;
    const rejected = {
      ...r,
      winner: null,
      arms: r.arms.map((a) => ({ ...a, winner: false, verdict: "reject" as const })),
    };
    assert.match(formatRoundTable(rejected, "0".repeat(40)), /\nno winner: every candidate was rejected\n$/);
    const arms = r.arms.map((a) =>
      a.arm === 2 ? { ...a, winner: false, verdict: "inconclusive" as const, because: "futile" } : a
    );
    assert.match(
      formatRoundTable({ ...r, winner: null, arms }, "0".repeat(40)),
      /\nno winner: candidate-2 \(c2, 1{10}\), the screen's choice, was not accepted on its confirmation \(inconclusive: stopped for futility, /,
    );
  });
});

describe("runMarkdown() on a round", () => {
  it("names the winner, gives every candidate's estimates, and the baseline's and candidates' values", () => {
    const md = runMarkdown(roundSummaryRun());
    assert.match(md, /^### `pi`: accept, winner `candidate-2` \(a round of 3 candidates\)\n/);
    assert.match(
      md,
      /\n\*\*Winner: candidate-2 \(c2, 1{10}\), improvement \(positive = better\) \+1\.9 \[\+1\.4, \+2\.4\] 97\.5%/,
    );
    const rows = mdRows(md).map(mdCells);
    const confirmation = rows.find((r) => r[5] === "confirmation")!;
    assert.deepEqual(confirmation.slice(0, 10), [
      "`candidate-2` **(winner)**",
      "`c2`",
      "`1111111111`",
      "decided: winner",
      "accept",
      "confirmation",
      "pairs 3–6",
      "+1.9",
      "[+1.4, +2.4] 97.5%",
      "+1.9",
    ]);
    assert.equal(rows.filter((r) => r[5] === "screen").length, 3, "a screen row for every candidate");
    assert.ok(rows.some((r) => r[3] === "dropped at pair 2: below min_effect" && r[4] === "reject"));
    const values = rows.find((r) => r[0] === "3")!;
    assert.deepEqual(values, ["3", "9.9", "", "11.9", ""], "pair 3: the baseline and the one candidate left");
  });

  it("keeps hostile refs as text: no pipe breaks a row, no tag comes out", () => {
    const md = runMarkdown(roundSummaryRun({}, HOSTILE));
    const rows = mdRows(md).map(mdCells).filter((r) => r.length === 10);
    assert.ok(rows.length >= 5, md);
    assert.ok(!/[^`\\]<i>/.test(md.replace(/`[^`]*`/g, "")), "no raw tag outside code spans");
  });
});

describe("climbMarkdown() with a round beside a run of one", () => {
  it("gives the round a row with its winner and a row per candidate", () => {
    const md = climbMarkdown([makeRun(), roundSummaryRun({ tag: "r2", createdAt: "2025-03-02T10:00:00Z" })]);
    const rows = mdRows(md).slice(2).map(mdCells);
    assert.equal(rows.length, 5);
    assert.match(rows[1]![4]!, /^accept: winner candidate-2$/);
    assert.deepEqual(rows.slice(2).map((r) => [r[1], r[4], r[8]]), [
      ["↳ `candidate`", "inconclusive (dropped at pair 2: below min_effect)", "+0.10"],
      ["↳ `candidate-2`", "accept (winner)", "+1.9"],
      ["↳ `candidate-3`", "reject (dropped at pair 2: below min_effect)", "-1.00"],
    ]);
  });
});

describe("the HTML page of a round", () => {
  it("draws each candidate's improvement with its interval, the winner marked and the dropped greyed", () => {
    const html = renderRunHtml(roundSummaryRun());
    assert.match(
      html,
      /<h1>pi <span class="badge badge-accept">accept<\/span> winner: <code>candidate-2<\/code> \(c2\)<\/h1>/,
    );
    const svg = svgById(html, "round-");
    const points = elements(svg, (e) => e.attrs["data-point"] === "improvement");
    assert.deepEqual(points.map((p) => [p.attrs["data-arm"], p.attrs["data-stage"], p.attrs["data-value"]]), [
      ["1", "screen", "0.1"],
      ["2", "screen", "2"],
      ["2", "confirmation", "1.9"],
      ["3", "screen", "-1"],
    ]);
    const winners = points.filter((p) => p.attrs["data-winner"] === "true");
    assert.deepEqual(winners.map((p) => [p.attrs["data-arm"], p.attrs["data-stage"], p.attrs["fill"]]), [[
      "2",
      "confirmation",
      "#1a7f37",
    ]]);
    const dropped = points.filter((p) => p.attrs["data-dropped"] === "true");
    assert.deepEqual(dropped.map((p) => [p.attrs["data-arm"], p.attrs["fill"]]), [["1", "#8c959f"], ["3", "#8c959f"]]);
    assert.equal(elements(svg, (e) => e.tag === "g" && e.attrs["class"] === "arm dropped").length, 2);
    assert.match(svg, />candidate · dropped at 2</);
    assert.match(svg, />winner</);
    const iv = elements(svg, (e) => e.attrs["class"] === "interval" && e.attrs["data-stage"] === "confirmation")[0]!;
    assert.deepEqual([iv.attrs["data-lower"], iv.attrs["data-upper"]], ["1.4", "2.4"]);
    // the values: the baseline and each candidate measured on the pair
    const values = svgById(html, "values-");
    const pair3 = elements(values, (e) => /#3$/.test(e.attrs["data-measure"] ?? ""));
    assert.deepEqual(pair3.map((e) => e.attrs["data-measure"]), ["candidate-2#3", "baseline#3"]);
    assert.match(html, /<caption>Every candidate of the round<\/caption>/);
  });

  it("keeps hostile refs as text", () => {
    const html = renderRunHtml(roundSummaryRun({}, HOSTILE));
    assert.ok(!html.includes("<i>"), "no element from a ref");
    assert.match(html, /a\|b`&lt;i&gt;/);
    assert.match(html, /x&amp;y&quot;&#39;\*z/);
  });
});

describe("the HTML page of a climb with a round beside a run of one", () => {
  it("puts the round's candidates side by side at its run number, the winner marked, the dropped greyed", () => {
    const html = renderClimbHtml([makeRun(), roundSummaryRun({ tag: "r2", createdAt: "2025-03-02T10:00:00Z" })]);
    const svg = svgById(html, "improvement-");
    const points = elements(svg, (e) => e.attrs["data-point"] === "improvement");
    assert.deepEqual(points.map((p) => [p.attrs["data-run"], p.attrs["data-arm"] ?? null, p.attrs["data-value"]]), [
      ["r1", null, "2"],
      ["r2", "1", "0.1"],
      ["r2", "2", "1.9"],
      ["r2", "3", "-1"],
    ]);
    const x = points.map((p) => Number(/^M(-?[\d.]+)|^$/.exec(p.attrs["d"] ?? "")?.[1] ?? p.attrs["cx"]));
    assert.ok(x[1]! < x[2]! && x[2]! < x[3]!, `arm 1 leftmost: ${x}`);
    assert.deepEqual(points.filter((p) => p.attrs["data-winner"] === "true").map((p) => p.attrs["data-arm"]), ["2"]);
    assert.deepEqual(points.filter((p) => p.attrs["data-dropped"] === "true").map((p) => p.attrs["data-arm"]), [
      "1",
      "3",
    ]);
    assert.match(html, /<td class="nowrap">↳ candidate-2<\/td>/);
    assert.match(html, /accept: winner candidate-2/);
  });
});

describe("a round with relative figures (issue 22)", () => {
  const winner = { mean: 1.19, lower: 1.14, upper: 1.24, confidence: 0.975 };
  const r = roundSummaryRun({ relative: winner });
  const arms = r.round!.arms.map((a) =>
    a.arm === 2
      ? { ...a, confirmation: { ...a.confirmation!, relative: winner } }
      : a.arm === 1
      ? { ...a, screen: { ...a.screen!, relative: { mean: 1.01, lower: 0.97, upper: 1.05, confidence: 0.95 } } }
      : a
  );
  const run = { ...r, round: { ...r.round!, arms } };

  it("heads the round's pages with the winner's relative change", () => {
    assert.match(
      runMarkdown(run),
      /^### `pi`: accept, winner `candidate-2`, \+19\.0% \[\+14%, \+24%\] \(a round/,
    );
    assert.match(
      renderRunHtml(run),
      /winner: <code>candidate-2<\/code> \(c2\) <span class="relative">\+19\.0% \[\+14%, \+24%\]<\/span><\/h1>/,
    );
  });

  it("gives each candidate's row in the climb its relative change, empty where it has none", () => {
    const md = climbMarkdown([makeRun(), run]);
    const rows = mdRows(md).map(mdCells);
    const col = rows[0]!.indexOf("relative");
    assert.ok(col > 0);
    // the round's own row (its winner's figure is in the heading), then each candidate's
    assert.deepEqual(rows.slice(-4).map((c) => c[col]), ["", "+1.0% [-3.0%, +5.0%]", "+19.0% [+14%, +24%]", ""]);
  });

  it("lists it in --json for the run and each candidate", () => {
    const [, entry] = runsJson([makeRun(), run]).runs;
    assert.deepEqual(entry!.relative, { mean: 1.19, lower: 1.14, upper: 1.24, confidence: 0.975 });
    assert.deepEqual(entry!.round!.candidates.map((c) => c.relative?.mean ?? null), [1.01, 1.19, null]);
    assert.equal(runsJson([makeRun()]).runs[0]!.relative, null);
  });
});
