import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bottomAxis, leftAxis, rowAxis, svgChart, svgLine, svgText } from "../../src/report/svg_axes.ts";
import { linearScale } from "../../src/report/scale.ts";
import { niceTicks } from "../../src/report/ticks.ts";

const AREA = { left: 60, right: 460, top: 20, bottom: 220 };

describe("svgChart()", () => {
  it("is an accessible image: role, its title and description named, a viewBox", () => {
    const svg = svgChart({ id: "c1", width: 480, height: 260, title: "a <b>", desc: "d & e" }, "<g/>");
    assert.match(svg, /^<svg id="c1" role="img" aria-labelledby="c1-title c1-desc" viewBox="0 0 480 260"/);
    assert.match(svg, /<title id="c1-title">a &lt;b&gt;<\/title><desc id="c1-desc">d &amp; e<\/desc><g\/><\/svg>$/);
  });
});

describe("svgText() and svgLine()", () => {
  it("escape text, round coordinates to a tenth, and leave out what is not asked for", () => {
    assert.equal(svgText(1.234, 5, "x<y"), '<text x="1.2" y="5" text-anchor="start" fill="#24292f">x&lt;y</text>');
    assert.match(svgText(10, 20, "t", { rotate: -90 }), /transform="rotate\(-90 10 20\)"/);
    assert.equal(
      svgLine(0, 1.06, 2, 3, "#000", { class: "k" }),
      '<line x1="0" y1="1.1" x2="2" y2="3" stroke="#000" class="k"/>',
    );
  });
});

describe("bottomAxis() and leftAxis()", () => {
  const ticks = niceTicks([0, 10]);

  it("draw a grid line and a label at each tick, and the axis title", () => {
    const x = bottomAxis(ticks, linearScale(ticks.domain, [AREA.left, AREA.right]), AREA, "pairs");
    assert.match(x, /^<g class="axis x-axis">/);
    assert.equal((x.match(/<text /g) ?? []).length, ticks.values.length + 1);
    assert.match(x, />pairs<\/text><\/g>$/);
    const y = leftAxis(ticks, linearScale(ticks.domain, [AREA.bottom, AREA.top]), AREA, "score");
    assert.match(y, /class="y-title"[^>]*transform="rotate\(-90/);
  });

  it("puts a y title too long for the plot's height along the top instead", () => {
    const y = leftAxis(ticks, linearScale(ticks.domain, [AREA.bottom, AREA.top]), AREA, "m".repeat(200));
    assert.doesNotMatch(y, /class="y-title"[^>]*transform/);
    assert.match(y, /<text class="y-title" x="4" y="12"/);
  });
});

describe("rowAxis()", () => {
  it("labels each row against the plot, with the axis title above", () => {
    const g = rowAxis(["a", "b"], (i) => 50 + 20 * i, AREA, "candidate");
    assert.match(g, /<text x="50" y="54" text-anchor="end" fill="#24292f">a<\/text>/);
    assert.match(g, /<text x="50" y="74" text-anchor="end" fill="#24292f">b<\/text>/);
    assert.match(g, /font-weight="bold">candidate<\/text><\/g>$/);
  });
});
