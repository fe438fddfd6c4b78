import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { badge, dataTable, factsList, figure, htmlPage, tagCell } from "../../src/report/html_page.ts";

describe("htmlPage()", () => {
  it("is a whole document with its title escaped and the body as given", () => {
    const page = htmlPage("a <b>", "<p>x</p>");
    assert.match(page, /^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
    assert.match(page, /<title>a &lt;b&gt;<\/title>/);
    assert.match(page, /<body>\n<p>x<\/p>\n<\/body>\n<\/html>\n$/);
    assert.doesNotMatch(page, /<script|<link|src=/, "self-contained: nothing loaded from elsewhere");
  });
});

describe("dataTable()", () => {
  it("captions the table, scopes its headers, escapes its cells and classes them by how they wrap", () => {
    const html = dataTable("Runs & more", [{ text: "run" }, { text: "n", num: true }], [
      [{ text: "<r1>", wrap: "words" }, { text: "5", num: true }],
      [{ text: "r2", wrap: "never" }, { text: "6" }],
    ]);
    assert.match(html, /^<div class="table-wrap"><table><caption>Runs &amp; more<\/caption>/);
    assert.match(html, /<thead><tr><th scope="col">run<\/th><th class="num" scope="col">n<\/th><\/tr><\/thead>/);
    assert.match(
      html,
      /<tr><td class="words">&lt;r1&gt;<\/td><td class="num">5<\/td><\/tr>\n<tr><td class="nowrap">r2<\/td><td>6<\/td><\/tr>/,
    );
  });
});

describe("dataTable()'s words and tagCell()", () => {
  it("holds a word a browser would break at a hyphen or a slash whole, an arrow to the word after it", () => {
    const cell = (text: string) =>
      /<td class="words">(.*)<\/td>/.exec(dataTable("t", [{ text: "x" }], [[{ text, wrap: "words" }]]))?.[1];
    assert.equal(cell("2026-12-07 17:26"), '<span class="nobr">2026-12-07</span> 17:26');
    assert.equal(
      cell("→ f1eb8ddb26 (refs/heads/smoke-crash)"),
      '<span class="nobr">→ f1eb8ddb26</span> <span class="nobr">(refs/heads/smoke-crash)</span>',
    );
    assert.equal(cell("↳ candidate-2 (dropped)"), '<span class="nobr">↳ candidate-2</span> (dropped)');
    // a sign is no break: an interval stays as it was, and text is escaped inside and outside a span
    assert.equal(cell("[-0.36, -0.23] 95%"), "[-0.36, -0.23] 95%");
    assert.equal(cell("a<b x-y<b>"), 'a&lt;b <span class="nobr">x-y&lt;b&gt;</span>');
    assert.match(htmlPage("t", ""), /td\.num, td\.nowrap, \.nobr \{ white-space: nowrap; \}/);
  });

  it("keeps a short tag on one line, and lets a long or punctuated one wrap as free text", () => {
    assert.deepEqual(tagCell("round 1"), { text: "round 1", wrap: "never" });
    assert.deepEqual(tagCell("smoke-crash"), { text: "smoke-crash", wrap: "never" });
    assert.deepEqual(tagCell("a-tag-far-too-long-to-hold"), { text: "a-tag-far-too-long-to-hold" });
    assert.deepEqual(tagCell("t|<b>&"), { text: "t|<b>&" });
  });
});

describe("figure()", () => {
  it("holds the chart's column to its width, the legend under the chart, the table beside", () => {
    assert.equal(
      figure("<svg/>", 480, "<table/>", "<ul/>"),
      '<figure><div class="plot" style="flex: 0 1 480px"><svg/><ul/></div><table/></figure>',
    );
  });
});

describe("badge()", () => {
  it("colours a known verdict and any other word as open", () => {
    assert.equal(badge("accept"), '<span class="badge badge-accept">accept</span>');
    assert.equal(badge("measuring"), '<span class="badge badge-open">measuring</span>');
    assert.equal(badge("a<b", "reject"), '<span class="badge badge-reject">a&lt;b</span>');
  });
});

describe("factsList()", () => {
  it("escapes a text value and keeps an HTML one", () => {
    const html = factsList([["run", "<r1>"], ["sha", { html: "<code>ab</code>" }]]);
    assert.match(html, /<dt>run<\/dt><dd>&lt;r1&gt;<\/dd><dt>sha<\/dt><dd><code>ab<\/code><\/dd>/);
  });
});
