import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatResultsTsv } from "../../src/report/results_tsv.ts";
import { calibrationRun, crashedRun, makeRun, roundSummaryRun } from "../helpers/report_fixtures.ts";

const rowsOf = (tsv: string) => tsv.trimEnd().split("\n").map((l) => l.split("\t"));

describe("formatResultsTsv()", () => {
  it("writes autoresearch's results.tsv: commit, the metric, keep/discard/crash, description", () => {
    const climb = [
      makeRun({ label: "add momentum features" }),
      makeRun({ tag: "r2", verdict: "reject", label: "switch to GeLU", values: { baseline: 12, candidate: 11.5 } }),
      crashedRun({ label: "double model width" }),
    ];
    assert.deepEqual(rowsOf(formatResultsTsv(climb)), [
      ["commit", "score", "status", "description"],
      ["0123456", "10", "keep", "baseline"],
      ["fedcba9", "12", "keep", "add momentum features"],
      ["fedcba9", "11.5", "discard", "switch to GeLU"],
      ["fedcba9", "0.000000", "crash", "double model width (eval exited with code 1)"],
    ]);
  });

  it("gives a round a row per candidate, the winner kept; leaves out calibrations and undecided runs", () => {
    const round = roundSummaryRun();
    const climb = [calibrationRun(), makeRun({ verdict: null, state: "parked", label: "open" }), round];
    const rows = rowsOf(formatResultsTsv(climb));
    assert.deepEqual(rows.map((r) => r[2]), ["status", "keep", "discard", "keep", "discard"]);
    assert.deepEqual(rows.slice(2).map((r) => r[0]), round.round!.arms.map((a) => a.sha.slice(0, 7)));
    assert.deepEqual(rows.slice(2).map((r) => r[3]), ["c1", "c2", "c3"], "the ref when no label is known");
    // a candidate's value: the mean of every value it measured (candidate-2: six pairs)
    const c2 = Object.entries(round.values).filter(([k]) => /^candidate-2(#\d+)?$/.test(k)).map(([, v]) => v);
    assert.equal(Number(rows[3]![1]), Number((c2.reduce((a, b) => a + b) / c2.length).toPrecision(6)));
  });

  it("keeps every row on one line: a tab or newline in a label becomes a space; a disputed accept is discarded", () => {
    const tsv = formatResultsTsv([makeRun({ label: "a\tb\nc", disputes: ["its verdict is accept, but …"] })]);
    assert.deepEqual(rowsOf(tsv)[2], ["fedcba9", "12", "discard", "a b c (disputed decision)"]);
  });

  it("gives a crash's whole cause, however long: a program reads the cell, and a loop's own row holds it whole", () => {
    const cause = 'eval result has no metric "score" in the last line of stdout: keys present are "scroe", "wall"';
    const run = crashedRun({ label: "double model width" });
    const tsv = formatResultsTsv([{ ...run, crash: { ...run.crash!, cause } }]);
    assert.equal(rowsOf(tsv)[2]![3], `double model width (${cause})`);
  });

  it("is the header alone for a climb without a decided run", () => {
    assert.equal(formatResultsTsv([]), "commit\tvalue\tstatus\tdescription\n");
  });
});
