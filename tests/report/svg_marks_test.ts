import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  candidateMark,
  clipMark,
  COLORS,
  legendHtml,
  marker,
  type MarkKind,
  MARKS,
  whisker,
} from "../../src/report/svg_marks.ts";

describe("MARKS", () => {
  it("tells the verdicts apart by shape as well as colour", () => {
    const verdicts: MarkKind[] = ["accept", "reject", "inconclusive", "open"];
    const looks = verdicts.map((k) => `${MARKS[k].shape}/${MARKS[k].hollow}`);
    assert.equal(new Set(looks).size, verdicts.length, `shapes: ${looks}`);
    assert.equal(new Set(verdicts.map((k) => MARKS[k].label)).size, verdicts.length);
  });
});

describe("candidateMark()", () => {
  it("is the verdict, or open without one", () => {
    assert.equal(candidateMark("accept"), "accept");
    assert.equal(candidateMark(null), "open");
  });
});

describe("marker()", () => {
  it("draws each shape centred on its point with its tooltip and data attributes, colours as attributes", () => {
    const circle = marker("baseline", 10, 20, { "data-point": "baseline" }, "base <1>");
    assert.match(circle, /^<circle cx="10" cy="20" r="4.5" data-point="baseline" fill="#ffffff" stroke="#57606a"/);
    assert.match(circle, /<title>base &lt;1&gt;<\/title><\/circle>$/);
    assert.match(marker("accept", 10, 20, {}, "t"), /^<path d="M10 14L16 20L10 26L4 20Z"[^>]* fill="#1a7f37"/);
    assert.match(marker("inconclusive", 10, 20, {}, "t"), /^<rect x="6" y="16" width="8" height="8"/);
    assert.match(
      marker("reject", 10, 20, {}, "t"),
      /^<path d="M5 15L15 25M5 25L15 15"[^>]* fill="none" stroke="#cf222e"/,
    );
    assert.match(marker("mean", 10, 20, {}, "t"), /^<path d="M10 12V28"[^>]* stroke-width="3"/);
  });

  it("leaves out an attribute whose value is undefined", () => {
    assert.doesNotMatch(marker("pair", 1, 1, { "data-winner": undefined }, "t"), /data-winner/);
  });
});

describe("legendHtml()", () => {
  it("gives each kind its marker and label, then the further items", () => {
    const html = legendHtml(["accept", "winner"], ["<li>more</li>"]);
    assert.match(html, /^<ul class="legend"><li><svg[^>]*aria-hidden="true">/);
    assert.match(html, /candidate, accepted<\/li>/);
    assert.match(html, /the round&#39;s winner, on its confirmation<\/li><li>more<\/li><\/ul>$/);
  });
});

describe("whisker() and clipMark()", () => {
  it("a whisker's ends read off its path", () => {
    const w = whisker(10, 30.04, 5, COLORS.pair, { "data-min": 1 }, "samples");
    assert.match(w, /class="whisker" data-min="1" d="M10 5H30M10 2V8M30 2V8"/);
  });

  it("a clip mark points off the plot, up or down", () => {
    assert.match(clipMark(50, 10, "up", "#000", {}, "cut"), /d="M45 16L50 8L55 16Z"/);
    assert.match(clipMark(50, 10, "down", "#000", {}, "cut"), /d="M45 4L50 12L55 4Z"/);
  });
});
