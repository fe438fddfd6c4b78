import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbMarkdown, runMarkdown } from "../../src/report/markdown.ts";
import { mdCell, mdCode, mdText } from "../../src/report/markdown_escape.ts";
import { formatMeasured } from "../../src/text/numbers.ts";
import { climbFixture, makeRun, nastyRun, repeatRun, stalledRun } from "../helpers/report_fixtures.ts";

/** The cells of a Markdown table row, split on unescaped pipes. */
function cells(row: string): string[] {
  return row.replace(/^\| | \|$/g, "").split(/(?<!\\)\|/).map((c) => c.trim());
}

/** The table rows (lines starting with `|`) of a Markdown text. */
function tableRows(md: string): string[] {
  return md.split("\n").filter((l) => l.startsWith("|"));
}

describe("Markdown escaping", () => {
  it("mdCell() escapes pipes and turns newlines into <br>", () => {
    assert.equal(mdCell("a|b\nc"), "a\\|b<br>c");
    assert.equal(mdCell("x\r\ny"), "x<br>y");
  });

  it("mdText() escapes what would change the rendering mid-line and keeps one line", () => {
    assert.equal(mdText("*a* `b` <c> \\d"), "\\*a\\* \\`b\\` \\<c> \\\\d");
    assert.equal(mdText("one\n\ntwo"), "one two");
    assert.equal(mdText("min_effect 0.5 -> 12"), "min_effect 0.5 -> 12");
  });

  it("mdCode() picks a fence longer than any backtick run inside", () => {
    assert.equal(mdCode("pi"), "`pi`");
    assert.equal(mdCode("a`b"), "``a`b``");
    assert.equal(mdCode("`x`"), "`` `x` ``");
    assert.equal(mdCode("a\nb"), "`a b`");
  });
});

describe("runMarkdown()", () => {
  it("heads with the benchmark and verdict, then the metric, min_effect, shas and wall time", () => {
    const md = runMarkdown(makeRun());
    const [head, , facts] = md.split("\n");
    assert.equal(head, "### `pi`: accept");
    assert.match(facts ?? "", /^Metric `score` \(higher is better\), min_effect 0\.5\. /);
    assert.match(facts ?? "", /base `0123456789` -> candidate `fedcba9876`/);
    assert.match(facts ?? "", /decided after 12m05s\.$/);
  });

  it("names the backend the run's jobs ran on", () => {
    const facts = (backend: "slurm" | "sge" | "local") => runMarkdown(makeRun({ backend })).split("\n")[2] ?? "";
    assert.match(facts("slurm"), /Run `r1` \(Slurm\): base/);
    assert.match(facts("sge"), /Run `r1` \(Grid Engine\): base/);
    assert.match(facts("local"), /Run `r1` \(local\): base/);
  });

  it("says a failed or cancelled run ended that way after its wall time, not that it was decided", () => {
    for (const state of ["failed", "cancelled"] as const) {
      const [, , facts] = runMarkdown(makeRun({ state, verdict: null, failure: state === "failed" ? "x" : null }))
        .split("\n");
      assert.match(facts ?? "", new RegExp(`, ${state} after 12m05s\\.$`), state);
      assert.doesNotMatch(facts ?? "", /decided/, state);
    }
  });

  it("says a relative min_effect as the contract writes it (2%), not as the units the charts place it in", () => {
    const [, , facts] = runMarkdown(makeRun({ minEffect: 0.196, minEffectWritten: "2%" })).split("\n");
    assert.match(facts ?? "", /, min_effect 2%\. /);
  });

  it("tabulates base, candidate and difference per benchmark, and lists the reasons", () => {
    const md = runMarkdown(makeRun());
    const rows = tableRows(md);
    assert.deepEqual(cells(rows[0] ?? ""), ["benchmark", "baseline", "candidate", "difference (candidate − baseline)"]);
    assert.deepEqual(cells(rows[1] ?? ""), ["---", "---:", "---:", "---:"]);
    assert.deepEqual(cells(rows[2] ?? ""), ["`pi`", "10", "12", "+2"]);
    assert.match(
      md,
      /\n- The candidate improved on the baseline by 2, above min_effect 0\.5: score 10 -> 12, delta 2\.\n$/,
    );
  });

  it("shows every pair, the mean difference, each sibling, and the improvement and difference with n", () => {
    const md = runMarkdown(repeatRun());
    const rows = tableRows(md).slice(2).map(cells);
    assert.equal(rows.length, 7);
    assert.deepEqual(rows[1], ["`pi` pair 2", "10.4", "11", "+0.6"]);
    assert.deepEqual(rows[5], ["`pi` mean of 5 pairs", "10.1", "11", "+0.90"]);
    assert.deepEqual(rows[6], ["sibling `tsp`", "310", "305", "-5"]);
    assert.match(
      md,
      /\nImprovement \(positive = better\) over 5 pairs: mean \+0\.90, interval \[\+0\.55, \+1\.25\] 95%; difference \(candidate − baseline\): mean \+0\.90, interval \[\+0\.55, \+1\.25\] 95%\.\n/,
    );
  });

  it("says an open run's state and shows what is measured so far", () => {
    const md = runMarkdown(
      makeRun({ state: "parked", verdict: null, values: { baseline: 3 }, differences: {}, reasons: [] }),
    );
    assert.match(md, /^### `pi`: parked\n/);
    assert.deepEqual(cells(tableRows(md)[2] ?? ""), ["`pi`", "3", "", ""]);
  });

  it("keeps every table row whole and escapes names, reasons and failures", () => {
    const md = runMarkdown(nastyRun());
    for (const row of tableRows(md)) assert.equal(cells(row).length, 4, row);
    assert.match(md, /^### `loss<val> & "co" \| 'q'`: accept\n/);
    assert.match(md, /Run `` t\|<b>&"'`x` `` \(Slurm\):/);
    assert.match(md, /\*\*Failed:\*\* no \\<failure> \| here really\n/);
    assert.match(md, /\n- line one \| \\<script>alert\(1\)\\<\/script> & \\\*bold\\\* line two\n/);
    assert.doesNotMatch(md, /(?<!\\)<script>/);
  });
});

describe("climbMarkdown()", () => {
  it("counts the runs by outcome in the heading", () => {
    const md = climbMarkdown(climbFixture());
    assert.equal(
      md.split("\n")[0],
      "### Climb of `pi`: 8 runs (3 accept, 1 reject, 1 inconclusive, 1 parked, 1 failed, 1 cancelled)",
    );
  });

  it("has one row per run, oldest first, each with the same number of cells as the header", () => {
    const rows = tableRows(climbMarkdown(climbFixture()));
    assert.equal(rows.length, 2 + 8);
    const width = cells(rows[0] ?? "").length;
    for (const row of rows) assert.equal(cells(row).length, width, row);
    assert.deepEqual(cells(rows[5] ?? "").slice(0, 2), ["4", "`r4`"]);
    assert.deepEqual(cells(rows[5] ?? "").slice(4), [
      "accept",
      "12.1",
      "13",
      "+0.90",
      "+0.90",
      "[+0.55, +1.25] 95%",
      "5",
      "12m05s",
    ]);
    assert.equal(cells(rows[6] ?? "")[4], "failed: eval exited 1: boom");
  });

  it("keeps rows whole when tags and failures hold pipes and newlines", () => {
    const rows = tableRows(climbMarkdown([nastyRun(), makeRun({ benchmark: "b2" })]));
    const width = cells(rows[0] ?? "").length;
    assert.ok(cells(rows[0] ?? "").includes("benchmark"));
    for (const row of rows) assert.equal(cells(row).length, width, row);
  });

  it("says so for an empty climb", () => {
    assert.equal(climbMarkdown([]), "### Climb: 0 runs\n");
  });
});

describe("runMarkdown() of a run with a pair set aside and samples (issue 15)", () => {
  const run = stalledRun();
  const md = runMarkdown(run);
  const rows = tableRows(md).map(cells);

  it("marks the set-aside pair and says the mean row is the mean of the kept pairs, with the decision's value", () => {
    const values = rows.filter((r) => r[0]!.startsWith("`pi`"));
    assert.equal(values[7]![0], "`pi` pair 8 (set aside)");
    assert.equal(values[6]![0], "`pi` pair 7");
    const mean = values.find((r) => r[0]!.includes("mean of"))!;
    assert.equal(mean[0], "`pi` mean of 9 of 10 pairs; pair 8 set aside");
    // the decision's estimate (the kept pairs' mean difference), not the mean of all ten
    assert.equal(mean[3], "-0.749");
    const all = run.pairs.reduce((s, p) => s + p.candidate - p.baseline, 0) / 10;
    assert.ok(Math.abs(all - -0.749) > 0.4, `the mean of all ten (${all}) is another number`);
    // its baseline and candidate are the kept pairs' means too, so candidate − baseline reads as its difference
    const kept = run.pairs.filter((_, i) => i !== 7);
    const side = (k: "baseline" | "candidate") => kept.reduce((s, p) => s + p[k], 0) / kept.length;
    assert.deepEqual(mean.slice(1, 3), [formatMeasured(side("baseline")), formatMeasured(side("candidate"))]);
    assert.ok(Math.abs(Number(mean[2]) - Number(mean[1]) - -0.749) < 0.001, mean.join(" | "));
  });

  it("says over how many pairs the improvement is, and which were set aside", () => {
    assert.match(
      md,
      /\nImprovement \(positive = better\) over 9 of 10 pairs \(pair 8 set aside, outlying by the generalized ESD test\): mean \+0\.749, interval \[\+0\.712, \+0\.786\] 95%; difference \(candidate − baseline\): mean -0\.749, interval \[-0\.786, -0\.712\] 95%\.\n/,
    );
  });

  it("tabulates the spread of each measure's samples", () => {
    const at = rows.findIndex((r) => r[0] === "measure");
    assert.ok(at > 0, md);
    assert.deepEqual(rows[at], ["measure", "n", "min", "median", "max"]);
    assert.deepEqual(rows[at + 1], ["---", "---:", "---:", "---:", "---:"]);
    const cand8 = rows.find((r) => r[0] === "`candidate#8`");
    assert.deepEqual(cand8, ["`candidate#8`", "7", "17.35", "17.4", "18.2"]);
    assert.equal(rows.length - at - 2, 20, "one row per measure");
    assert.match(md, /\nSamples behind each value \(several per measure: the value is their summary\):\n\n\| measure/);
  });

  it("has no samples table when no measure reported samples", () => {
    assert.doesNotMatch(runMarkdown(repeatRun()), /Samples/);
  });
});

describe("runMarkdown() and climbMarkdown() with a relative figure (issue 22)", () => {
  const relative = { mean: 1.09, lower: 1.055, upper: 1.125, confidence: 0.95 };

  it("puts it in the heading and the estimate's sentence, as a change in percent when maximizing", () => {
    const md = runMarkdown(repeatRun({ relative }));
    assert.match(md, /^### `pi`: accept, \+9\.0% \[\+5\.5%, \+12\.5%\]\n/);
    assert.match(md, /; relative \(candidate \/ baseline\): \+9\.0% \[\+5\.5%, \+12\.5%\], 95%\.$/m);
  });

  it("reads a time as a speed-up", () => {
    const md = runMarkdown(
      repeatRun({ direction: "minimize", unit: "s", relative: { ...relative, mean: 0.9, lower: 0.85, upper: 0.95 } }),
    );
    assert.match(md, /^### `pi`: accept, 1\.111× faster \[1\.05, 1\.18\] \(-10\.0% time\)\n/);
    assert.match(md, /^Metric `score` in s \(lower is better\)/m, "the unit beside the metric");
  });

  it("reads a loss as lower, not faster", () => {
    const md = runMarkdown(
      repeatRun({ direction: "minimize", unit: "bpb", relative: { ...relative, mean: 0.9, lower: 0.85, upper: 0.95 } }),
    );
    assert.match(md, /^### `pi`: accept, 1\.111× lower \[1\.05, 1\.18\] \(-10\.0%\)\n/);
  });

  it("gives the climb a relative column only when some run has one, with nothing for a run without", () => {
    assert.doesNotMatch(climbMarkdown(climbFixture()), /relative/);
    const md = climbMarkdown([makeRun(), repeatRun({ tag: "r2", relative })]);
    const rows = tableRows(md);
    const header = cells(rows[0]!);
    const col = header.indexOf("relative");
    assert.equal(header[col - 1], "improvement interval");
    assert.equal(cells(rows[2]!)[col], "");
    assert.equal(cells(rows[3]!)[col], "+9.0% [+5.5%, +12.5%]");
    for (const r of rows) assert.equal(cells(r).length, header.length);
  });
});
