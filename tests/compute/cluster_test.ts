import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkCluster, withCluster } from "../../src/compute/cluster.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { BadInputError } from "../../src/errors.ts";
import { exited } from "../helpers/proc.ts";

describe("checkCluster()", () => {
  it("takes one cluster's name, and none", () => {
    assert.equal(checkCluster("--clusters", "gpu-east"), "gpu-east");
    assert.equal(checkCluster("SLURM_CLUSTERS", ""), "");
  });

  it("refuses several clusters and all, saying why one: the wake's dependency cannot cross clusters", () => {
    for (const v of ["a,b", "all", "ALL"]) {
      assert.throws(
        () => checkCluster("--clusters", v),
        (e: Error) =>
          e instanceof BadInputError &&
          e.message.startsWith(`Invalid --clusters ${JSON.stringify(v)}: outerloop works`) &&
          e.message.includes("a dependency cannot cross clusters"),
      );
    }
    assert.throws(
      () => checkCluster("SLURM_CLUSTERS", "a b"),
      /^BadInputError: Invalid SLURM_CLUSTERS "a b": it contains white space/,
    );
  });
});

describe("withCluster()", () => {
  it("puts -M after the name of every Slurm client that takes it, and nowhere else", () => {
    assert.deepEqual(withCluster(["squeue", "--me"], "c1"), ["squeue", "-M", "c1", "--me"]);
    assert.deepEqual(withCluster(["sacctmgr", "show", "qos"], "c1"), ["sacctmgr", "show", "qos"]);
    assert.deepEqual(withCluster(["id", "-un"], "c1"), ["id", "-un"]);
    assert.deepEqual(withCluster(["sbatch", "x"], ""), ["sbatch", "x"]);
  });
});

describe("SlurmCompute on a named cluster", () => {
  it("names the cluster on every scheduler command of every verb", async () => {
    const calls: string[][] = [];
    const runner: Runner = (argv) => {
      calls.push([...argv]);
      return Promise.resolve(exited(0, argv[0] === "sbatch" ? "77;c1\n" : ""));
    };
    const c = new SlurmCompute({ runner, cluster: "c1", sleep: async () => {}, random: () => 0.5 });
    const spec = { jobName: "j", account: "a", partition: "", timeMinutes: 1, command: "true" };
    assert.equal(await c.submit(spec), "77");
    assert.equal(await c.submitArray(spec, 3), "77");
    await c.status("77");
    await c.statuses(["77", "78_1"]);
    await c.activeJobs();
    await c.jobIdForName("j");
    await c.findSubmitted("j", new Date());
    await c.cancel("77");
    await c.cancelMany(["77", "78"]);
    await c.usage(["77"]);
    await c.pendingReason("77");
    const verbs = new Set(calls.map((a) => a[0]));
    for (const v of ["sbatch", "squeue", "sacct", "scancel"]) assert.ok(verbs.has(v), `${v} was called`);
    for (const argv of calls) assert.deepEqual(argv.slice(0, 3), [argv[0], "-M", "c1"], argv.join(" "));
  });
});
