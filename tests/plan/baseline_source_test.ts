import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readBaselineCache, writeBaselineCache } from "../../src/measure/baseline_cache.ts";
import { type CachedBaseline, cacheNotes, STALE_BASELINE_MS } from "../../src/plan/baseline_source.ts";
import { REFERENCE_CACHE_KEYS } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const SHA = "c".repeat(40);
const NOW = Date.parse("2026-06-01T12:00:00Z");
const cached = (measuredAt: string | null, host: string | null): CachedBaseline => ({
  kind: "value",
  value: 10,
  origin: { measuredAt, host },
});

describe("a cache entry's origin", () => {
  it("is written beside the reference's keys, which keep their order, and read back", () => {
    const dir = tempDir("ol-origin-");
    writeBaselineCache(dir, "b", SHA, {
      value: 1,
      seed: 2,
      runTag: "r",
      origin: { measuredAt: "2026-06-01T11:00:00Z", host: "node7" },
    });
    const data = JSON.parse(readFileSync(join(dir, `b@${SHA}.json`), "utf8"));
    assert.deepEqual(Object.keys(data), [...REFERENCE_CACHE_KEYS, "measured_at", "host"]);
    const entry = readBaselineCache(dir, "b", SHA, {})!;
    assert.equal(entry.data["host"], "node7");
  });

  it("is left out when unknown, so the entry is the reference's key for key", () => {
    const dir = tempDir("ol-origin-");
    writeBaselineCache(dir, "b", SHA, { value: 1, seed: 2, runTag: "r", origin: { measuredAt: null, host: null } });
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(dir, `b@${SHA}.json`), "utf8"))), REFERENCE_CACHE_KEYS);
  });
});

describe("cacheNotes()", () => {
  it("says how old the entry is and where it ran", () => {
    assert.deepEqual(cacheNotes(cached("2026-06-01T11:00:00Z", "node7"), "node7", NOW), [
      'The baseline comes from the cache: measured 60 min ago (2026-06-01T11:00:00Z) on "node7".',
    ]);
  });

  it("warns when it ran on another host than the candidate", () => {
    const notes = cacheNotes(cached("2026-06-01T11:00:00Z", "node7"), "node9", NOW);
    assert.equal(notes.length, 2);
    assert.match(notes[1]!, /^Warning: the cached baseline ran on "node7", the candidate on "node9"/);
  });

  it("warns when it is older than a day", () => {
    const old = new Date(NOW - STALE_BASELINE_MS - 3_600_000).toISOString();
    const notes = cacheNotes(cached(old, "node7"), "node7", NOW);
    assert.match(notes[1]!, /^Warning: the cached baseline is 25 h old/);
  });

  it("warns when the entry does not say (the reference's, or an older outerloop's)", () => {
    const notes = cacheNotes(cached(null, null), "node7", NOW);
    assert.match(notes[0]!, /at an unknown time on an unknown host/);
    assert.match(notes.at(-1)!, /does not say when or where/);
  });

  it("says nothing without a cached baseline", () => {
    assert.deepEqual(cacheNotes({ kind: "none" }, "node7", NOW), []);
  });
});
