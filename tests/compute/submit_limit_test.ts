import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LaneRefusedError, SlurmError, SubmitLimitError } from "../../src/compute/errors.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { submitLimitOf } from "../../src/compute/submit_limit.ts";
import { classifyFailure } from "../../src/compute/transient.ts";
import { exited } from "../helpers/proc.ts";
import { slurmFixture } from "./_slurm_fixtures.ts";

const POLICY =
  "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";

describe("submitLimitOf()", () => {
  it("names the submit limit of every refusal sbatch printed on the testbed", () => {
    const seen: Record<string, string> = {
      "sbatch-assoc-max-submit.stderr": "AssocMaxSubmitJobLimit",
      "sbatch-assoc-grp-submit.stderr": "AssocGrpSubmitJobsLimit",
      "sbatch-qos-max-submit-pu.stderr": "QOSMaxSubmitJobPerUserLimit",
      "sbatch-qos-max-submit-pa.stderr": "MaxSubmitJobsPerAccount",
      "sbatch-qos-grp-submit.stderr": "QOSGrpSubmitJobsLimit",
    };
    for (const [file, limit] of Object.entries(seen)) {
      const stderr = slurmFixture(file);
      assert.equal(submitLimitOf(stderr), limit, file);
      // a refusal like any other for the retry rule: never tried again in a loop
      assert.equal(classifyFailure(exited(1, "", stderr)), "final", file);
    }
  });

  it("counts the policy text alone, and any text naming MaxSubmitJobs, as a submit limit", () => {
    assert.equal(submitLimitOf(POLICY), "Job violates accounting/QOS policy (job submit limit)");
    assert.equal(submitLimitOf(`${POLICY}\n`), "Job violates accounting/QOS policy (job submit limit)");
    assert.equal(submitLimitOf("sbatch: error: MaxSubmitJobs limit reached for user alice"), "MaxSubmitJobs");
    assert.equal(submitLimitOf(`sbatch: error: AssocMaxSubmitJobLimit\n${POLICY}`), "AssocMaxSubmitJobLimit");
  });

  it("does not count the same policy text after another limit's reason (a DenyOnLimit MaxWall), nor other refusals", () => {
    assert.equal(submitLimitOf(slurmFixture("sbatch-qos-max-wall-deny.stderr")), null);
    for (
      const other of [
        "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified",
        slurmFixture("sbatch-array-index-too-big.stderr"),
        "sbatch: error: Batch job submission failed: Socket timed out on send/recv operation",
        "",
      ]
    ) {
      assert.equal(submitLimitOf(other), null, other);
    }
  });
});

describe("SlurmCompute and a submit limit", () => {
  const spec = { jobName: "eval-x", account: "acct_lim", partition: "", timeMinutes: 1, script: "/r/job.sh" };
  const instant = { sleep: async () => {}, random: () => 0.5 };
  const refusing = (stderr: string) => {
    const calls: string[][] = [];
    const runner: Runner = (argv) => {
      calls.push([...argv]);
      return Promise.resolve(exited(1, "", stderr));
    };
    return { calls, compute: new SlurmCompute({ runner, ...instant }) };
  };

  it("rejects submit and submitArray with a SubmitLimitError after ONE sbatch", async () => {
    for (const verb of ["submit", "submitArray"] as const) {
      const { calls, compute } = refusing(slurmFixture("sbatch-assoc-max-submit.stderr"));
      const p = verb === "submit" ? compute.submit(spec) : compute.submitArray(spec, 11);
      await assert.rejects(p, (e: unknown) => {
        assert.ok(e instanceof SubmitLimitError && e instanceof SlurmError, String(e));
        assert.equal(e.limit, "AssocMaxSubmitJobLimit");
        assert.equal(e.exit, "scheduler");
        assert.match(e.message, /^sbatch was refused by a submit limit \(AssocMaxSubmitJobLimit\): failed \(1\): /);
        return true;
      });
      assert.equal(calls.length, 1, verb);
    }
  });

  it("keeps a DenyOnLimit refusal a plain SlurmError, and says to split an array past MaxArraySize", async () => {
    const deny = refusing(slurmFixture("sbatch-qos-max-wall-deny.stderr"));
    await assert.rejects(
      deny.compute.submit(spec),
      (e: unknown) => e instanceof SlurmError && !(e instanceof SubmitLimitError),
    );
    const big = refusing(slurmFixture("sbatch-array-index-too-big.stderr"));
    await assert.rejects(
      big.compute.submitArray(spec, 11),
      (e: unknown) =>
        e instanceof SlurmError && !(e instanceof SubmitLimitError) && /split it with arrayChunks/.test(e.message),
    );
    assert.equal(big.calls.length, 1);
  });

  it("rejects with a LaneRefusedError naming the account, partition or QOS sbatch does not know", async () => {
    const cases: [string, "account" | "partition" | "qos"][] = [
      ["Invalid account or account/partition combination specified", "account"],
      ["Invalid partition name specified", "partition"],
      ["Invalid qos specification", "qos"],
    ];
    for (const [words, lane] of cases) {
      const { calls, compute } = refusing(`sbatch: error: Batch job submission failed: ${words}\n`);
      await assert.rejects(compute.submitArray(spec, 2), (e: unknown) => {
        assert.ok(e instanceof LaneRefusedError, String(e));
        assert.deepEqual([e.lane, e.words, e.exit], [lane, words, "scheduler"]);
        return true;
      });
      assert.equal(calls.length, 1, words);
    }
  });
});
