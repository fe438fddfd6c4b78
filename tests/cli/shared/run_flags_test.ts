import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArgs } from "../../../src/cli/flags.ts";
import { computeFlags } from "../../../src/cli/shared/common.ts";
import { candidateFlag, parseRunRequest, repoFlags, runFlags } from "../../../src/cli/shared/run_flags.ts";
import { BadInputError } from "../../../src/errors.ts";

const FLAGS = { ...repoFlags, ...candidateFlag, ...runFlags, ...computeFlags };
const BASE = ["--repo", "/r", "--base", "main", "--candidate", "c1", "--contract", "c.json", "--run-dir", "/runs/r1"];

function request(extra: string[] = [], env: Record<string, string> = {}) {
  const args = parseArgs("measure", FLAGS, [...BASE, ...extra]);
  return parseRunRequest(args, env, ["c1"]);
}

describe("parseRunRequest()", () => {
  it("takes the flags as given, defaults the rest, resolves nothing beyond paths", () => {
    const r = request();
    assert.deepEqual([r.repo, r.base, r.candidates, r.contract, r.runDir.path], [
      "/r",
      "main",
      ["c1"],
      "c.json",
      "/runs/r1",
    ]);
    assert.deepEqual([r.seed, r.runTag, r.image, r.account, r.arrays, r.arrayThrottle, r.seedCache], [
      undefined,
      undefined,
      "",
      "",
      true,
      null,
      null,
    ]);
    assert.deepEqual(r.raw, BASE);
  });

  it("takes the account, partitions, image, arrays and throttle from OUTERLOOP_* unless a flag says", () => {
    const env = {
      OUTERLOOP_ACCOUNT: "acct",
      OUTERLOOP_PARTITION: "cpu",
      OUTERLOOP_IMAGE: "img.sif",
      OUTERLOOP_ARRAYS: "off",
      OUTERLOOP_ARRAY_THROTTLE: "4",
    };
    const r = request(["--partition", "gpu", "--image="], env);
    assert.deepEqual([r.account, r.partition, r.image, r.arrays, r.arrayThrottle], ["acct", "gpu", "", false, 4]);
  });

  it("takes the one Slurm cluster from --clusters, else SLURM_CLUSTERS, and refuses several or another backend's", () => {
    assert.equal(request().cluster, "");
    assert.equal(request([], { SLURM_CLUSTERS: "east" }).cluster, "east");
    assert.equal(request(["--clusters", "west"], { SLURM_CLUSTERS: "east" }).cluster, "west");
    assert.throws(
      () => request(["--clusters", "a,b"]),
      /^BadInputError: Invalid --clusters "a,b": outerloop works on one/,
    );
    assert.throws(() => request([], { SLURM_CLUSTERS: "all" }), /^BadInputError: Invalid SLURM_CLUSTERS "all"/);
    assert.throws(
      () => request(["--compute", "local", "--clusters", "east"]),
      /^BadInputError: --clusters names a Slurm cluster: it cannot be used with --compute local$/,
    );
    // Slurm's own variable means nothing to another backend
    assert.equal(request(["--compute", "sge"], { SLURM_CLUSTERS: "east" }).cluster, "");
  });

  it("checks the seed, the tag, the throttle and the image's form", () => {
    assert.equal(request(["--seed", "2147483647"]).seed, 2147483647);
    assert.throws(() => request(["--seed", "0"]), BadInputError);
    assert.throws(() => request(["--seed", "2147483648"]), BadInputError);
    assert.throws(() => request(["--run-tag", "a|b"]), /--run-tag/);
    assert.throws(() => request(["--array-throttle", "0"]), /Invalid --array-throttle "0": expected a whole number/);
    assert.throws(
      () => request([], { OUTERLOOP_ARRAY_THROTTLE: "x" }),
      /Invalid OUTERLOOP_ARRAY_THROTTLE "x"/,
    );
    assert.throws(() => request(["--image", "-x"]), /Invalid --image "-x": it would read as an apptainer option/);
    assert.throws(() => request([], { OUTERLOOP_IMAGE: "-x" }), /Invalid OUTERLOOP_IMAGE "-x"/);
  });

  it("resolves the seed cache to an absolute path", () => {
    assert.equal(request(["--seed-cache", "/tmp/x/../cache"]).seedCache, "/tmp/cache");
  });
});
