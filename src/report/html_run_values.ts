import { BASE_ARM, CANDIDATE_ARM, guardName, measureName } from "../measure/measure_name.ts";
import { rowsFrame } from "./chart_frames.ts";
import { betterWords, differenceCells, formatPairDifference, formatValue } from "./format.ts";
import { type Cell, dataTable, figure } from "./html_page.ts";
import { type PairRow, pairRows } from "./measures.ts";
import type { RunSummary } from "./model.ts";
import { meanOfPairs } from "./set_aside.ts";
import { svgChart, svgLine } from "./svg_axes.ts";
import { candidateMark, legendHtml, marker, MARKS, whisker, WHISKER_LEGEND, WHISKER_OFFSET } from "./svg_marks.ts";

/**
 * A run's "Values" charts, one per benchmark (the climbed one, then each
 * sibling and guard, each on its own axis since their units differ): the baseline and
 * the candidate of every pair on one row, joined by a line, so the size and
 * direction of each change show as a line's length and which end is which.
 * A measure that reported several samples gets a thin whisker from their
 * min to their max beside its marker (the baseline's above the row, the
 * candidate's below), so a noisy or stalled measure shows as a long one.
 */

/** The measure names a row's two markers stand for: `baseline#2`, `sib-tsp-cand`, …. */
function measureNames(row: PairRow): { base: string; candidate: string } {
  const sibling = row.sibling ? row.group : null;
  const pair = row.pair ?? 1;
  if (row.guard) {
    return { base: guardName(row.group, BASE_ARM, pair), candidate: guardName(row.group, CANDIDATE_ARM, pair) };
  }
  return {
    base: measureName({ sibling, arm: BASE_ARM, pair }),
    candidate: measureName({ sibling, arm: CANDIDATE_ARM, pair }),
  };
}

/**
 * One figure per benchmark; `idFor` gives each chart a unique id. The
 * climbed benchmark's candidate is marked by the run's verdict, a sibling's
 * by a neutral candidate marker (the verdict is not a sibling's own).
 */
export function valueFigures(run: RunSummary, idFor: (group: string) => string): string[] {
  const setAside = run.improvement?.setAside ?? [];
  const { rows } = pairRows(run.values, run.differences, run.difference, setAside);
  const keys = [...new Set(rows.map((r) => `${r.sibling ? "s" : r.guard ? "g" : "m"}:${r.group}`))];
  return keys.map((key) => {
    const sibling = key.startsWith("s:");
    const guard = key.startsWith("g:");
    const group = key.slice(2);
    const all = rows.filter((r) => r.group === group && r.sibling === sibling && r.guard === guard);
    const mine = all.filter((r) => r.pair !== null);
    const name = sibling ? `sibling ${group}` : guard ? `guard ${group}` : run.benchmark;
    const aside = sibling || guard ? [] : setAside;
    const f = rowsFrame({
      labels: mine.map((r) => `pair ${r.pair}${aside.includes(r.pair ?? 0) ? " (set aside)" : ""}`),
      rowTitle: "pair",
      xTitle: sibling || guard ? `${group} value` : `${run.metric} (${betterWords(run.direction)})`,
      values: mine.flatMap((r) => {
        const names = measureNames(r);
        const spread = [run.samples[names.base], run.samples[names.candidate]].flatMap((s) => s ? [s.min, s.max] : []);
        return [r.base, r.candidate, ...spread];
      }).filter((v): v is number => v !== null && Number.isFinite(v)),
    });
    const cand = sibling || guard ? "candidate" : candidateMark(run.verdict);
    const parts = [f.axes];
    let whiskers = false;
    mine.forEach((r, i) => {
      const y = f.rowY(i);
      const names = measureNames(r);
      const [b, c] = [r.base, r.candidate];
      // the samples' spread first, so the markers are drawn over it
      for (const [name, kind, dy] of [[names.base, "baseline", -1], [names.candidate, cand, 1]] as const) {
        const s = run.samples[name];
        if (s === undefined) continue;
        whiskers = true;
        const extra = { "data-whisker": kind === "baseline" ? "baseline" : "candidate", "data-measure": name };
        const tip = `${name}: ${s.n} samples, min ${formatValue(s.min)}, median ${formatValue(s.median)}, ` +
          `max ${formatValue(s.max)}`;
        const data = { ...extra, "data-n": s.n, "data-min": s.min, "data-max": s.max };
        parts.push(whisker(f.xs(s.min), f.xs(s.max), y + dy * WHISKER_OFFSET, MARKS[kind].color, data, tip));
      }
      if (b !== null && c !== null) parts.push(svgLine(f.xs(b), y, f.xs(c), y, "#8c959f", { "stroke-width": 2 }));
      if (b !== null) {
        const extra = { "data-point": "baseline", "data-measure": names.base };
        parts.push(marker("baseline", f.xs(b), y, extra, `${names.base} = ${formatValue(b)}`));
      }
      if (c !== null) {
        const extra = { "data-point": "candidate", "data-measure": names.candidate };
        parts.push(marker(cand, f.xs(c), y, extra, `${names.candidate} = ${formatValue(c)}`));
      }
    });
    const title = `Values: ${name}`;
    const desc = `${name}: the baseline and candidate value of each of ${mine.length} pair(s).`;
    const svg = svgChart({ id: idFor(key), width: f.width, height: f.height, title, desc }, parts.join(""));
    const num = (text: string): Cell => ({ text, num: true });
    const header = [{ text: "pair" }, num("baseline"), num("candidate"), num("difference (candidate − baseline)")];
    const summary = sibling || guard ? "" : differenceCells(run).mean;
    const cells = all.map((r) => [
      {
        text: r.pair === null
          ? aside.length === 0 ? `mean of ${r.pairsInGroup}` : meanOfPairs(r.pairsInGroup, aside)
          : `${r.pair}${aside.includes(r.pair) ? " (set aside)" : ""}`,
      },
      num(formatValue(r.base)),
      num(formatValue(r.candidate)),
      num(r.pair === null && summary !== "" ? summary : formatPairDifference(r.difference, r.base, r.candidate)),
    ]);
    const legend = legendHtml(["baseline", cand], whiskers ? [WHISKER_LEGEND] : []);
    return figure(svg, f.width, dataTable(title, header, cells), legend);
  });
}

/**
 * The spread of the samples behind each value, for the measures that
 * reported several (the metric an array): a table of how many, the smallest,
 * the median and the largest; "" when none did.
 */
export function samplesTable(run: RunSummary): string {
  const entries = Object.entries(run.samples);
  if (entries.length === 0) return "";
  const num = (text: string): Cell => ({ text, num: true });
  const header = [{ text: "measure" }, num("n"), num("min"), num("median"), num("max")];
  const rows = entries.map(([name, s]) => [
    { text: name },
    num(String(s.n)),
    num(formatValue(s.min)),
    num(formatValue(s.median)),
    num(formatValue(s.max)),
  ]);
  return `<p class="note">Several samples per measure: each value is their summary (the contract's ` +
    `<code>summary</code>, the median by default).</p>` + dataTable("Samples behind each value", header, rows);
}
