import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readClimbWarning } from "../../../src/cli/shared/climb.ts";
import { RunDir } from "../../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../../src/rundir/run_record.ts";
import { runRecordFixture } from "../../helpers/run_fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

describe("readClimbWarning()", () => {
  it("reads every readable run, and warns on stderr of each skipped one, naming it", () => {
    const climb = tempDir("climb-warn-");
    const good = new RunDir(join(climb, "r1"));
    mkdirSync(good.path);
    writeRunRecord(good, runRecordFixture({ runTag: "r1" }));
    mkdirSync(join(climb, "r2"));
    writeFileSync(join(climb, "r2", "run.json"), "{ not json");
    const err: string[] = [];
    const runs = readClimbWarning(climb, { stdout: () => {}, stderr: (t) => void err.push(t) });
    assert.deepEqual(runs.map((r) => r.tag), ["r1"]);
    assert.equal(err.length, 1);
    assert.match(err[0]!, new RegExp(`^outerloop: warning: skipping ${join(climb, "r2")}: .+\\n$`));
  });
});
