import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ProgressWriter } from "../../../src/cli/shared/progress_writer.ts";

function writer(terminal: boolean) {
  const err: string[] = [];
  return { w: new ProgressWriter({ stdout: () => {}, stderr: (t) => void err.push(t) }, terminal), err };
}

describe("ProgressWriter on a terminal", () => {
  it("rewrites one line in place, blanking what a longer last line left, and ends it with a newline", () => {
    const { w, err } = writer(true);
    w.update("waiting: 3 jobs", "a");
    w.update("waiting: 1 job", "b");
    w.end();
    assert.deepEqual(err, ["\rwaiting: 3 jobs", "\rwaiting: 1 job ", "\n"]);
  });

  it("cuts a line too long to rewrite", () => {
    const { w, err } = writer(true);
    w.update("x".repeat(200), "a");
    assert.equal(err[0], `\r${"x".repeat(149)}…`);
  });
});

describe("ProgressWriter elsewhere (a pipe, a file, a Slurm log)", () => {
  it("writes a plain line only when what it says changes", () => {
    const { w, err } = writer(false);
    w.update("waiting: 3 jobs (10s)", "3 jobs");
    w.update("waiting: 3 jobs (20s)", "3 jobs");
    w.update("waiting: 1 job (30s)", "1 job");
    w.end();
    assert.deepEqual(err, ["outerloop: waiting: 3 jobs (10s)\n", "outerloop: waiting: 1 job (30s)\n"]);
  });
});
