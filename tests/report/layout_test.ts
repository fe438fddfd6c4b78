import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bandCenter, labelAnchor, minEffectLine, placePoint, plotArea, px } from "../../src/report/layout.ts";
import { clamp, linearScale, paddedDomain } from "../../src/report/scale.ts";
import { formatTick, niceStep, niceTicks } from "../../src/report/ticks.ts";

describe("paddedDomain()", () => {
  it("pads the extent by 5% of the span on each side by default", () => {
    assert.deepEqual(paddedDomain([0, 10]), [-0.5, 10.5]);
    assert.deepEqual(paddedDomain([2, 4, 3], { padding: 0.5 }), [1, 5]);
  });

  it("takes in the values of `include` (zero, the min_effect line)", () => {
    assert.deepEqual(paddedDomain([5, 6], { include: [0], padding: 0 }), [0, 6]);
  });

  it("gives equal values a width of 10% of their size on each side, and 0 a width of 1", () => {
    assert.deepEqual(paddedDomain([7, 7, 7]), [6.3, 7.7]);
    assert.deepEqual(paddedDomain([-50]), [-55, -45]);
    assert.deepEqual(paddedDomain([0, 0]), [-1, 1]);
  });

  it("ignores non-finite values and falls back to [0, 1] when nothing is left", () => {
    assert.deepEqual(paddedDomain([]), [0, 1]);
    assert.deepEqual(paddedDomain([Number.NaN, Number.POSITIVE_INFINITY]), [0, 1]);
    assert.deepEqual(paddedDomain([1, Number.NaN, 3], { padding: 0 }), [1, 3]);
  });

  it("keeps a finite domain at the edge of the number range", () => {
    const [low, high] = paddedDomain([-Number.MAX_VALUE, Number.MAX_VALUE]);
    assert.ok(Number.isFinite(low) && Number.isFinite(high) && low < high);
  });
});

describe("linearScale()", () => {
  it("maps the domain onto the range, inverted ranges included", () => {
    const x = linearScale([0, 10], [100, 200]);
    assert.equal(x(0), 100);
    assert.equal(x(5), 150);
    assert.equal(x(10), 200);
    const y = linearScale([0, 10], [300, 100]);
    assert.equal(y(0), 300);
    assert.equal(y(10), 100);
    assert.deepEqual(y.range, [300, 100]);
  });

  it("maps everything to the middle of the range when the domain has no width", () => {
    const x = linearScale([3, 3], [0, 100]);
    assert.equal(x(3), 50);
    assert.equal(x(1e9), 50);
  });

  it("works at tiny and huge magnitudes", () => {
    assert.ok(Math.abs(linearScale([1e-12, 3e-12], [0, 100])(2e-12) - 50) < 1e-9);
    assert.ok(Math.abs(linearScale([1e15, 3e15], [0, 100])(2e15) - 50) < 1e-9);
  });
});

describe("clamp()", () => {
  it("limits a value to the interval whichever way round it is given", () => {
    assert.equal(clamp(5, 0, 10), 5);
    assert.equal(clamp(-1, 10, 0), 0);
    assert.equal(clamp(11, 10, 0), 10);
  });
});

describe("niceStep() and niceTicks()", () => {
  it("picks 1, 2 or 5 times a power of ten", () => {
    assert.equal(niceStep(10, 5), 2);
    assert.equal(niceStep(1, 5), 0.2);
    assert.equal(niceStep(0.07, 5), 0.01);
    assert.equal(niceStep(3000, 5), 500);
    assert.equal(niceStep(0, 5), 1);
  });

  it("widens the domain to whole steps and lists every tick", () => {
    const t = niceTicks([0.3, 9.6], 5);
    assert.equal(t.step, 2);
    assert.deepEqual(t.domain, [0, 10]);
    assert.deepEqual(t.values, [0, 2, 4, 6, 8, 10]);
  });

  it("gives ticks free of floating-point dust", () => {
    const t = niceTicks([0.1, 0.7], 6);
    assert.deepEqual(t.values, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]);
  });

  it("handles negative domains and domains across zero", () => {
    assert.deepEqual(niceTicks([-9.5, -0.5], 5).values, [-10, -8, -6, -4, -2, 0]);
    assert.deepEqual(niceTicks([-1.2, 0.7], 4).values, [-1.5, -1, -0.5, 0, 0.5, 1]);
  });

  it("keeps integer steps for run numbers", () => {
    const t = niceTicks([1, 3], 10, true);
    assert.equal(t.step, 1);
    assert.deepEqual(t.values, [1, 2, 3]);
  });

  it("stops at the domain's ends when the precision runs out", () => {
    const t = niceTicks([1e20, 1e20 + 1], 5);
    assert.ok(t.values.length <= 21);
  });
});

describe("formatTick()", () => {
  it("shows the digits the step needs", () => {
    assert.equal(formatTick(0.5, 0.5), "0.5");
    assert.equal(formatTick(1, 0.5), "1.0");
    assert.equal(formatTick(0.25, 0.05), "0.25");
    assert.equal(formatTick(200, 50), "200");
    assert.equal(formatTick(-0.002, 0.002), "-0.002");
  });

  it("prints zero as 0, including -0 and float dust", () => {
    assert.equal(formatTick(0, 0.1), "0");
    assert.equal(formatTick(-0, 1), "0");
    assert.equal(formatTick(1e-17, 0.1), "0");
  });

  it("switches to exponent notation for huge and tiny numbers", () => {
    assert.equal(formatTick(1.5e9, 5e8), "1.5e9");
    assert.equal(formatTick(2e9, 5e8), "2e9");
    assert.equal(formatTick(3e-7, 1e-7), "3e-7");
    assert.equal(formatTick(1.2e-6, 2e-7), "1.2e-6");
    assert.equal(formatTick(-4e12, 1e12), "-4e12");
  });
});

describe("plotArea(), bandCenter() and placePoint()", () => {
  const area = plotArea(400, 300, { left: 50, right: 10, top: 20, bottom: 30 });

  it("puts the plot area inside the margins", () => {
    assert.deepEqual(area, { left: 50, right: 390, top: 20, bottom: 270 });
    const tiny = plotArea(10, 10, { left: 50, right: 10, top: 20, bottom: 30 });
    assert.ok(tiny.right > tiny.left && tiny.bottom > tiny.top);
  });

  it("centres rows in equal bands", () => {
    assert.equal(bandCenter(0, 4, 0, 100), 12.5);
    assert.equal(bandCenter(3, 4, 0, 100), 87.5);
    assert.equal(bandCenter(0, 1, 20, 80), 50);
  });

  it("places a point through both scales, rounded to 0.1 px", () => {
    const xs = linearScale([0, 3], [area.left, area.right]);
    const ys = linearScale([0, 1], [area.bottom, area.top]);
    assert.deepEqual(placePoint(1, 0.5, xs, ys, area), { x: px(50 + 340 / 3), y: 145 });
  });

  it("clamps a point off the axes onto the plot area's edge", () => {
    const xs = linearScale([0, 1], [area.left, area.right]);
    const ys = linearScale([0, 1], [area.bottom, area.top]);
    assert.deepEqual(placePoint(-5, 9, xs, ys, area), { x: 50, y: 20 });
  });
});

describe("minEffectLine()", () => {
  const xs = linearScale([-1, 1], [0, 200]);

  it("sits at +min_effect when maximizing, accepting to the right", () => {
    const line = minEffectLine("maximize", 0.5, xs);
    assert.deepEqual(line, { value: 0.5, position: 150, accept: [150, 200] });
  });

  it("sits at -min_effect when minimizing, accepting to the left", () => {
    const line = minEffectLine("minimize", 0.5, xs);
    assert.deepEqual(line, { value: -0.5, position: 50, accept: [0, 50] });
  });

  it("accepts above the line on a vertical axis when maximizing", () => {
    const ys = linearScale([-1, 1], [200, 0]);
    assert.deepEqual(minEffectLine("maximize", 0.5, ys).accept, [0, 50]);
    assert.deepEqual(minEffectLine("minimize", 0.5, ys).accept, [150, 200]);
  });

  it("coincides with zero when min_effect is 0, and stays on the axis when off it", () => {
    assert.equal(minEffectLine("maximize", 0, xs).position, 100);
    assert.equal(minEffectLine("maximize", 5, xs).position, 200);
  });
});

describe("labelAnchor()", () => {
  it("runs a label the preferred way when it fits, else the other way", () => {
    assert.equal(labelAnchor(10, "min_effect +0.5", 0, 400, "start"), "start");
    assert.equal(labelAnchor(390, "min_effect +0.5", 0, 400, "start"), "end");
    assert.equal(labelAnchor(20, "min_effect -0.5", 0, 400, "end"), "start");
  });
});
