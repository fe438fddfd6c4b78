import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Compute, LiveJob } from "../../src/compute/compute.ts";
import { withListingUntilChange } from "../../src/compute/one_listing.ts";

/** A compute that counts its listings and can be told to fail the next one. */
function countingCompute() {
  const calls = { listings: 0, failNext: false };
  const compute = {
    activeJobs: () => {
      calls.listings++;
      if (calls.failNext) {
        calls.failNext = false;
        return Promise.reject(new Error("squeue: connect failure"));
      }
      return Promise.resolve(new Map<string, LiveJob[]>([["n", []]]));
    },
    submit: () => Promise.resolve("1"),
    submitArray: () => Promise.resolve("2"),
    cancel: () => Promise.resolve(),
    cancelMany: () => Promise.resolve(),
    status: () => Promise.resolve("PENDING"),
  } as unknown as Compute;
  return { calls, compute };
}

describe("withListingUntilChange()", () => {
  it("answers every listing from one squeue while nothing is submitted or cancelled", async () => {
    const { calls, compute } = countingCompute();
    const c = withListingUntilChange(compute);
    await c.activeJobs();
    await c.activeJobs();
    await c.status("5");
    await c.activeJobs();
    assert.equal(calls.listings, 1);
  });

  it("lists again after each verb that changes the queue", async () => {
    const { calls, compute } = countingCompute();
    const c = withListingUntilChange(compute);
    const spec = { jobName: "j", account: "a", partition: "", timeMinutes: 1, mem: "1M", command: "true" };
    await c.activeJobs();
    assert.equal(await c.submit(spec), "1", "the verb's own answer goes through");
    await c.activeJobs();
    await c.submitArray(spec, 2);
    await c.activeJobs();
    await c.cancel("1");
    await c.activeJobs();
    await c.cancelMany(["1"]);
    await c.activeJobs();
    await c.activeJobs();
    assert.equal(calls.listings, 5);
  });

  it("does not remember a failed listing: the next call asks again", async () => {
    const { calls, compute } = countingCompute();
    const c = withListingUntilChange(compute);
    calls.failNext = true;
    await assert.rejects(c.activeJobs(), /connect failure/);
    assert.equal((await c.activeJobs()).size, 1);
    assert.equal(calls.listings, 2);
  });
});
