/**
 * What the pages say a wake job runs is what it runs: `outerloop resume
 * --wake RUN_DIR` (run/wake.ts), whose exit codes differ from a plain
 * `resume`'s (docs/exit-codes.md).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { quoteCommand } from "../../src/compute/quote.ts";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { submitWake } from "../../src/run/wake.ts";
import { MeasurementPending } from "../../src/measure/pending.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { ROOT } from "../helpers/doc_sandbox.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];

describe("the docs and the wake job", () => {
  it("name the command a wake job runs as it is submitted: resume --wake", async () => {
    const compute = new FakeCompute();
    const dir = new RunDir(join(tempDir("wake-words-"), "r1"));
    dir.create("--run-dir");
    const deps = { self: ["outerloop"], now: Date.now, env: {} };
    await submitWake(compute, runRecordFixture(), dir, new MeasurementPending(["7"], null, []), deps);
    assert.equal(
      withDefaults(compute.submitted[0]!).command,
      quoteCommand(["outerloop", "resume", "--wake", dir.path]),
    );
    for (const page of PAGES) {
      const text = readFileSync(join(ROOT, page), "utf8").replace(/\s+/g, " ");
      for (const m of text.matchAll(/wake job,? (?:which )?runs `outerloop resume[^`]*`/g)) {
        assert.match(m[0], /`outerloop resume --wake\b/, `${page}: ${m[0]}`);
      }
    }
  });
});
