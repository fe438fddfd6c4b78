import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { measureSamples, resultsOnDisk } from "../../src/evaluation/results_on_disk.ts";
import { runPlan } from "../../src/plan/run_plan.ts";
import { readRunRecord } from "../../src/rundir/run_record.ts";
import { fixedCase, samplesAround, seededRun } from "../helpers/seeded_run.ts";
import { tempDir } from "../helpers/temp.ts";

const VALUES = { baseline: 10, candidate: 9, "baseline#2": 11, "candidate#2": 10.1 };

describe("resultsOnDisk()", () => {
  it("reads every finished eval's value, where it ran, and no failure", async () => {
    const { dir } = await seededRun(fixedCase("minimize", VALUES), tempDir("results-"));
    const r = resultsOnDisk(dir, runPlan(readRunRecord(dir)));
    assert.deepEqual(r.values, VALUES);
    assert.deepEqual(r.unreadable, {});
    assert.deepEqual(r.measures.map((m) => m.name), ["baseline", "candidate", "baseline#2", "candidate#2"]);
  });

  it("says why a finished eval's result cannot be read, and leaves its value out", async () => {
    const { dir } = await seededRun(fixedCase("minimize", VALUES), tempDir("results-"));
    const plan = runPlan(readRunRecord(dir));
    // damage candidate#2's result: the reader refuses it
    const before = resultsOnDisk(dir, plan);
    const candDir = readdirSync(dir.path).find((n) => n.startsWith("eval-candidate#2-"))!;
    writeFileSync(join(dir.path, candDir, "result.json"), "not json");
    const after = resultsOnDisk(dir, plan);
    assert.equal(before.values["candidate#2"], 10.1);
    assert.equal(after.values["candidate#2"], undefined);
    assert.match(after.unreadable["candidate#2"]!, /candidate#2/);
  });
});

describe("measureSamples()", () => {
  it("keeps the spread of each measure that reported an array, leaving out plain numbers", async () => {
    const c = fixedCase("minimize", VALUES, { samples: { baseline: samplesAround(10, 0.5), candidate: [9, 8, 10] } });
    const { dir } = await seededRun(c, tempDir("results-"));
    const plan = runPlan(readRunRecord(dir));
    const s = measureSamples(dir, plan.record.image, plan.all.plan);
    assert.deepEqual(Object.keys(s).sort(), ["baseline", "candidate"]);
    assert.deepEqual(s["candidate"], { n: 3, min: 8, median: 9, max: 10 });
  });
});
