import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jobsCommand } from "../../../src/cli/commands/jobs.ts";
import { parseArgs } from "../../../src/cli/flags.ts";

const parse = (argv: string[], env: Record<string, string> = {}) =>
  jobsCommand.parse(parseArgs("jobs", jobsCommand.args, argv), env);

describe("jobs: parse", () => {
  it("defaults to every live job, with their details, on the environment's backend", () => {
    assert.deepEqual(parse([]), { name: undefined, namesOnly: false, mode: "slurm", cluster: "", json: false });
    assert.deepEqual(parse(["--names", "--json"], { AUTORESEARCH_COMPUTE: "local" }), {
      name: undefined,
      namesOnly: true,
      mode: "local",
      cluster: "",
      json: true,
    });
  });

  it("takes one job's name, never an empty one", () => {
    assert.equal(parse(["--name", "ol-r1-wake"]).name, "ol-r1-wake");
    assert.throws(() => parse(["--name", ""]), /--name/);
  });
});
