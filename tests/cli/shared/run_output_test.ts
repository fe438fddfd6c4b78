import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportOutcome } from "../../../src/cli/shared/run_output.ts";
import { EXIT } from "../../../src/exit_codes.ts";
import type { DecisionRecord } from "../../../src/rundir/decision_file.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";

function io() {
  const out: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: () => {} }, out };
}

const dir = new RunDir("/runs/r1");
const record = runRecordFixture({}, { direction: "minimize" });
const WAKE = { jobId: "42", dependency: "afterany:7:8", begin: null, submittedAt: "2026-01-01T00:00:00Z", pending: [] };

/** A repeated design's decision: accepted, the time cut by 2 [1.5, 2.5]. */
const DECISION: DecisionRecord = {
  verdict: "accept",
  values: { baseline: 12, candidate: 10 },
  deltas: { candidate: -2 },
  reasons: ["The candidate improved on the baseline, above min_effect 1."],
  baseSha: "a".repeat(40),
  candidateSha: "b".repeat(40),
  runIdentity: null,
  decidedAt: "2025-01-02T04:00:00.000Z",
  direction: "minimize",
  minEffect: 1,
  baselineSource: "measured",
  paired: {
    seeds: [1, 2],
    n: 2,
    outcome: "accepted",
    benchmark: { n: 2, mean: 2, lower: 1.5, upper: 2.5, confidence: 0.95, method: "paired Student t", setAside: [] },
    siblings: {},
  },
};

describe("reportOutcome()", () => {
  it("a park: where it waits and when the wake job resumes it; exit 75", () => {
    const { io: o, out } = io();
    const code = reportOutcome(o, dir, record, { kind: "parked", pending: ["7", "8"], wake: WAKE }, false);
    assert.equal(code, EXIT.parked);
    assert.deepEqual(out, [
      "parked: waiting on job(s) 7, 8\n",
      'wake job 42 will run "outerloop resume /runs/r1" when they end\n',
    ]);
  });

  it("a park in --json: one object", () => {
    const { io: o, out } = io();
    reportOutcome(o, dir, record, {
      kind: "parked",
      pending: [],
      wake: { ...WAKE, dependency: null, begin: "now+600" },
    }, true);
    assert.deepEqual(JSON.parse(out.join("")), {
      status: "parked",
      run_dir: "/runs/r1",
      pending: [],
      wake_job: "42",
      dependency: null,
      begin: "now+600",
    });
  });

  it("a decision in --json: decision.json's keys, both quantities, the sha to merge; the verdict's exit", () => {
    const { io: o, out } = io();
    const code = reportOutcome(o, dir, record, { kind: "decided", decision: DECISION, fresh: true }, true);
    assert.equal(code, EXIT.ok);
    const json = JSON.parse(out.join(""));
    assert.equal(out.length, 1, "exactly one line");
    assert.deepEqual([json.status, json.verdict, json.candidate_sha, json.crash], [
      "decided",
      "accept",
      "b".repeat(40),
      null,
    ]);
    assert.deepEqual([json.improvement.mean, json.difference.mean, json.difference.lower], [2, -2, -2.5]);
    assert.equal(json.benchmark.mean, 2);
  });

  it("a decision for people: the verdict table; a reject's exit code", () => {
    const { io: o, out } = io();
    const reject = { ...DECISION, verdict: "reject" as const, reasons: ["No improvement."] };
    const code = reportOutcome(o, dir, record, { kind: "decided", decision: reject, fresh: true }, false);
    assert.equal(code, EXIT.rejected);
    assert.match(out.join(""), /reject/);
    assert.match(out.join(""), /No improvement\./);
  });
});
