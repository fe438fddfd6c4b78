import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isStopping, sayOnStop, trackGroup, watchGroups } from "../../src/runtime/live_groups.ts";

// No signal is sent here: under bun every test file shares this process. What a signal does to the
// tracked groups (the stop signal, KILL after the grace, the re-raise) is in the e2e suite, on real
// children (tests/e2e/interrupt_local_test.ts).

describe("trackGroup() and watchGroups()", () => {
  it("a watcher sees the live group leaders now and after every change, until it stops watching", () => {
    const seen: (readonly number[])[] = [];
    const unwatch = watchGroups((pids) => void seen.push(pids));
    const before = seen[0]!;
    const untrackA = trackGroup(999_001);
    const untrackB = trackGroup(999_002, "SIGINT");
    untrackA();
    untrackA(); // twice is once
    untrackB();
    unwatch();
    trackGroup(999_003)();
    assert.deepEqual(seen.map((p) => p.filter((x) => x >= 999_000)), [
      [],
      [999_001],
      [999_001, 999_002],
      [999_002],
      [],
    ]);
    assert.deepEqual(before.filter((x) => x >= 999_000), []);
  });
});

describe("sayOnStop() and isStopping()", () => {
  it("a line registered to say on a stop is removable; nothing stops without a signal", () => {
    const remove = sayOnStop(() => "interrupted: resume with outerloop resume /runs/r1");
    assert.equal(isStopping(), false);
    remove();
    remove();
    assert.equal(isStopping(), false);
  });
});
