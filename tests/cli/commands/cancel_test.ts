import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cancelCommand } from "../../../src/cli/commands/cancel.ts";
import { parseArgs } from "../../../src/cli/flags.ts";
import { cli } from "../../helpers/cli.ts";

// Cancelling runs of a climb end to end is in tests/cli/commands/climb_commands_test.ts.

const parse = (argv: string[], env: Record<string, string> = {}) =>
  cancelCommand.parse(parseArgs("cancel", cancelCommand.args, argv), env);

describe("cancel: parse", () => {
  it("reads an argument of digits as a job id, anything else as a run dir", () => {
    assert.deepEqual(parse(["123", "--json"]), {
      target: { kind: "job", jobId: "123" },
      mode: "slurm",
      cluster: "",
      json: true,
    });
    const run = parse(["./123"]);
    assert.equal(run.target.kind, "run");
    assert.match(run.target.kind === "run" ? run.target.dir.path : "", /\/123$/);
  });

  it("takes the backend from --compute, else the environment", () => {
    assert.equal(parse(["1"], { AUTORESEARCH_COMPUTE: "sge" }).mode, "sge");
    assert.equal(parse(["1", "--compute", "local"], { AUTORESEARCH_COMPUTE: "sge" }).mode, "local");
    assert.throws(() => parse(["1", "--compute", "pbs"]), /Invalid --compute "pbs"/);
  });

  it("takes a job's Slurm cluster from --clusters, else SLURM_CLUSTERS, on Slurm only", () => {
    assert.equal(parse(["1", "--clusters", "east"]).cluster, "east");
    assert.equal(parse(["1"], { SLURM_CLUSTERS: "west" }).cluster, "west");
    assert.throws(() => parse(["1", "--compute", "local", "--clusters", "east"]), /--clusters names a Slurm cluster/);
  });
});

describe("cancel: execute", () => {
  it("cancels one job and says so", async () => {
    const r = await cli(["cancel", "77"]);
    assert.deepEqual([r.code, r.stdout], [0, "cancelled 77\n"]);
    const json = await cli(["cancel", "77", "--json"]);
    assert.deepEqual(JSON.parse(json.stdout), { job_id: "77", cancelled: true });
  });
});
