import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rowsFrame, seriesFrame } from "../../src/report/chart_frames.ts";

describe("rowsFrame()", () => {
  it("one row per label top to bottom, and an axis covering the values and what must be shown", () => {
    const f = rowsFrame({ labels: ["a", "b", "c"], rowTitle: "pair", xTitle: "x", values: [1, 2], include: [0, 5] });
    assert.ok(f.rowY(0) < f.rowY(1) && f.rowY(1) < f.rowY(2));
    assert.ok(f.rowY(0) > f.area.top && f.rowY(2) < f.area.bottom);
    assert.ok(f.xTicks.domain[0] <= 0 && f.xTicks.domain[1] >= 5, `domain ${f.xTicks.domain}`);
    assert.equal(f.width, 640);
    assert.match(f.axes, /class="axis row-axis"/);
    assert.match(f.axes, /class="axis x-axis"/);
  });

  it("never makes one row a flat strip, and grows with the rows", () => {
    const one = rowsFrame({ labels: ["a"], rowTitle: "pair", xTitle: "x", values: [1] });
    const many = rowsFrame({
      labels: Array.from({ length: 10 }, (_, i) => `pair ${i}`),
      rowTitle: "pair",
      xTitle: "x",
      values: [1],
    });
    assert.ok(one.area.bottom - one.area.top >= 60);
    assert.ok(many.height > one.height);
  });

  it("cuts a long label with an ellipsis, so it cannot squeeze the plot away", () => {
    const f = rowsFrame({ labels: ["x".repeat(100)], rowTitle: "pair", xTitle: "x", values: [1] });
    assert.match(f.axes, new RegExp(`>${"x".repeat(27)}…<`));
    assert.ok(f.area.left <= 240);
  });
});

describe("seriesFrame()", () => {
  it("runs 1..count across with whole-number ticks inside them, half a run of room at each end", () => {
    const f = seriesFrame({ count: 4, xTitle: "run", yTitle: "y", values: [1, 3] });
    assert.deepEqual(f.xTicks.values, [1, 2, 3, 4]);
    assert.equal(f.xs(0.5), f.area.left);
    assert.equal(f.xs(4.5), f.area.right);
    assert.ok(f.ys(3) < f.ys(1), "higher values sit higher");
  });

  it("widens with the runs, up to a limit", () => {
    assert.equal(seriesFrame({ count: 3, xTitle: "r", yTitle: "y", values: [1] }).width, 640);
    assert.equal(seriesFrame({ count: 1000, xTitle: "r", yTitle: "y", values: [1] }).width, 1100);
  });
});
