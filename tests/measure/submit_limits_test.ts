/** At a site's submit limit (submit_limits.ts): sized to the room, the rest waiting, never twice. */
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { readRoomNote, ROOM_NOTE } from "../../src/dispatch/room_note.ts";
import { LimitedCompute, look, setup, submissionsPerScript } from "../helpers/arrays_measurer.ts";
import { pendingOf } from "../helpers/pending.ts";

describe("dispatch at a submit limit", () => {
  it("at a submit limit sends what fits less one for the wake, notes what waits, and sends the rest on a later pass", async () => {
    const compute = new LimitedCompute(10);
    const { root, measurer, again } = setup(compute);
    const measures = look(12);
    const first = await pendingOf(measurer.results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9], "24 refused whole, then 10 − 1 for the wake");
    assert.deepEqual(first.jobIds, ["1000"]);
    assert.deepEqual(
      { ...readRoomNote(root), at: "" },
      { limit: "MaxSubmitJobs=10 (acct_lim)", waiting: 15, at: "" },
    );
    // the first nine end; the site has room for ten again
    compute.capacity = 10;
    compute.room = { jobs: 10, limit: "MaxSubmitJobs=10 (acct_lim)" };
    compute.states = new Map(Array.from({ length: 9 }, (_, t) => [`1000_${t}`, "COMPLETED"]));
    for (const x of measures.slice(0, 9)) {
      const dir = measurer.evalDir(x);
      writeFileSync(join(dir, EVAL_FILES.result), '{"score": 1}');
      writeFileSync(join(dir, EVAL_FILES.exitCode), "0");
    }
    await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9, 9], "nine more");
    compute.capacity = 10;
    compute.room = { jobs: 10, limit: "MaxSubmitJobs=10 (acct_lim)" };
    await pendingOf(again().results(measures));
    assert.deepEqual(compute.arrays.map((a) => a.tasks), [9, 9, 6], "the last six: all 24 sent");
    assert.equal(existsSync(join(root, ROOM_NOTE)), false, "nothing waits: the note is gone");
    assert.ok([...submissionsPerScript(compute).values()].every((n) => n === 1), "never a measure twice");
    assert.equal(submissionsPerScript(compute).size, 24);
  });

  it("sends nothing and parks when the room cannot be known, keeping every measure for a later pass", async () => {
    const compute = new LimitedCompute(0);
    compute.room = new Error("sacctmgr: connect failure");
    const { root, measurer } = setup(compute);
    const pending = await pendingOf(measurer.results(look(3)));
    assert.deepEqual(pending.jobIds, []);
    assert.equal(compute.arrays.length, 0);
    assert.equal(readRoomNote(root)?.waiting, 6);
  });
});
