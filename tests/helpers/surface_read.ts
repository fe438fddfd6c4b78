/**
 * Reading what a person reads, for the tests that hold every surface to the
 * decision: a printed number against the value it stands for (to the
 * precision it was printed with, sign included), Markdown and plain-text
 * table cells, and the marks of a report's SVG charts by their attributes.
 */

/**
 * The last place a printed number (`+0.75`, `-1200`, `2.98259`, `1.5e-7`)
 * shows: 0.01, 100, …. A number printed without decimals but with trailing
 * zeros (`1200`) was rounded to its last non-zero digit.
 */
export function unitOf(text: string): number {
  const t = text.trim();
  if (/e/i.test(t)) {
    const [mantissa = "", exponent = "0"] = t.split(/e/i);
    return 10 ** (Number(exponent) - (mantissa.split(".")[1] ?? "").length);
  }
  if (t.includes(".")) return 10 ** -(t.split(".")[1] ?? "").length;
  const digits = t.replace(/^[+-]/, "");
  return digits === "0" ? 1 : 10 ** (/0*$/.exec(digits)?.[0].length ?? 0);
}

/**
 * Whether `text` (a printed number) stands for `value`: equal to its last
 * printed place (`unit`, default the text's own), and of the same sign — a
 * "0" for a value that rounds to zero, a "+" or "-" that says it.
 */
export function agrees(text: string, value: number, unit = unitOf(text)): boolean {
  const t = text.trim();
  const x = Number(t);
  if (t === "" || !Number.isFinite(x) || !Number.isFinite(value)) return false;
  if (Math.abs(x - value) > unit / 2 * (1 + 1e-9) + Math.abs(value) * 1e-12) return false;
  return x === 0 || (Math.sign(x) === Math.sign(value) && t.startsWith("-") === value < 0);
}

/** Whether an estimate's printed numbers (mean, lower, upper) stand for its values, all at their coarsest place. */
export function estimateAgrees(texts: readonly string[], values: readonly number[]): boolean {
  const unit = Math.max(...texts.map(unitOf));
  return texts.length === values.length && texts.every((t, i) => agrees(t, values[i]!, unit));
}

/** `[lower, upper] 95%` read back: its two ends as printed and the level as a fraction; null when absent. */
export function intervalIn(text: string): { lower: string; upper: string; level: number } | null {
  const m = /\[([^,\]]+), ([^\]]+)\] ([\d.]+)%/.exec(text);
  return m ? { lower: m[1]!, upper: m[2]!, level: Number(m[3]) / 100 } : null;
}

/** The cells of a Markdown table row, split on unescaped pipes. */
export function mdCells(row: string): string[] {
  return row.replace(/^\| | \|$/g, "").split(/(?<!\\)\|/).map((c) => c.trim());
}

/** The table rows (lines starting with `|`) of a Markdown text, header and rule included. */
export function mdRows(md: string): string[] {
  return md.split("\n").filter((l) => l.startsWith("|"));
}

/**
 * A cell of a plain-text table (text/columns.ts: two spaces between columns)
 * under `header`: a right-aligned column's cell ends where its header ends, a
 * left-aligned one starts where its header starts; cells hold no two spaces.
 */
export function textCell(table: string, line: number, header: string, align: "left" | "right"): string {
  const lines = table.split("\n");
  const head = lines[0] ?? "";
  const at = head.search(new RegExp(`(^|  )${header.replace(/[()[\]]/g, "\\$&")}(  |$)`));
  if (at < 0) throw new Error(`No column ${JSON.stringify(header)} in ${JSON.stringify(head)}`);
  const start = at === 0 ? 0 : at + 2;
  const row = lines[line] ?? "";
  if (align === "left") return (row.slice(start).split("  ")[0] ?? "").trim();
  const end = start + header.length;
  return (row.slice(0, end).split("  ").at(-1) ?? "").trim();
}

/** One SVG or HTML element: its tag and attributes. */
export interface Element {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
}

/** Every element of `html` whose start tag matches `where`. */
export function elements(html: string, where: (e: Element) => boolean = () => true): Element[] {
  const out: Element[] = [];
  for (const m of html.matchAll(/<([a-zA-Z]+)((?:\s+[^\s=>]+="[^"]*")*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[2] ?? "").matchAll(/([^\s=]+)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
    const e = { tag: m[1]!, attrs };
    if (where(e)) out.push(e);
  }
  return out;
}

/** The `<svg>…</svg>` whose id starts with `prefix`, or "". */
export function svgById(html: string, prefix: string): string {
  return [...html.matchAll(/<svg[^>]*>[\s\S]*?<\/svg>/g)].map((m) => m[0]).find((s) =>
    s.startsWith(`<svg id="${prefix}`)
  ) ?? "";
}

/** A marker's centre along x: a circle's `cx`, a bar's or diamond's `d="M<x> …"`. */
export function markerX(e: Element): number {
  if (e.attrs["cx"] !== undefined) return Number(e.attrs["cx"]);
  return Number(/^M(-?[\d.]+)/.exec(e.attrs["d"] ?? "")?.[1]);
}

/** A marker's centre along y: a circle's `cy`, a path's first point. */
export function markerY(e: Element): number {
  if (e.attrs["cy"] !== undefined) return Number(e.attrs["cy"]);
  const m = /^M-?[\d.]+ (-?[\d.]+)/.exec(e.attrs["d"] ?? "");
  return Number(m?.[1]);
}

/** The text of the `<dd>` after the `<dt>` named `term`, tags stripped, or "". */
export function factText(html: string, term: string): string {
  const m = new RegExp(`<dt>${term.replace(/[()[\]+]/g, "\\$&")}</dt><dd>([\\s\\S]*?)</dd>`).exec(html);
  return (m?.[1] ?? "").replace(/<[^>]*>/g, "");
}

/** A relative figure as decision.json stores it: the candidate / baseline ratio and its interval. */
export interface RatioJson {
  /** Pairs behind it: a single pair's ratio has no interval (its stored ends are the mean). */
  readonly n: number;
  readonly mean: number;
  readonly lower: number | null;
  readonly upper: number | null;
}

/**
 * Whether a printed relative figure (`1.134× faster [1.09, 1.19] (-11.8% time)`,
 * `1.05× slower`, `+16.6% [+12.3%, +21.0%]`) stands for the ratio `r`: the
 * factor (baseline / candidate when faster) or the percent change, and its
 * ends, each to the place it was printed with. Null when the text holds no
 * relative figure at all.
 */
export function relativeAgrees(text: string, r: RatioJson, direction: "minimize" | "maximize"): boolean | null {
  const ends = r.n < 2 || r.lower === null || r.upper === null ? null : [r.lower, r.upper] as const;
  if (direction === "maximize") {
    const m = /([+-]?[\d.]+)%(?: \[([+-]?[\d.]+)%, ([+-]?[\d.]+)%\])?/.exec(text);
    if (m === null) return null;
    const pct = (x: number) => (x - 1) * 100;
    if ((m[2] === undefined) !== (ends === null)) return false;
    return ends === null ? agrees(m[1]!, pct(r.mean)) : estimateAgrees(
      [m[1]!, m[2]!, m[3]!],
      [pct(r.mean), pct(ends[0]), pct(ends[1])],
    );
  }
  // a time reads faster / slower, any other metric (minimized) lower / higher: better is faster or lower
  const m = /([\d.]+)× (faster|slower|lower|higher)(?: \[([\d.]+), ([\d.]+)\])?/.exec(text);
  if (m === null) return null;
  const faster = m[2] === "faster" || m[2] === "lower";
  if (faster !== r.mean <= 1 || (m[3] === undefined) !== (ends === null)) return false;
  const f = (x: number) => (faster ? 1 / x : x);
  if (ends === null) return agrees(m[1]!, f(r.mean));
  const [lo, hi] = faster ? [f(ends[1]), f(ends[0])] : [f(ends[0]), f(ends[1])];
  return estimateAgrees([m[1]!, m[3]!, m[4]!], [f(r.mean), lo, hi]);
}
