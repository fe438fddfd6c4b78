import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runsJson } from "../../src/report/runs_json.ts";
import { formatRunsTable } from "../../src/report/runs_table.ts";
import { renderColumns } from "../../src/text/columns.ts";
import {
  calibrationRun,
  climbFixture,
  CRASH,
  crashedRun,
  makeRun,
  nastyRun,
  roundSummaryRun,
} from "../helpers/report_fixtures.ts";
import { aaInterval, signedStat } from "../../src/report/calibration_pairs.ts";

describe("formatRunsTable()", () => {
  it("prints one line per run, oldest first, with the difference, the improvement, its interval and n", () => {
    const text = formatRunsTable(climbFixture());
    const lines = text.trimEnd().split("\n");
    assert.match(
      lines[0] ?? "",
      /^tag +created \(UTC\) +base -> candidate +state +verdict +difference +improvement +improvement interval +n +wall$/,
    );
    assert.match(
      lines[1] ?? "",
      /^r1 +2025-03-01 05:00 +0123456789 -> fedcba9876 +decided +accept +\+2 +\+2 +1 +12m05s$/,
    );
    const r4 = lines.find((l) => l.startsWith("r4 ")) ?? "";
    assert.match(r4, / accept +\+0\.90 +\+0\.90 +\[\+0\.55, \+1\.25\] 95% +5 +12m05s$/);
    assert.match(lines.find((l) => l.startsWith("r8 ")) ?? "", / parked$/);
  });

  it("gives a calibration's row its sd, suggested min_effect, A/A mean, interval and pairs", () => {
    const c = calibrationRun(true).calibration!;
    const lines = formatRunsTable([makeRun(), calibrationRun(true)]).trimEnd().split("\n");
    const row = lines.find((l) => l.startsWith("cal ")) ?? "";
    assert.match(row, / 0123456789 \(A\/A\) +calibrated +biased: sd 0\.0089, suggests min_effect 0\.03 /);
    assert.ok(row.includes(` ${signedStat(c.mean)} `), row);
    assert.ok(row.includes(` A/A ${aaInterval(c)} `), row);
    assert.match(row, / 6 +12m05s$/);
  });

  it("puts a failed run's failure on the line under it", () => {
    const lines = formatRunsTable(climbFixture()).split("\n");
    const at = lines.findIndex((l) => l.startsWith("r5 "));
    assert.equal(lines[at + 1], "  failed: eval exited 1: boom");
  });

  it("right-aligns the numbers so the decimal columns line up", () => {
    const lines = formatRunsTable(climbFixture()).split("\n");
    const end = (tag: string, s: string) => {
      const line = lines.find((l) => l.startsWith(`${tag} `)) ?? "";
      return line.indexOf(s) + s.length;
    };
    assert.equal(end("r1", "+2 "), end("r2", "-0.5 "));
  });

  it("gives each run's label in a last column once some run has one, a round's on each candidate's row", () => {
    const plain = formatRunsTable([makeRun()]);
    assert.doesNotMatch(
      plain.split("\n")[0]!,
      /label/,
      "no label, no column: a climb from before labels reads as it did",
    );
    const lines = formatRunsTable([makeRun({ label: "try a wider model" }), roundSummaryRun()]).split("\n");
    assert.match(lines[0]!, / label$/);
    assert.match(lines[1]!, / try a wider model$/);
  });

  it("cuts a long crash cause and a long label with an ellipsis, so one run cannot widen every row", () => {
    const cause = "eval exited with code 1: " + "RuntimeError: CUDA out of memory. ".repeat(5);
    const lines = formatRunsTable([
      makeRun(),
      crashedRun({ crash: { ...CRASH, cause }, label: "x ".repeat(60) }),
    ]).split("\n");
    assert.ok(lines.every((l) => l.length < 230), lines.map((l) => l.length).join(", "));
    assert.ok(lines[0]!.length < 200, `the header: ${lines[0]!.length} characters`);
    assert.match(lines[2]!, /crashed: eval exited with code 1: RuntimeError:… /);
    assert.doesNotMatch(lines.join("\n"), /CUDA out of memory\. RuntimeError/);
  });

  it("uses no colour codes, tabs or box characters, and keeps a tag with a newline on one line", () => {
    const text = formatRunsTable([nastyRun(), makeRun({ tag: "two\nlines", failure: "a\nb", state: "failed" })]);
    assert.ok(!text.includes("\u001b") && !text.includes("\t"), "no escape codes or tabs");
    assert.doesNotMatch(text, /[\u2500-\u257f]/);
    assert.equal(text.trimEnd().split("\n").length, 5); // header, two runs, two failures
    assert.match(text, /two lines/);
    assert.match(text, / {2}failed: a b\n$/);
  });

  it("adds a benchmark column (name: metric) when the climb measures several benchmarks or metrics", () => {
    const text = formatRunsTable([makeRun(), makeRun({ benchmark: "tsp", tag: "r2" })]);
    assert.match(text, /^tag +benchmark +created/);
    assert.match(text, /\nr2 +tsp: score +2025/);
    const metrics = formatRunsTable([makeRun(), makeRun({ metric: "ms", tag: "r2" })]);
    assert.match(metrics, /\nr1 +pi: score +2025.*\nr2 +pi: ms +2025/s);
  });

  it("prints the header alone for an empty climb", () => {
    assert.equal(formatRunsTable([]).split("\n").length, 2);
  });
});

describe("renderColumns()", () => {
  it("pads to the widest cell in code points and trims trailing blanks", () => {
    const out = renderColumns(["a", "b"], [["é", "1"], ["xyz", ""]], new Set([1]));
    assert.equal(out, "a    b\né    1\nxyz");
  });
});

describe("runsJson()", () => {
  it("has one entry per run, oldest first, with every key present in a fixed order", () => {
    const json = runsJson(climbFixture());
    assert.equal(json.runs.length, 8);
    const keys = [
      "tag",
      "kind",
      "run_dir",
      "created_at",
      "benchmark",
      "metric",
      "unit",
      "direction",
      "min_effect",
      "base_sha",
      "candidate_sha",
      "label",
      "state",
      "verdict",
      "baseline",
      "candidate",
      "difference",
      "improvement",
      "decided_at",
      "wall_seconds",
      "failure",
      "live",
      "disputes",
      "round",
      "calibration",
      "crash",
      "relative",
    ];
    for (const entry of json.runs) assert.deepEqual(Object.keys(entry), keys);
  });

  it("gives a calibration its A/A estimate, sd, bias and suggested keys; null for a measure run", () => {
    const [run, cal] = runsJson([makeRun(), calibrationRun()]).runs;
    const c = calibrationRun().calibration!;
    assert.equal(run!.calibration, null);
    assert.deepEqual(cal!.calibration, {
      n: 6,
      mean: c.mean,
      lower: c.lower,
      upper: c.upper,
      confidence: 0.95,
      sd: 0.0089,
      biased: false,
      suggestion: { min_effect: 0.03, repeats: 4, max_repeats: 12 },
    });
  });

  it("gives full shas, the benchmark's mean values, its difference and its improvement in snake_case", () => {
    const r4 = runsJson(climbFixture()).runs[3];
    assert.equal(r4?.base_sha, "0123456789abcdef0123456789abcdef01234567");
    assert.ok(Math.abs((r4?.baseline ?? 0) - 12.1) < 1e-12, "the mean over the pairs, not pair 1's 12");
    assert.ok(Math.abs((r4?.candidate ?? 0) - 13) < 1e-12, "the mean over the pairs, not pair 1's 13.2");
    assert.equal(r4?.difference, 0.9);
    assert.deepEqual(r4?.improvement, {
      n: 5,
      mean: 0.9,
      lower: 0.55,
      upper: 1.25,
      confidence: 0.95,
      set_aside: [],
      set_aside_why: null,
    });
    assert.deepEqual(runsJson(climbFixture()).runs[1]?.improvement, {
      n: 1,
      mean: -0.5,
      lower: null,
      upper: null,
      confidence: null,
      set_aside: [],
      set_aside_why: null,
    });
  });

  it("uses null, never a missing key, for what an open or failed run lacks", () => {
    const r5 = runsJson(climbFixture()).runs[4];
    assert.deepEqual(
      [r5?.verdict, r5?.candidate, r5?.difference, r5?.improvement, r5?.decided_at, r5?.wall_seconds],
      [null, null, null, null, null, null],
    );
    assert.equal(r5?.failure, "eval exited 1: boom");
  });

  it("round-trips through JSON unchanged", () => {
    const json = runsJson(climbFixture());
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json);
  });
});
