/**
 * The rule that decides whether the live GE suite runs, is skipped, or
 * fails: CI (OUTERLOOP_REQUIRE_GE=1) must never turn a missing cell into a
 * green run. Runs without a cell.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { decideGe, HOW_TO_RUN_GE } from "../helpers/ge_live.ts";

const has = (...paths: string[]) => (p: string) => paths.includes(p);

it("decideGe() runs the suite against a directory holding the testbed's recorded qmaster pid", () => {
  assert.deepEqual(decideGe({ OUTERLOOP_GE_TESTBED: "/tmp/getb" }, has("/tmp/getb/run/qmaster.pid")), {
    kind: "run",
    dir: "/tmp/getb",
  });
});

it("decideGe() skips, saying why, when no testbed is named or the named one is not there", () => {
  assert.deepEqual(decideGe({}, has()), { kind: "skip", why: "OUTERLOOP_GE_TESTBED is not set" });
  const missing = decideGe({ OUTERLOOP_GE_TESTBED: "/tmp/none" }, has());
  assert.equal(missing.kind, "skip");
  assert.match(missing.kind === "skip" ? missing.why : "", /"\/tmp\/none\/run\/qmaster\.pid"/);
});

it("decideGe() fails instead of skipping when OUTERLOOP_REQUIRE_GE=1 and the testbed is missing", () => {
  for (const env of [{ OUTERLOOP_REQUIRE_GE: "1" }, { OUTERLOOP_REQUIRE_GE: "1", OUTERLOOP_GE_TESTBED: "/x" }]) {
    const decision = decideGe(env, has());
    assert.equal(decision.kind, "fail");
    assert.ok(decision.kind === "fail" && decision.why.includes(HOW_TO_RUN_GE), JSON.stringify(decision));
  }
});
