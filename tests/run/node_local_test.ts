import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nodeLocalWarnings } from "../../src/run/node_local.ts";

describe("nodeLocalWarnings()", () => {
  it("names each path a scheduled run needs that lies in a node's own /tmp or /dev/shm, and why", () => {
    const w = nodeLocalWarnings({ runDir: "/tmp/runs/r1", repo: "/home/a/repo", program: "/dev/shm/outerloop" });
    assert.deepEqual(w, [
      '--run-dir "/tmp/runs/r1" is under /tmp, which on most clusters each node has its own of: the compute nodes ' +
      "will not see it (the jobs write their results there); put it on a file system they share",
      'this program "/dev/shm/outerloop" is under /dev/shm, which on most clusters each node has its own of: the ' +
      "compute nodes will not see it (the wake job runs it); put it on a file system they share",
    ]);
  });

  it("says nothing of shared paths, nor of a name that only starts like /tmp", () => {
    assert.deepEqual(nodeLocalWarnings({ runDir: "/scratch/r1", repo: "/tmpfs-not/repo", program: "deno" }), []);
  });
});
