import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { JobSpec } from "../../src/compute/job_spec.ts";
import { LaneRefusedError } from "../../src/compute/errors.ts";
import { cli } from "../helpers/cli.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { assertRefused } from "../helpers/refused.ts";
import { tempDir } from "../helpers/temp.ts";

const ACCOUNT = "Invalid account or account/partition combination specified";

/** A scheduler that refuses every submission naming `account` or `partition` as sbatch does. */
class Refusing extends FakeCompute {
  constructor(readonly bad: { account?: string; partition?: string }) {
    super();
  }
  #check(spec: JobSpec): void {
    if (spec.account === this.bad.account) {
      throw new LaneRefusedError(
        `sbatch failed (1): sbatch: error: Batch job submission failed: ${ACCOUNT}`,
        "account",
        ACCOUNT,
      );
    }
    if (spec.partition === this.bad.partition) {
      const words = "Invalid partition name specified";
      throw new LaneRefusedError(`sbatch failed (1): ${words}`, "partition", words);
    }
  }
  override async submit(spec: JobSpec): Promise<string> {
    this.#check(spec);
    return await super.submit(spec);
  }
  override async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    this.#check(spec);
    return await super.submitArray(spec, tasks, throttle);
  }
}

function setUp() {
  const { repo } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
  const contract = join(tempDir("refusal-contract-"), "c.json");
  writeFileSync(contract, JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize" }));
  const runDir = join(tempDir("refusal-"), "r1");
  const args = ["measure", "--compute", "slurm", "--repo", repo, "--base", "main~1", "--candidate", "main"];
  return { runDir, args: [...args, "--contract", contract, "--run-dir", runDir] };
}

describe("a fresh run's first submission refused for its account or partition", () => {
  it("is bad input naming the flag; nothing is frozen, and the same run dir takes the right account", async () => {
    const { runDir, args } = setUp();
    const r = await cli([...args, "--account", "nosuchacct"], { compute: new Refusing({ account: "nosuchacct" }) });
    assertRefused(
      r,
      /^outerloop: error: --account "nosuchacct" was refused by the scheduler \(Invalid account .*\): nothing of the run was kept or submitted; run the same command with the right --account \(or OUTERLOOP_ACCOUNT\) on the same --run-dir/,
    );
    assert.deepEqual(readdirSync(runDir), []);
    const json = await cli([...args, "--account", "nosuchacct", "--json"], {
      compute: new Refusing({ account: "nosuchacct" }),
    });
    assertRefused(json, /--account "nosuchacct" was refused/);
    const good = await cli([...args, "--account", "acct_a"], { compute: new Refusing({ account: "nosuchacct" }) });
    assert.equal(good.code, 75, good.stderr);
    assert.equal(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).account, "acct_a");
  });

  it("names --partition, or the variable it came from", async () => {
    const { runDir, args } = setUp();
    const r = await cli(args, {
      compute: new Refusing({ partition: "nopart" }),
      env: { OUTERLOOP_PARTITION: "nopart" },
    });
    assertRefused(r, /--partition "nopart" was refused .*--partition \(or OUTERLOOP_PARTITION\).*"sinfo -s"/);
    assert.equal(existsSync(join(runDir, "run.json")), false);
  });

  it("stays a scheduler refusal (exit 4) on a run already frozen: its jobs may be out", async () => {
    const { runDir, args } = setUp();
    assert.equal((await cli([...args, "--account", "a"])).code, 75);
    // the account was withdrawn meanwhile: the same measure again meets the refusal on its next submission
    const compute = new Refusing({ account: "a" });
    const r = await cli(["resume", runDir], { compute });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /Invalid account/);
    assert.equal(existsSync(join(runDir, "run.json")), true);
  });
});
