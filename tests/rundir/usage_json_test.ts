import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JobUsage } from "../../src/compute/usage.ts";
import { usageFromJson, usageJson, usageSchema } from "../../src/rundir/usage_json.ts";

const U: JobUsage = {
  jobId: "42",
  state: "COMPLETED",
  elapsedS: 61,
  timelimitS: 300,
  maxRssBytes: 1024,
  reqMemBytes: 2048,
  allocCpus: 2,
  totalCpuS: 100,
  cpuEfficiency: 0.82,
};

describe("usageJson(), usageSchema and usageFromJson()", () => {
  it("round-trips a usage through its snake_case form", () => {
    const json = usageJson(U);
    assert.equal(json.max_rss_bytes, 1024);
    assert.deepEqual(usageFromJson(usageSchema().parse(JSON.parse(JSON.stringify(json)))), U);
  });

  it("keeps an unknown figure null, and refuses a negative one or an unknown key", () => {
    assert.equal(usageSchema().parse({ ...usageJson(U), elapsed_s: null }).elapsed_s, null);
    assert.equal(usageSchema().safeParse({ ...usageJson(U), elapsed_s: -1 }).success, false);
    assert.equal(usageSchema().safeParse({ ...usageJson(U), extra: 1 }).success, false);
  });
});
