import { attrs, escapeHtml } from "./html_escape.ts";
import type { RunVerdict } from "./model.ts";

/**
 * The markers every chart draws, one look per meaning, told apart by shape
 * as well as colour (a colour-blind reader, a grey-scale print): the baseline
 * is a hollow circle; a candidate is a green diamond when accepted, a red
 * cross when rejected, an amber square when inconclusive and a hollow grey
 * diamond while undecided (a sibling's candidate, which has no verdict of its
 * own, is a purple diamond); a pair's difference is a blue dot (hollow when
 * the estimate set the pair aside as outlying) and a mean is a black bar; in
 * a round, the winner is a green diamond, a screen's estimate a hollow grey
 * diamond and a candidate the screen dropped a greyed dot, one whose eval
 * crashed a greyed cross; the
 * spread of a measure's samples is a thin whisker from their min to their max
 * beside its marker, in the marker's colour. Colours are SVG attributes, not CSS, so a chart copied out of
 * the page keeps them. Every marker carries `data-point` and a `<title>`
 * (the browser's tooltip).
 */

/** What a marker stands for. */
export type MarkKind =
  | "baseline"
  | "candidate"
  | "accept"
  | "reject"
  | "inconclusive"
  | "open"
  | "pair"
  | "aside"
  | "mean"
  | "winner"
  | "screen"
  | "dropped"
  | "crashed";

type Shape = "circle" | "diamond" | "square" | "cross" | "bar";

interface MarkStyle {
  readonly shape: Shape;
  readonly color: string;
  readonly hollow: boolean;
  /** The legend's words. */
  readonly label: string;
}

/** Colours from a palette with at least 4.5:1 contrast on white (but `dropped`: greyed on purpose, and said in words beside it). */
export const COLORS = {
  accept: "#1a7f37",
  reject: "#cf222e",
  inconclusive: "#9a6700",
  neutral: "#6e7781",
  pair: "#0969da",
  candidate: "#8250df",
  ink: "#24292f",
  /** A round's candidate the screen dropped: drawn greyed. */
  dropped: "#8c959f",
} as const;

/** The look of each kind of marker. */
export const MARKS: Readonly<Record<MarkKind, MarkStyle>> = {
  baseline: { shape: "circle", color: "#57606a", hollow: true, label: "baseline" },
  candidate: { shape: "diamond", color: COLORS.candidate, hollow: false, label: "candidate" },
  accept: { shape: "diamond", color: COLORS.accept, hollow: false, label: "candidate, accepted" },
  reject: { shape: "cross", color: COLORS.reject, hollow: false, label: "candidate, rejected" },
  inconclusive: { shape: "square", color: COLORS.inconclusive, hollow: false, label: "candidate, inconclusive" },
  open: { shape: "diamond", color: COLORS.neutral, hollow: true, label: "candidate, no verdict" },
  pair: { shape: "circle", color: COLORS.pair, hollow: false, label: "one pair: candidate − baseline" },
  aside: { shape: "circle", color: COLORS.pair, hollow: true, label: "set aside (outlying)" },
  mean: { shape: "bar", color: COLORS.ink, hollow: false, label: "mean, with its interval" },
  winner: { shape: "diamond", color: COLORS.accept, hollow: false, label: "the round's winner, on its confirmation" },
  screen: {
    shape: "diamond",
    color: "#57606a",
    hollow: true,
    label: "screen estimate (it chooses, it does not decide)",
  },
  dropped: { shape: "circle", color: COLORS.dropped, hollow: false, label: "dropped by the screen (greyed)" },
  crashed: { shape: "cross", color: COLORS.dropped, hollow: false, label: "crashed: its eval failed (greyed)" },
};

/** The candidate's marker for a verdict. */
export function candidateMark(verdict: RunVerdict): MarkKind {
  return verdict ?? "open";
}

/** The SVG of a marker centred on `(x, y)`; `size` is the half-width in pixels. */
export function marker(
  kind: MarkKind,
  x: number,
  y: number,
  extra: Readonly<Record<string, string | number | null | undefined>>,
  tooltip: string,
  size = 5,
): string {
  const s = MARKS[kind];
  const paint = s.shape === "cross" || s.shape === "bar"
    ? { fill: "none", stroke: s.color, "stroke-width": s.shape === "bar" ? 3 : 2.5 }
    : { fill: s.hollow ? "#ffffff" : s.color, stroke: s.color, "stroke-width": 1.6 };
  const a = attrs({ ...extra, ...paint });
  const t = `<title>${escapeHtml(tooltip)}</title>`;
  const r = (n: number) => Math.round(n * 10) / 10;
  switch (s.shape) {
    case "circle":
      return `<circle cx="${r(x)}" cy="${r(y)}" r="${r(size * 0.9)}"${a}>${t}</circle>`;
    case "square":
      return `<rect x="${r(x - size * 0.8)}" y="${r(y - size * 0.8)}" width="${r(size * 1.6)}" ` +
        `height="${r(size * 1.6)}"${a}>${t}</rect>`;
    case "diamond": {
      const d = size * 1.2;
      return `<path d="M${r(x)} ${r(y - d)}L${r(x + d)} ${r(y)}L${r(x)} ${r(y + d)}L${r(x - d)} ${
        r(y)
      }Z"${a}>${t}</path>`;
    }
    case "cross":
      return `<path d="M${r(x - size)} ${r(y - size)}L${r(x + size)} ${r(y + size)}M${r(x - size)} ${r(y + size)}` +
        `L${r(x + size)} ${r(y - size)}"${a}>${t}</path>`;
    case "bar":
      return `<path d="M${r(x)} ${r(y - size * 1.6)}V${r(y + size * 1.6)}"${a}>${t}</path>`;
  }
}

/**
 * A legend for the given kinds, as HTML: each marker in a tiny SVG of its
 * own (hidden from screen readers: the words say it) followed by its label.
 * `more` are further items, already HTML `<li>` elements (line styles).
 */
export function legendHtml(kinds: readonly MarkKind[], more: readonly string[] = []): string {
  const items = kinds.map((k) =>
    `<li><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">${marker(k, 8, 8, {}, MARKS[k].label)}` +
    `</svg>${escapeHtml(MARKS[k].label)}</li>`
  );
  return `<ul class="legend">${[...items, ...more].join("")}</ul>`;
}

/** How far from its row's centre a whisker runs: above for the baseline, below for the candidate. */
export const WHISKER_OFFSET = 7;

/**
 * A thin whisker from `x1` to `x2` (a measure's smallest and largest sample)
 * at height `y`, with short end caps: `M<x1> <y>H<x2>…`, so its ends read
 * off its path. `extra` carries its data attributes.
 */
export function whisker(
  x1: number,
  x2: number,
  y: number,
  color: string,
  extra: Readonly<Record<string, string | number | null | undefined>>,
  tooltip: string,
): string {
  const r = (n: number) => Math.round(n * 10) / 10;
  const d = `M${r(x1)} ${r(y)}H${r(x2)}M${r(x1)} ${r(y - 3)}V${r(y + 3)}M${r(x2)} ${r(y - 3)}V${r(y + 3)}`;
  const a = attrs({ class: "whisker", ...extra, d, fill: "none", stroke: color, "stroke-width": 1.2 });
  return `<path${a}><title>${escapeHtml(tooltip)}</title></path>`;
}

/** The legend's item for the whiskers. */
export const WHISKER_LEGEND = `<li><svg width="22" height="10" aria-hidden="true"><path d="M2 5H20M2 2V8M20 2V8" ` +
  `fill="none" stroke="${COLORS.neutral}" stroke-width="1.2"/></svg>samples: min to max (the marker is the value)</li>`;

/**
 * The mark where an interval is cut at a chart's edge (its end lies off the
 * axis, `axis_focus.ts`): a small arrowhead on the edge pointing off the
 * plot, in the interval's colour, its tooltip the true end. `extra` carries
 * its data attributes.
 */
export function clipMark(
  x: number,
  y: number,
  toward: "up" | "down",
  color: string,
  extra: Readonly<Record<string, string | number | null | undefined>>,
  tooltip: string,
): string {
  const r = (n: number) => Math.round(n * 10) / 10;
  const tip = toward === "up" ? y - 2 : y + 2, back = toward === "up" ? y + 6 : y - 6;
  const d = `M${r(x - 5)} ${r(back)}L${r(x)} ${r(tip)}L${r(x + 5)} ${r(back)}Z`;
  const a = attrs({ class: "clipped", ...extra, d, fill: color, stroke: color, "stroke-width": 1 });
  return `<path${a}><title>${escapeHtml(tooltip)}</title></path>`;
}

/** The legend's item for a cut interval. */
export const CLIP_LEGEND = `<li><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">` +
  `<path d="M3 12L8 4L13 12Z" fill="${COLORS.neutral}"/></svg>interval cut at the edge (its end in the tooltip)</li>`;

/** How far above a plot's bottom edge a crash with no value is drawn: inside the plot, clear of the axis. */
export const CRASH_EDGE_INSET = 7;

/**
 * The legend's item for a crash that has no value (its eval failed before
 * printing one): the greyed cross, drawn on the plot's bottom edge at its
 * run, since no height on the axis would be true.
 */
export const CRASH_EDGE_LEGEND = `<li><svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">` +
  `${marker("crashed", 8, 8, {}, "crashed, no value")}</svg>crashed, no value: on the bottom edge (greyed)</li>`;
