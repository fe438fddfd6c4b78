import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseConfig } from "../../src/compute/site_limits.ts";
import { roomUnderLimits } from "../../src/compute/slurm_room.ts";
import { slurmFixture } from "./_slurm_fixtures.ts";

// Through SlurmCompute.submitRoom (the config read once, `id -un`, failures): tests/compute/site_limits_test.ts.

const CONFIG = parseConfig(slurmFixture("scontrol-show-config.txt"));

function ask() {
  const asked: string[][] = [];
  const run = (argv: string[]) => {
    asked.push(argv);
    const line = argv.join(" ");
    if (line.startsWith("scontrol -o show assoc_mgr")) return Promise.resolve(slurmFixture("assoc-mgr.txt"));
    if (line.startsWith("sacctmgr -n -P show assoc")) return Promise.resolve(slurmFixture("sacctmgr-assoc.txt"));
    if (line.startsWith("sacctmgr -n -P show qos")) return Promise.resolve(slurmFixture("sacctmgr-qos.txt"));
    return Promise.reject(new Error(`unexpected ${line}`));
  };
  return { asked, run };
}

describe("roomUnderLimits()", () => {
  it("counts from the controller's association manager, the default QOS and its limits from sacctmgr", async () => {
    const { asked, run } = ask();
    assert.equal((await roomUnderLimits(run, "root", CONFIG, { account: "acct_lim", partition: "" }))?.jobs, 7);
    assert.deepEqual(asked.map((a) => a.slice(0, 5).join(" ")), [
      "scontrol -o show assoc_mgr users=root",
      "sacctmgr -n -P show assoc",
      "sacctmgr -n -P show qos",
    ]);
    assert.ok(asked[1]!.includes("cluster=testbed"), "the association is looked up on the config's cluster");
  });

  it("asks for no default QOS when the target names one", async () => {
    const { asked, run } = ask();
    await roomUnderLimits(run, "root", CONFIG, { account: "acct_a", qos: "normal" });
    assert.deepEqual(asked.map((a) => a[0]), ["scontrol", "sacctmgr"]);
    assert.deepEqual(asked[1]!.slice(4, 6), ["qos", "normal"]);
  });
});
