import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { climbMarkdown, runMarkdown } from "../../src/report/markdown.ts";
import { calibrationRun, makeRun } from "../helpers/report_fixtures.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import { calibrationOf } from "../../src/evaluation/calibration.ts";

describe("runMarkdown() of a calibration", () => {
  const md = runMarkdown(calibrationRun());

  it("tabulates every A/A pair's seed, measures and improvement, then the mean, sd and interval against 0", () => {
    const c = calibrationRun().calibration!;
    assert.match(md, /^### `parser`: calibrated\n/);
    assert.match(md, /\| pair \| seed \| first \| second \| improvement \(second over first\) \|/);
    assert.match(md, /\| 2 \| 12 \| 1\.22 \| 1\.208 \| \+0\.012 \|/);
    assert.match(md, new RegExp(`over 6 pairs: mean \\+?${c.mean.toPrecision(4).replace(/0+$/, "")}`));
    assert.match(md, /sd 0\.0089, A\/A interval \[-0\.\d+, \+0\.\d+\] 95%: it contains 0, as an A\/A run should\./);
    assert.doesNotMatch(md, /Warning/);
  });

  it("has the power table, the suggested keys ready to paste and how they were derived", () => {
    assert.match(md, /Fixed designs, one look at 95% \(false accepts at most 2\.5%\)/);
    assert.match(md, /\| pairs \| beyond min_effect \| at min_effect 0\.03 \|/);
    assert.match(md, /\| 5 \| 0\.019 \| 0\.049 \|/);
    assert.match(md, /```json\n\{"min_effect":0\.03,"repeats":4,"max_repeats":12\}\n```/);
    assert.match(md, /How: min_effect 0\.03: the smallest systematic difference/);
  });

  it("never shows the contract's min_effect as the calibration's", () => {
    assert.doesNotMatch(md, /min_effect 0\.5/);
  });

  it("warns first when the A/A interval excludes 0", () => {
    const biased = runMarkdown(calibrationRun(true));
    assert.match(biased, /^### `parser`: calibrated \(biased\)\n/);
    assert.match(
      biased,
      /\*\*Warning:\*\* the A\/A interval excludes 0: the two sides of a pair differ systematically/,
    );
    assert.ok(biased.indexOf("**Warning:**") < biased.indexOf("| pair |"), "before the pairs");
  });

  it("says a calibration that is still measuring has no result yet", () => {
    const open = runMarkdown(calibrationRun(false, { state: "parked", calibration: null, wallSeconds: null }));
    assert.match(open, /No calibration yet: the run is parked\./);
    const unread = runMarkdown(calibrationRun(false, { calibration: null }));
    assert.match(unread, /The run is calibrated, but its calibration\.json was not read into this report\./);
  });
});

describe("climbMarkdown() with a calibration", () => {
  it("gives the calibration's row its sd, suggested min_effect, A/A mean, interval and pairs", () => {
    const md = climbMarkdown([makeRun(), calibrationRun()]);
    const row = md.split("\n").find((l) => l.includes("`cal`")) ?? "";
    assert.match(row, /`0123456789` \(A\/A\) \| calibrated: sd 0\.0089, suggests min_effect 0\.03 \|/);
    assert.match(row, /\| A\/A \[-0\.\d+, \+0\.\d+\] 95% \| 6 \|/);
    const header = md.split("\n").find((l) => l.startsWith("| #")) ?? "";
    assert.equal(row.split(" | ").length, header.split(" | ").length, "as many cells as the header");
  });
});

describe("runMarkdown() of a calibration made by calibrationOf()", () => {
  /** A real calibration of `toy` with a sibling, in `direction`, its values mirrored by `sign`. */
  function calibrated(direction: "maximize" | "minimize", sign: 1 | -1) {
    const pairs = [[10, 10.5, 50, 50.4], [9, 9.4, 48, 47.5], [11, 10.2, 52, 52.1], [10.4, 10.1, 49, 49.8]];
    const r = runRecordFixture({ kind: "calibrate", candidateSha: "a".repeat(40) }, {
      direction,
      repeats: pairs.length,
      max_repeats: pairs.length,
      siblings: [{ name: "mem", command: "sh sib.sh", metric: "cost", direction, tolerance: 0.01 }],
    });
    const { plan, seeds } = runPlan(r).all;
    const values: Record<string, number> = {};
    plan.forEach((m, i) => (values[m.name] = sign * pairs[Math.floor(i / 4)]![i % 4]!));
    const c = calibrationOf(r, plan, values, seeds, () => Date.parse("2025-01-02T03:04:05Z"));
    return calibrationRun(false, { direction, values, calibration: c });
  }

  it("shows each sibling's spread and suggested tolerance, and the derivation calibrate wrote", () => {
    const run = calibrated("minimize", 1);
    const md = runMarkdown(run);
    assert.match(md, /- sibling `mem` \(`cost`, lower is better\): mean [-+]?[\d.]+, sd [\d.]+, A\/A interval \[/);
    assert.match(md, /Suggested sibling tolerances: `mem: \{"tolerance":[\d.]+\}`\./);
    assert.ok(md.includes(`How: ${run.calibration!.derivation}`));
    assert.equal((md.match(/^\| \d \| \d+ \|/gm) ?? []).length, 4, "a row per A/A pair");
  });

  it("prints the same improvements, spread and keys for t minimized and -t maximized", () => {
    const strip = (md: string) =>
      md.split("\n").filter((l) => !/^\| \d \| \d+ \|/.test(l)).join("\n").replace(/lower|higher/g, "x");
    assert.equal(strip(runMarkdown(calibrated("minimize", 1))), strip(runMarkdown(calibrated("maximize", -1))));
    const improvements = (md: string) =>
      [...md.matchAll(/^\| \d \| \d+ \| [^|]+ \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => m[1]);
    assert.deepEqual(
      improvements(runMarkdown(calibrated("minimize", 1))),
      improvements(runMarkdown(calibrated("maximize", -1))),
    );
  });
});
