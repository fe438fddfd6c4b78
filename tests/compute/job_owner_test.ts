import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { LiveJob } from "../../src/compute/compute.ts";
import { runsFrom } from "../../src/compute/job_owner.ts";
import { tempDir } from "../helpers/temp.ts";

const job = (script: string) => ({ script } as unknown as LiveJob);

describe("runsFrom()", () => {
  const root = tempDir("job-owner-");
  const run = join(root, "r1");
  mkdirSync(join(run, "eval-baseline"), { recursive: true });
  writeFileSync(join(run, "eval-baseline", "job.sh"), "");

  it("a job whose script lies in the run dir is the run's; one in a sibling dir with a shared prefix is not", () => {
    assert.equal(runsFrom(job(join(run, "eval-baseline", "job.sh")), run), true);
    assert.equal(runsFrom(job(join(root, "r10", "eval-baseline", "job.sh")), run), false);
    assert.equal(runsFrom(job(join(run, "eval-baseline", "job.sh")), run + "/"), true);
  });

  it("matches through a symlink to the run dir", () => {
    const link = join(root, "link");
    symlinkSync(run, link);
    assert.equal(runsFrom(job(join(link, "eval-baseline", "job.sh")), run), true);
  });

  it("counts a job whose script the backend does not say (a --wrap job) as in it", () => {
    assert.equal(runsFrom(job(""), run), true);
  });
});
