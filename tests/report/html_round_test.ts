import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { roundSection } from "../../src/report/html_round.ts";
import { roundSummaryRun } from "../helpers/report_fixtures.ts";

// The whole page of a round (renderRunHtml) is in tests/report/round_report_test.ts; this is its body alone.

describe("roundSection()", () => {
  it("heads the round with its verdict and winner, then the reasons, the candidates and the values", () => {
    const html = roundSection(roundSummaryRun());
    assert.match(
      html,
      /<h1>pi <span class="badge badge-accept">accept<\/span> winner: <code>candidate-2<\/code> \(c2\)<\/h1>/,
    );
    // the measure's name set apart, with its ref: the first candidate's "winner candidate" read as a phrase
    assert.doesNotMatch(html, /winner candidate/);
    assert.match(html, /A round of .* against one baseline: score, higher is better; min_effect/);
    assert.match(html, /<h2>Why<\/h2><ul class="reasons"><li>A round of 3 candidates/);
    const order = ["<h2>Why</h2>", "<h2>Candidates:", "Every candidate of the round", "<h2>Values</h2>"]
      .map((s) => html.indexOf(s));
    assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > order[n - 1]!)), `in order: ${order}`);
    assert.match(html, /candidate-2<\/span> \(winner\)/);
    assert.doesNotMatch(html, /<h2>Siblings<\/h2>/, "no sibling, no siblings table");
  });

  it("says a disputed decision is not the run's verdict, and names a failure", () => {
    const html = roundSection(roundSummaryRun({ disputes: ["values differ"], failure: "baseline <failed>" }));
    assert.match(html, /<p class="failure disputed"><strong>Disputed:<\/strong>.*values differ\. Its verdict is not/);
    assert.match(html, /<strong>Failed:<\/strong> baseline &lt;failed&gt;/);
    assert.match(html, /badge-disputed/);
  });

  it("says so when nothing is measured yet", () => {
    const run = roundSummaryRun({ state: "measuring", verdict: null, values: {}, differences: {}, reasons: [] });
    const html = roundSection({
      ...run,
      round: {
        ...run.round!,
        open: true,
        winner: null,
        arms: run.round!.arms.map((a) => ({ ...a, screen: null, confirmation: null, winner: false })),
      },
    });
    assert.match(html, /No estimate yet: the round is measuring\./);
    assert.match(html, /No values measured yet\./);
    assert.doesNotMatch(html, /<h2>Why<\/h2>/);
  });

  it("keeps element ids unique across sections on one page", () => {
    const ids = new Set<string>();
    const a = roundSection(roundSummaryRun(), ids);
    const b = roundSection(roundSummaryRun(), ids);
    const idsOf = (html: string) => [...html.matchAll(/<svg[^>]* id="([^"]+)"/g)].map((m) => m[1]);
    const all = [...idsOf(a), ...idsOf(b)];
    assert.ok(all.length >= 4, `ids: ${all}`);
    assert.equal(new Set(all).size, all.length);
  });
});
