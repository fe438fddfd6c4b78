import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { minEffectLine } from "../../src/report/layout.ts";
import { linearScale } from "../../src/report/scale.ts";
import { MIN_EFFECT_LEGEND, thresholdMarks, thresholdTick } from "../../src/report/svg_threshold.ts";

const AREA = { left: 100, right: 500, top: 40, bottom: 240 };
const xs = linearScale([-4, 4], [AREA.left, AREA.right]);

describe("thresholdMarks()", () => {
  it("maximizing along x: a dashed line at +min_effect and the side right of it shaded", () => {
    const m = thresholdMarks(minEffectLine("maximize", 1, xs), AREA, "x");
    assert.equal(
      m.shade,
      '<rect class="accept-side" x="350" y="40" width="150" height="200" fill="#1a7f37" fill-opacity="0.08"/>',
    );
    assert.match(
      m.line,
      /^<line x1="350" y1="34" x2="350" y2="240" stroke="#1a7f37" stroke-width="2" stroke-dasharray="6 4" class="min-effect"\/>/,
    );
    assert.match(m.line, />min_effect \+1<\/text>$/);
  });

  it("minimizing: the line at −min_effect and the side left of it shaded", () => {
    const m = thresholdMarks(minEffectLine("minimize", 1, xs), AREA, "x");
    assert.match(m.shade, /x="100" y="40" width="150"/);
    assert.match(m.line, />min_effect -1<\/text>$/);
  });

  it("along y, a horizontal line; a relative min_effect is labelled as written beside its value", () => {
    const ys = linearScale([-4, 4], [AREA.bottom, AREA.top]);
    const m = thresholdMarks(minEffectLine("maximize", 0.0236, ys), AREA, "y", "2%");
    assert.match(m.line, /^<line x1="100" y1="[\d.]+" x2="500"/);
    assert.match(m.line, />min_effect 2% ≈ \+0\.0236<\/text>$/);
  });
});

describe("thresholdTick() and the legend", () => {
  it("a short dashed tick for one run, the same dash as the line", () => {
    assert.equal(
      thresholdTick(10, 20, 30),
      '<line x1="10" y1="30" x2="20" y2="30" stroke="#1a7f37" stroke-width="2" stroke-dasharray="6 4" class="min-effect"/>',
    );
    assert.match(
      MIN_EFFECT_LEGEND,
      /stroke-dasharray="6 4"\/><\/svg>min_effect: the shaded side improves by more than it<\/li>$/,
    );
  });
});
