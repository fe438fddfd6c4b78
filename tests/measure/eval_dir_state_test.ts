import assert from "node:assert/strict";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { EvalDirState } from "../../src/measure/eval_dir_state.ts";
import { tempDir } from "../helpers/temp.ts";

describe("EvalDirState", () => {
  it("reads each file once, when first asked, and remembers it", () => {
    const dir = tempDir("eval-state-");
    writeFileSync(join(dir, EVAL_FILES.submitted), "42\n");
    utimesSync(join(dir, EVAL_FILES.submitted), 1000, 1000);
    const s = new EvalDirState(dir);
    assert.equal(s.marker, "42");
    assert.equal(s.markerMs, 1_000_000);
    assert.equal(s.exitCode, null);
    writeFileSync(join(dir, EVAL_FILES.submitted), "43");
    writeFileSync(join(dir, EVAL_FILES.exitCode), "0");
    assert.equal(s.marker, "42", "remembered, not read again");
    assert.equal(s.exitCode, null, "remembered, not read again");
    assert.equal(s.recheckExitCode(), "0", "read again on purpose: a job that finished meanwhile");
    s.forget();
    assert.equal(s.marker, "43");
  });

  it("reads the history and the provenance, empty when absent", () => {
    const dir = tempDir("eval-state-");
    const s = new EvalDirState(dir);
    assert.deepEqual([s.marker, s.markerMs, s.started, s.retried, s.forgotten, s.provenance], [
      "",
      null,
      false,
      [],
      [],
      null,
    ]);
    writeFileSync(join(dir, "retried"), "1\n2\n");
    writeFileSync(join(dir, EVAL_FILES.provenance), "host=n1\n");
    writeFileSync(join(dir, EVAL_FILES.started), "x");
    s.forget();
    assert.deepEqual([s.retried, s.started, s.provenance?.host], [["1", "2"], true, "n1"]);
  });

  it("takes a marker the pass wrote without reading it back", () => {
    const s = new EvalDirState(tempDir("eval-state-"));
    s.marked("7_1", 5);
    assert.deepEqual([s.marker, s.markerMs], ["7_1", 5]);
  });
});
