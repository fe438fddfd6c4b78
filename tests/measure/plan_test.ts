import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { SiblingSpec } from "../../src/measure/measure.ts";
import { siblingEnv } from "../../src/measure/measure.ts";
import { BadNameError } from "../../src/contract/names.ts";
import { noResultNote } from "../../src/measure/notes.ts";
import { MeasurementPending } from "../../src/measure/pending.ts";
import { planMeasures } from "../../src/measure/plan.ts";

// Vectors from the Python reference's plan_measures, _no_result_note and
// MeasurementPending (scripts/identity_vectors.py).
interface PySibling {
  name: string;
  command: string;
  metric: string;
  seed_env: string;
  seed: number;
  gpus: number;
}
interface PlanVector {
  input: {
    command: string;
    metric: string;
    base_sha: string;
    candidate_sha: string;
    seed_env?: string;
    seed?: number;
    gpus?: number;
    siblings: PySibling[];
  };
  measures: { name: string; tree_sha: string; command: string; metric: string; extra_env: string[][]; gpus: number }[];
}
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/identity_vectors.json", import.meta.url), "utf8"),
) as {
  plans: PlanVector[];
  no_result_notes: { job_id: string; state: string; note: string }[];
  pending: { job_ids: string[]; message: string; afterany: string }[];
};

const sib = (name: string, over: Partial<SiblingSpec> = {}): SiblingSpec => ({
  name,
  command: "c",
  metric: "m",
  seedEnv: "S",
  seed: 1,
  gpus: 0,
  ...over,
});

describe("planMeasures() matches the reference's plan_measures", () => {
  for (const [i, v] of fixture.plans.entries()) {
    const names = v.measures.map((m) => m.name).join(", ");
    it(`plans ${names} in the reference's order and env (#${i})`, () => {
      const { input } = v;
      const plan = planMeasures({
        command: input.command,
        metric: input.metric,
        baseSha: input.base_sha,
        candidateSha: input.candidate_sha,
        ...(input.seed_env !== undefined ? { seedEnv: input.seed_env } : {}),
        ...(input.seed !== undefined ? { seed: input.seed } : {}),
        ...(input.gpus !== undefined ? { gpus: input.gpus } : {}),
        siblings: input.siblings.map((s) => sib(s.name, { ...s, seedEnv: s.seed_env })),
      });
      const asPython = plan.map((m) => ({
        name: m.name,
        tree_sha: m.treeSha,
        command: m.command,
        metric: m.metric,
        extra_env: m.extraEnv.map(([k, val]) => [k, val]),
        gpus: m.gpus,
      }));
      assert.deepEqual(asPython, v.measures);
    });
  }

  it("gives each sibling its own seed variable with the shared seed value", () => {
    const plan = planMeasures({
      command: "c",
      metric: "m",
      baseSha: "b",
      candidateSha: "c",
      seedEnv: "SEED",
      seed: 9,
      siblings: [sib("x", { seedEnv: "X_SEED", seed: 9 }), sib("y", { seedEnv: "Y_SEED", seed: 9 })],
    });
    assert.deepEqual(plan.map((m) => [m.name, m.extraEnv]), [
      ["baseline", [["SEED", "9"]]],
      ["candidate", [["SEED", "9"]]],
      ["sib-x-base", [["X_SEED", "9"]]],
      ["sib-x-cand", [["X_SEED", "9"]]],
      ["sib-y-base", [["Y_SEED", "9"]]],
      ["sib-y-cand", [["Y_SEED", "9"]]],
    ]);
  });

  it("injects nothing for a sibling whose seed is the 0 sentinel or whose seed var is empty", () => {
    assert.deepEqual(siblingEnv(sib("a", { seed: 0 })), []);
    assert.deepEqual(siblingEnv(sib("a", { seedEnv: "" })), []);
    assert.deepEqual(siblingEnv(sib("a", { seed: 12 })), [["S", "12"]]);
  });

  it("refuses a seed whose decimal text would differ from Python's str(int)", () => {
    assert.throws(
      () => planMeasures({ command: "c", metric: "m", baseSha: "b", candidateSha: "c", seedEnv: "S", seed: 1.5 }),
      RangeError,
    );
    assert.throws(() => siblingEnv(sib("a", { seed: 1e21 })), /Seed must be an integer, got 1e\+21/);
  });

  it("refuses a sibling listed twice, whose measures would share one result key", () => {
    assert.throws(
      () =>
        planMeasures({ command: "c", metric: "m", baseSha: "b", candidateSha: "c", siblings: [sib("x"), sib("x")] }),
      /Sibling "x" is listed twice/,
    );
  });

  it("refuses a sibling name that would escape the run dir", () => {
    assert.throws(
      () => planMeasures({ command: "c", metric: "m", baseSha: "b", candidateSha: "c", siblings: [sib("../x")] }),
      BadNameError,
    );
  });
});

describe("noResultNote() matches the reference's _no_result_note", () => {
  for (const v of fixture.no_result_notes) {
    it(`explains job ${JSON.stringify(v.job_id)} in state ${JSON.stringify(v.state)}`, () => {
      assert.equal(noResultNote(v.job_id, v.state), v.note);
    });
  }
});

describe("MeasurementPending matches the reference's", () => {
  for (const v of fixture.pending) {
    it(`carries ${v.job_ids.length} id(s) with the reference's message and afterany`, () => {
      const p = new MeasurementPending(v.job_ids);
      assert.ok(p instanceof Error);
      assert.equal(p.name, "MeasurementPending");
      assert.equal(p.message, v.message);
      assert.equal(p.afterany(), v.afterany);
      assert.deepEqual(p.jobIds, v.job_ids);
    });
  }

  it("keeps its own copy of the ids so a caller's later edit cannot change the wake", () => {
    const ids = ["1", "2"];
    const p = new MeasurementPending(ids);
    ids.push("3");
    assert.equal(p.afterany(), "afterany:1:2");
    assert.ok(Object.isFrozen(p.jobIds));
  });

  it("gives Slurm's wake an alternative per watched candidate job: afterany on all, or afternotok on one", () => {
    assert.equal(
      new MeasurementPending(["7", "9"], null, ["7_1", "7_3"]).slurmDependency(),
      "afterany:7:9?afternotok:7_1?afternotok:7_3",
    );
    assert.equal(new MeasurementPending(["7"]).slurmDependency(), "afterany:7");
    assert.equal(new MeasurementPending([], 30, ["7_1"]).slurmDependency(), "", "no id to wait on: a deadline wake");
  });
});
