/**
 * The rule that decides whether the live Slurm suite runs, is skipped, or
 * fails: CI (OUTERLOOP_REQUIRE_SLURM=1) must never turn a missing cluster
 * into a green run. Runs without a cluster.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { decideLive, HOW_TO_RUN } from "../helpers/slurm_live.ts";

const has = (...paths: string[]) => (p: string) => paths.includes(p);

it("decideLive() runs the suite against a directory holding etc/slurm.conf", () => {
  assert.deepEqual(decideLive({ OUTERLOOP_SLURM_TESTBED: "/tmp/tb" }, has("/tmp/tb/etc/slurm.conf")), {
    kind: "run",
    dir: "/tmp/tb",
    conf: "/tmp/tb/etc/slurm.conf",
  });
});

it("decideLive() skips, saying why, when no testbed is named or the named one is not there", () => {
  assert.deepEqual(decideLive({}, has()), { kind: "skip", why: "OUTERLOOP_SLURM_TESTBED is not set" });
  const missing = decideLive({ OUTERLOOP_SLURM_TESTBED: "/tmp/none" }, has());
  assert.equal(missing.kind, "skip");
  assert.match(missing.kind === "skip" ? missing.why : "", /"\/tmp\/none\/etc\/slurm\.conf"/);
});

it("decideLive() fails instead of skipping when OUTERLOOP_REQUIRE_SLURM=1 and the testbed is missing", () => {
  for (
    const env of [{ OUTERLOOP_REQUIRE_SLURM: "1" }, { OUTERLOOP_REQUIRE_SLURM: "1", OUTERLOOP_SLURM_TESTBED: "/x" }]
  ) {
    const decision = decideLive(env, has());
    assert.equal(decision.kind, "fail");
    assert.ok(decision.kind === "fail" && decision.why.includes(HOW_TO_RUN), JSON.stringify(decision));
  }
});

it("decideLive() runs when OUTERLOOP_REQUIRE_SLURM=1 and the testbed is there", () => {
  const env = { OUTERLOOP_REQUIRE_SLURM: "1", OUTERLOOP_SLURM_TESTBED: "/tmp/tb" };
  assert.equal(decideLive(env, has("/tmp/tb/etc/slurm.conf")).kind, "run");
});
