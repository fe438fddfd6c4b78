import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { roundMarkdown } from "../../src/report/markdown_round.ts";
import { roundSummaryRun } from "../helpers/report_fixtures.ts";

// The whole Markdown report (runMarkdown, climbMarkdown) of a round is in tests/report/round_report_test.ts.

describe("roundMarkdown()", () => {
  const md = roundSummaryRun();

  it("heads the round with its verdict and winner, then the metric and the run", () => {
    const lines = roundMarkdown(md).split("\n");
    assert.match(lines[0]!, /^### `pi`: accept, winner `candidate-2` \(a round of .*\)$/);
    assert.match(
      lines[2]!,
      /^Metric `score` \(higher is better\), min_effect .*Run `r-round` \(Slurm\): base `0123456789` \(`main`\) against 3 candidates, created 2025-03-01 10:00 UTC, decided after 12m05s\.$/,
    );
  });

  it("gives each candidate a screen row, and the screen's choice a confirmation row marked the winner", () => {
    const rows = roundMarkdown(md).split("\n").filter((l) => l.startsWith("| `candidate"));
    assert.deepEqual(rows.map((r) => r.split("|").map((c) => c.trim()).slice(1, 2).concat(r.split("|")[6]!.trim())), [
      ["`candidate`", "screen"],
      ["`candidate-2`", "screen"],
      ["`candidate-2` **(winner)**", "confirmation"],
      ["`candidate-3`", "screen"],
    ]);
  });

  it("lists the values pair by pair with a column per candidate, then the reasons", () => {
    const text = roundMarkdown(md);
    assert.match(text, /Values of `pi`, pair by pair \(the baseline and each candidate measured on it\):/);
    assert.match(text, /\| pair \| baseline \| `candidate` \| `candidate-2` \| `candidate-3` \|/);
    assert.match(text, /\n- Candidate 2 wins the round\.\n$/);
  });

  it("says a dispute and a failure, and keeps a hostile ref from breaking a row", () => {
    const text = roundMarkdown(roundSummaryRun({ disputes: ["x"], failure: "boom" }, ["a|b", "c2", "c3"]));
    assert.match(text, /\*\*Disputed:\*\* decision\.json does not follow from the results beside it: x\./);
    assert.match(text, /\*\*Failed:\*\* boom/);
    const row = text.split("\n").find((l) => l.startsWith("| `candidate` "))!;
    assert.equal(row.split(/(?<!\\)\|/).length, 12, `ten cells: ${row}`);
  });
});
