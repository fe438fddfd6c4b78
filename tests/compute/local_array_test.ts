import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { InvalidJobIdError } from "../../src/compute/compute.ts";
import { LocalCompute } from "../../src/compute/local.ts";
import { GONE } from "../../src/compute/states.ts";

const base = { jobName: "arr", account: "", partition: "", timeMinutes: 1 };

describe("LocalCompute arrays", () => {
  it("runs the tasks one after the other, each with its SLURM_ARRAY_* set, and names them A_T", async () => {
    const dir = tempDir("local-array-");
    const log = join(dir, "order.log");
    const script = join(dir, "task.sh");
    writeFileSync(
      script,
      `echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX ` +
        `$OUTERLOOP_JOB_ID" >> ${log}\n` +
        `echo "out of $SLURM_ARRAY_TASK_ID"\n[ "$SLURM_ARRAY_TASK_ID" != 2 ]\n`,
    );
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin", SLURM_ARRAY_TASK_ID: "99" } });
    const arrayId = await c.submitArray({ ...base, script, output: join(dir, "out-%A_%a.log") }, 4, 2);
    assert.match(arrayId, /^[0-9]+$/);
    // all four ran before submitArray resolved, in order, none seeing the submitter's own SLURM_* variables
    assert.deepEqual(
      readFileSync(log, "utf8").trim().split("\n"),
      [0, 1, 2, 3].map((t) => `${arrayId} ${t} 4 0 3 ${arrayId}_${t}`),
    );
    assert.equal(readFileSync(join(dir, `out-${arrayId}_3.log`), "utf8"), "out of 3\n");
    const tasks = [0, 1, 2, 3].map((t) => `${arrayId}_${t}`);
    assert.deepEqual([...await c.statuses(tasks)], tasks.map((t, i) => [t, i === 2 ? "FAILED" : "COMPLETED"]));
    assert.equal(await c.status(`${arrayId}_2`), "FAILED");
    assert.equal(await c.status(arrayId), GONE, "the array id is no job of its own");
    const u = await c.usage([tasks[1]!, arrayId]);
    assert.deepEqual([...u.keys()], [tasks[1]]);
    assert.equal(u.get(tasks[1]!)!.timelimitS, 60);
    await c.cancelMany(tasks); // all over already: nothing to do, no error
    assert.equal((await c.activeJobs()).size, 0);
  });

  it("persists each task's state for another process's LocalCompute", async () => {
    const root = tempDir("local-array-root-");
    const env = { PATH: "/usr/bin:/bin", AUTORESEARCH_ROOT: root };
    const arrayId = await new LocalCompute({ env }).submitArray({ ...base, command: "exit $SLURM_ARRAY_TASK_ID" }, 2);
    const other = new LocalCompute({ env });
    assert.equal(await other.status(`${arrayId}_0`), "COMPLETED");
    assert.equal(await other.status(`${arrayId}_1`), "FAILED");
  });

  it("has no array cap and no submit limit, and refuses what Slurm's backend refuses", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
    assert.equal(await c.maxArraySize(), Infinity);
    assert.equal(await c.submitRoom(), null);
    await assert.rejects(c.submitArray({ ...base, command: "true" }, 0), RangeError);
    await assert.rejects(c.submitArray({ ...base, command: "true" }, 2, 0), RangeError);
    await assert.rejects(c.status("1_x"), InvalidJobIdError);
    await assert.rejects(c.statuses(["../1"]), InvalidJobIdError);
  });
});
