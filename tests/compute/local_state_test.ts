import assert from "node:assert/strict";
import { existsSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { localStateDir, persistState, readState } from "../../src/compute/local_state.ts";
import { tempDir } from "../helpers/temp.ts";

describe("localStateDir()", () => {
  it("is local_jobs under AUTORESEARCH_ROOT, or nowhere without a root", () => {
    assert.equal(localStateDir({ AUTORESEARCH_ROOT: "/srv/ar" }), "/srv/ar/local_jobs");
    assert.equal(localStateDir({ AUTORESEARCH_ROOT: "  " }), null);
    assert.equal(localStateDir({}), null);
  });
});

describe("persistState() and readState()", () => {
  it('records a job\'s terminal state for another process to read; none is ""', () => {
    const dir = join(tempDir("local-state-"), "local_jobs");
    assert.equal(readState(dir, "7"), "");
    persistState(dir, "7", "COMPLETED");
    assert.equal(readState(dir, "7"), "COMPLETED");
    persistState(dir, "7", "FAILED");
    assert.equal(readState(dir, "7"), "FAILED");
  });

  it("prunes entries older than a day as it writes", () => {
    const dir = join(tempDir("local-state-"), "local_jobs");
    const now = Date.now();
    persistState(dir, "1", "COMPLETED", now);
    const old = (now - 25 * 3600 * 1000) / 1000;
    utimesSync(join(dir, "1"), old, old);
    persistState(dir, "2", "COMPLETED", now);
    assert.equal(existsSync(join(dir, "1")), false);
    assert.equal(readState(dir, "2"), "COMPLETED");
  });
});
