import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nodeLocalWarnings } from "../../src/run/node_local.ts";

describe("nodeLocalWarnings()", () => {
  it("names in one line each path a scheduled run needs that lies in a node's own /tmp or /dev/shm, and why", () => {
    const w = nodeLocalWarnings({ runDir: "/tmp/runs/r1", repo: "/home/a/repo", program: "/dev/shm/outerloop" });
    assert.deepEqual(w, [
      '--run-dir "/tmp/runs/r1" (the jobs write their results there), this program "/dev/shm/outerloop" (the wake ' +
      "job runs it) are under /tmp and /dev/shm, which on most clusters each node has its own of: the compute nodes " +
      "will not see them; put them on a file system they share (on a cluster that is this one machine, " +
      "OUTERLOOP_ONE_MACHINE=1 says so)",
    ]);
    assert.match(
      nodeLocalWarnings({ runDir: "/tmp/r1", repo: "/home/a/repo", program: "deno" })[0]!,
      /^--run-dir "\/tmp\/r1" \(the jobs write their results there\) is under \/tmp, .* will not see it; put it on/,
    );
  });

  it("says nothing of shared paths, nor of a name that only starts like /tmp", () => {
    assert.deepEqual(nodeLocalWarnings({ runDir: "/scratch/r1", repo: "/tmpfs-not/repo", program: "deno" }), []);
  });

  it("says nothing on a cluster OUTERLOOP_ONE_MACHINE=1 says is one machine", () => {
    const paths = { runDir: "/tmp/r1", repo: "/tmp/repo", program: "/tmp/outerloop" };
    assert.deepEqual(nodeLocalWarnings(paths, { OUTERLOOP_ONE_MACHINE: "1" }), []);
    assert.equal(nodeLocalWarnings(paths, { OUTERLOOP_ONE_MACHINE: "0" }).length, 1);
  });
});
