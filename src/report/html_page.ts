import { attrs, escapeHtml } from "./html_escape.ts";
import { COLORS } from "./svg_marks.ts";

/**
 * The page around the charts: one HTML document with its CSS inline and
 * nothing fetched — no script, font, stylesheet or image from anywhere — since
 * it is opened from a cluster's file system, often with no network at all.
 * Also the pieces every report uses: a figure (chart beside its data table),
 * a data table, a verdict badge and a facts list.
 */

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 24px 32px 48px; max-width: 1280px; color: ${COLORS.ink}; background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d8dee4; padding-bottom: 4px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 12px; font-weight: 700; color: #fff;
  text-transform: uppercase; letter-spacing: .04em; font-size: 13px; vertical-align: middle; }
.badge-accept { background: ${COLORS.accept}; } .badge-reject { background: ${COLORS.reject}; }
.badge-inconclusive { background: ${COLORS.inconclusive}; } .badge-open { background: ${COLORS.neutral}; }
.badge-crashed { background: #fff; color: #424a53; border: 2px solid #424a53; }
.failure.crashed { border-left-color: #424a53; background: #f6f8fa; }
pre.log { background: #f6f8fa; border: 1px solid #d8dee4; padding: 8px 12px; overflow-x: auto; font-size: 12px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.badge-disputed { background: #fff; color: ${COLORS.reject}; border: 2px dashed ${COLORS.reject}; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
.facts dt { color: #57606a; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.failure { border-left: 4px solid ${COLORS.reject}; background: #fff5f5; padding: 8px 12px; }
.reasons li { margin: 2px 0; }
figure { margin: 8px 0 20px; display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
figure > .plot { flex: 0 1 auto; max-width: 100%; }
svg.chart { max-width: 100%; height: auto; font-size: 12px; font-family: inherit; }
.table-wrap { overflow-x: auto; flex: 1 1 260px; min-width: 0; max-width: 100%; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; max-width: 100%; }
th, td { padding: 3px 5px; border-bottom: 1px solid #eaeef2; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; }
th { position: sticky; top: 0; background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; }
td.num, td.nowrap, .nobr { white-space: nowrap; } td.words { overflow-wrap: normal; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
.legend { list-style: none; padding: 0; margin: 4px 0 0; display: flex; flex-wrap: wrap; gap: 4px 16px; color: #57606a; }
.legend li { display: flex; align-items: center; gap: 6px; }
.note { color: #57606a; font-style: italic; }
h1 .relative { font-size: 16px; font-weight: 600; color: #57606a; margin-left: 6px; }
`;

/** A whole HTML document: `title` escaped, `body` already HTML. */
export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

/** A table cell: text escaped; `num` right-aligns it. */
export interface Cell {
  readonly text: string;
  /** A number: right-aligned, on one line. */
  readonly num?: boolean;
  /**
   * How a text cell may wrap: "anywhere" (the default: free text — a
   * failure — that must not hold its column open), "words" (only between
   * words, never inside one: a time, a pair of shas, an interval, a ref) or
   * "never" (a tag, a measure's name).
   */
  readonly wrap?: "anywhere" | "words" | "never";
}

/**
 * A data table with a caption (for screen readers and as its heading), at
 * its full height: a reader scrolls the page, never a small box inside it
 * (a 300-run climb's table runs on below its chart). It fits its box's width: headers wrap between words, text cells
 * anywhere (so a sha or a long sentence cannot hold a column open), numbers
 * stay on one line — they are short, printed to the digits the data supports
 * (text/numbers.ts).
 */
export function dataTable(caption: string, header: readonly Cell[], rows: readonly (readonly Cell[])[]): string {
  const cell = (tag: "th" | "td", c: Cell) =>
    `<${tag}${
      attrs({
        class: c.num ? "num" : c.wrap === "words" ? "words" : c.wrap === "never" ? "nowrap" : undefined,
        scope: tag === "th" ? "col" : undefined,
      })
    }>` +
    `${c.wrap === "words" ? wholeWords(c.text) : escapeHtml(c.text)}</${tag}>`;
  const head = `<thead><tr>${header.map((c) => cell("th", c)).join("")}</tr></thead>`;
  const body = `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell("td", c)).join("")}</tr>`).join("\n")}</tbody>`;
  return `<div class="table-wrap"><table><caption>${escapeHtml(caption)}</caption>${head}\n${body}</table></div>`;
}

/**
 * `text` escaped, each word that a browser would break inside — at a hyphen
 * or a slash: `2026-12-07`, `candidate-2`, `(refs/heads/main)` — held whole
 * in a `nobr` span, and an arrow (`→`, `↳`) held to the word after it, so a
 * narrow column breaks such a cell only between words.
 */
function wholeWords(text: string): string {
  return text.replace(
    /(?:[→↳] )?[^\s]+/g,
    (
      w,
    ) => (/[\p{L}\p{N}][-‐–—][\p{L}\p{N}]|\/|^[→↳] /u.test(w)
      ? `<span class="nobr">${escapeHtml(w)}</span>`
      : escapeHtml(w)),
  );
}

/**
 * A run's tag as a cell: a short name ("r12", "round 1", "smoke-crash": up
 * to 16 letters, digits, spaces, dots, dashes and underscores) on one line,
 * read as a name and never split into two; anything else — longer, or
 * punctuation — is free text, wrapping anywhere so it cannot hold its
 * column open on a 1200 px page.
 */
export function tagCell(tag: string): Cell {
  return /^[\p{L}\p{N} ._-]{1,16}$/u.test(tag) ? { text: tag, wrap: "never" } : { text: tag };
}

/**
 * A chart `width` pixels wide beside its data table, with a legend under the
 * chart (`legend` already HTML). The chart's column is held to the chart's
 * width, so a long legend wraps under it instead of pushing the table below.
 */
export function figure(svg: string, width: number, table: string, legend: string): string {
  return `<figure><div class="plot" style="flex: 0 1 ${width}px">${svg}${legend}</div>${table}</figure>`;
}

/**
 * A verdict (or a state) as a badge coloured by `kind` (default: the text
 * itself): green, red, amber or grey; a disputed verdict dashed red on white,
 * a crashed candidate dark grey on white (neither a reject nor a failed run).
 */
export function badge(text: string, kind: string = text): string {
  const colour = ["accept", "reject", "inconclusive", "disputed", "crashed"].includes(kind) ? kind : "open";
  return `<span class="badge badge-${colour}">${escapeHtml(text)}</span>`;
}

/** A definition list of facts; values are escaped unless given as `{ html }`. */
export function factsList(facts: readonly (readonly [string, string | { html: string }])[]): string {
  const items = facts.map(([k, v]) =>
    `<dt>${escapeHtml(k)}</dt><dd>${typeof v === "string" ? escapeHtml(v) : v.html}</dd>`
  );
  return `<dl class="facts">${items.join("")}</dl>`;
}
