import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateRun } from "../../src/evaluation/evaluate.ts";
import { readRunSnapshot } from "../../src/evaluation/snapshot.ts";
import { writeCancel } from "../../src/rundir/cancel_file.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { viewRun } from "../../src/views/run_view.ts";
import { runViewJson } from "../../src/views/run_view_json.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { fixedCase, seededRun } from "../helpers/seeded_run.ts";
import { tempDir } from "../helpers/temp.ts";
import { join } from "node:path";
import { mkdirSync } from "node:fs";

const NOW = () => Date.parse("2026-01-02T04:00:00Z");
// two pairs, the candidate about 1 lower when minimizing: accepted at min_effect 0.3
const VALUES = { baseline: 10, candidate: 9, "baseline#2": 11, "candidate#2": 10.1 };

describe("viewRun() and runViewJson() on a decided run", () => {
  it("lists each measure done with its value and job, the verdict, and no warning", async () => {
    const { dir, compute } = await seededRun(fixedCase("minimize", VALUES), tempDir("run-view-"));
    const v = await viewRun(evaluateRun(readRunSnapshot(dir)), compute, NOW);
    assert.equal(v.open, false);
    assert.deepEqual(v.rows.map((r) => [r.name, r.state, r.value]), [
      ["baseline", "done", 10],
      ["candidate", "done", 9],
      ["baseline#2", "done", 11],
      ["candidate#2", "done", 10.1],
    ]);
    assert.equal(v.round, null);
    assert.deepEqual(v.warnings, []);

    const json = runViewJson(v);
    assert.equal(json["state"], "decided");
    assert.equal(json["verdict"], "accept");
    assert.equal(json["run_dir"], dir.path);
    assert.deepEqual((json["measures"] as readonly { name: string }[]).map((m) => m.name), [
      "baseline",
      "candidate",
      "baseline#2",
      "candidate#2",
    ]);
    for (const key of ["wake", "crash", "round", "failure", "cancelled", "waiting_for_room", "improvement"]) {
      assert.ok(key in json, `every key is present: ${key}`);
    }
    assert.equal(json["cancelled"], null);
  });
});

describe("viewRun() on a cancelled run", () => {
  it("reads every unfinished measure as cancelled, whatever the queue says", async () => {
    const dir = new RunDir(join(tempDir("run-view-"), "r1"));
    mkdirSync(dir.path, { recursive: true });
    writeRunRecord(dir, runRecordFixture({}, { repeats: 2, max_repeats: 2 }));
    writeCancel(dir, { cancelledAt: "2026-01-02T03:30:00.000Z", jobs: [] });
    const v = await viewRun(evaluateRun(readRunSnapshot(dir)), new FakeCompute(), NOW);
    assert.ok(v.rows.length > 0);
    assert.deepEqual([...new Set(v.rows.map((r) => [r.state, r.why].join(": ")))], ["cancelled: cancelled by user"]);
    const json = runViewJson(v);
    assert.equal(json["state"], "cancelled");
    assert.deepEqual(json["cancelled"], { cancelled_at: "2026-01-02T03:30:00.000Z", jobs: [] });
  });
});
