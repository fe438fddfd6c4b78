/**
 * What a person reads of a round, held to its decision.json: for one round
 * run dir, every surface — `show --json`, `show`, `resume --json`, `runs
 * --json`, `runs`, `report --md`, `report --html` — must give the winner (or
 * none), each candidate's verdict and the improvement shown for it (its
 * confirmation's, else its screen's: mean and interval, in sign and value,
 * to the digits printed). The property test (tests/views/surfaces_test.ts)
 * runs it over random rounds.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Compute } from "../../src/compute/compute.ts";
import type { RunDir } from "../../src/rundir/run_dir.ts";
import { cli } from "./cli.ts";
import {
  agrees,
  elements,
  estimateAgrees,
  intervalIn,
  markerX,
  mdCells,
  mdRows,
  type RatioJson,
  relativeAgrees,
  svgById,
  textCell,
  unitOf,
} from "./surface_read.ts";

/** An estimate as decision.json keeps it. */
export interface EstimateJson {
  n: number;
  mean: number;
  lower: number;
  upper: number;
  confidence: number;
  method: string;
  set_aside?: number[];
}

/** decision.json's `round`. */
export interface RoundJson {
  procedure: string;
  seeds: number[];
  n: number;
  winner: { arm: number; first_pair: number; last_pair: number; estimate: EstimateJson } | null;
  candidates: {
    arm: number;
    ref: string;
    sha: string;
    verdict: string;
    standing: string;
    because: string | null;
    pairs: number;
    screen: EstimateJson | null;
    estimate: EstimateJson | null;
    siblings: Record<string, EstimateJson>;
    /** The ratio of its estimate (else its screen's); null for a metric that is not positive; absent before it. */
    relative?: RatioJson | null;
    reason: string;
    crash?: { measure: string; job_id: string | null; kind: string; cause: string; message: string };
  }[];
}

/** What decision.json says a person must read of each candidate. */
export interface ExpectedArm {
  arm: number;
  measure: string;
  verdict: string;
  dropped: boolean;
  winner: boolean;
  /** The estimate shown for it: the confirmation's when it has one, else the screen's. */
  stage: "confirmation" | "screen";
  shown: EstimateJson;
  first: number;
  last: number;
  /** Its interval, or null for one pair. */
  interval: { lower: number; upper: number; confidence: number } | null;
  difference: number;
  pairs: number;
}

/** The candidates as the decision gives them. */
export function expectedArms(round: RoundJson, direction: "maximize" | "minimize"): ExpectedArm[] {
  return round.candidates.map((c) => {
    const shown = c.estimate ?? c.screen!;
    const stage = c.estimate === null ? "screen" : "confirmation";
    const first = stage === "screen" ? 1 : c.pairs - shown.n + 1;
    return {
      arm: c.arm,
      measure: c.arm === 1 ? "candidate" : `candidate-${c.arm}`,
      verdict: c.verdict,
      dropped: c.standing === "dropped",
      winner: round.winner?.arm === c.arm,
      stage,
      shown,
      first,
      last: first + shown.n - 1,
      interval: shown.n < 2 ? null : { lower: shown.lower, upper: shown.upper, confidence: shown.confidence },
      difference: (direction === "maximize" ? 1 : -1) * shown.mean,
      pairs: c.pairs,
    };
  });
}

/** Checks a printed mean and interval (`[l, u] 95%`, or "" for none) against an expected estimate. */
export function checkPrinted(at: string, mean: string, interval: string, value: number, iv: ExpectedArm["interval"]) {
  const printed = intervalIn(interval);
  assert.equal(printed === null, iv === null, `${at}: an interval printed exactly when there is one: ${interval}`);
  if (iv === null || printed === null) {
    assert.ok(agrees(mean, value), `${at}: ${mean} for ${value}`);
    return;
  }
  assert.ok(
    estimateAgrees([mean, printed.lower, printed.upper], [value, iv.lower, iv.upper]),
    `${at}: ${mean} ${interval} for ${value} [${iv.lower}, ${iv.upper}]`,
  );
  assert.ok(Math.abs(printed.level - iv.confidence) < 5e-5, `${at}: level ${interval}`);
}

/** `+2 [+1.5, +2.5] 97.5%, n = 4 (pairs 3–6)` read back. */
function armText(text: string): { mean: string; interval: string; n: number; range: string } {
  const m = /^(\S+)(?: (\[[^\]]+\] \S+))?, n = (\d+) \((pairs? [\d–]+)\)$/.exec(text.trim());
  assert.ok(m, `an estimate's text: ${JSON.stringify(text)}`);
  return { mean: m[1]!, interval: m[2] ?? "", n: Number(m[3]), range: m[4]! };
}

/** A marker's centre along x, whatever its shape: a circle's `cx`, else the middle of its path's x extent. */
function centreX(e: ReturnType<typeof elements>[number]): number {
  if (e.attrs["cx"] !== undefined) return Number(e.attrs["cx"]);
  if (e.attrs["x"] !== undefined) return Number(e.attrs["x"]) + Number(e.attrs["width"]) / 2;
  const xs = [...(e.attrs["d"] ?? "").matchAll(/[ML](-?[\d.]+) /g)].map((m) => Number(m[1]));
  return xs.length === 0 ? markerX(e) : (Math.min(...xs) + Math.max(...xs)) / 2;
}

const range = (a: ExpectedArm) => (a.first === a.last ? `pair ${a.first}` : `pairs ${a.first}–${a.last}`);

/**
 * Every surface of the round in `dir` (in the climb `root`, alone there)
 * against its decision.json; `at` names the case in every failure.
 */
export async function checkRoundSurfaces(
  at: string,
  dir: RunDir,
  root: string,
  compute: Compute,
  direction: "maximize" | "minimize",
): Promise<void> {
  // deno-lint-ignore no-explicit-any -- decision.json as a script reads it
  const d: any = JSON.parse(readFileSync(dir.decision, "utf8"));
  const round = d.round as RoundJson;
  const arms = expectedArms(round, direction);
  const winner = round.winner?.arm ?? null;
  assert.equal(d.verdict === "accept", winner !== null, `${at}: accept exactly when there is a winner`);

  // show --json: decision.json's round, each candidate with its measure name, and the winner's quantities
  const show = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
  assert.equal(show.verdict, d.verdict, `${at}: show --json verdict`);
  const { open, next, ...shownRound } = show.round;
  assert.equal(open, false, at);
  assert.equal(next, null, at);
  // deno-lint-ignore no-explicit-any
  shownRound.candidates = shownRound.candidates.map(({ measure, label, winner: won, mean, ...c }: any, i: number) => {
    assert.equal(measure, arms[i]!.measure, at);
    assert.equal(label, "", `${at}: show --json ${measure} label (the fixture gives none)`);
    assert.equal(won, c.arm === winner, `${at}: show --json ${measure} winner`);
    assert.equal(mean, meanOfArm(d.values, c.arm), `${at}: show --json ${measure} mean of every value it measured`);
    return c;
  });
  const means = { baseline: meanOfArm(d.values, 0), candidate: winner === null ? null : meanOfArm(d.values, winner) };
  assert.deepEqual(show.means, means, `${at}: show --json means, the winner's candidate`);
  assert.deepEqual(shownRound, round, `${at}: show --json round is decision.json's`);
  if (winner === null) assert.equal(show.improvement, null, `${at}: no winner, no improvement`);
  else assert.equal(show.improvement.mean, round.winner!.estimate.mean, `${at}: show --json improvement, the winner's`);

  // resume --json: winner and candidates, and the round's exit code
  const resumed = await cli(["resume", dir.path, "--json"], { compute });
  assert.equal(resumed.code, { accept: 0, reject: 10, inconclusive: 11 }[d.verdict as string], `${at}: exit code`);
  const resume = JSON.parse(resumed.stdout);
  if (winner === null) assert.equal(resume.winner, null, at);
  else {
    const c = round.candidates[winner - 1]!;
    assert.deepEqual(
      resume.winner,
      {
        arm: winner,
        measure: arms[winner - 1]!.measure,
        ref: c.ref,
        sha: c.sha,
        first_pair: round.winner!.first_pair,
        last_pair: round.winner!.last_pair,
        estimate: round.winner!.estimate,
      },
      `${at}: resume --json winner`,
    );
  }
  assert.deepEqual(
    resume.candidates,
    round.candidates.map((c, i) => ({
      arm: c.arm,
      measure: arms[i]!.measure,
      ref: c.ref,
      sha: c.sha,
      label: "",
      winner: c.arm === winner,
      mean: meanOfArm(d.values, c.arm),
      verdict: c.verdict,
      standing: c.standing,
      because: c.because,
      pairs: c.pairs,
      screen: c.screen,
      estimate: c.estimate,
      crash: c.crash ?? null,
    })),
    `${at}: resume --json candidates`,
  );
  assert.deepEqual(resume.means, means, `${at}: resume --json means`);

  // runs --json: the round's candidates, each with the improvement shown for it
  const entry = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs[0];
  assert.equal(entry.verdict, d.verdict, at);
  assert.equal(entry.round.winner?.arm ?? null, winner, `${at}: runs --json winner`);
  assert.equal(entry.improvement?.mean ?? null, round.winner?.estimate.mean ?? null, `${at}: runs --json improvement`);
  arms.forEach((a, i) => {
    const e = entry.round.candidates[i];
    const w = `${at}: runs --json ${a.measure}`;
    assert.equal(e.verdict, a.verdict, w);
    assert.equal(e.winner, a.winner, w);
    assert.equal(e.standing, round.candidates[i]!.standing, w);
    assert.equal(e.stage, a.stage, w);
    assert.deepEqual([e.first_pair, e.last_pair], [a.first, a.last], w);
    assert.equal(e.improvement.mean, a.shown.mean, w);
    assert.equal(e.improvement.n, a.shown.n, w);
    assert.deepEqual(
      [e.improvement.lower, e.improvement.upper, e.improvement.confidence],
      a.interval === null ? [null, null, null] : [a.interval.lower, a.interval.upper, a.interval.confidence],
      w,
    );
    assert.equal(e.difference, a.difference, w);
  });

  // runs: the round's row, then a row per candidate
  const table = (await cli(["runs", root], { compute })).stdout;
  const lines = table.split("\n");
  const verdictCell = textCell(table, 1, "verdict", "left");
  assert.equal(
    verdictCell,
    `${d.verdict}: ${winner === null ? "no winner" : `winner ${arms[winner - 1]!.measure}`}`,
    `${at}: runs round row`,
  );
  arms.forEach((a, i) => {
    const line = i + 2;
    const w = `${at}: runs ${a.measure}`;
    assert.ok(lines[line]!.startsWith(`  ${a.measure} `), `${w}: its row\n${table}`);
    assert.equal(textCell(table, line, "verdict", "left"), a.verdict, w);
    const state = textCell(table, line, "state", "left");
    assert.equal(state === "decided: winner", a.winner, `${w}: ${state}`);
    assert.equal(state.startsWith(`dropped at pair ${a.pairs}`), a.dropped, `${w}: ${state}`);
    checkPrinted(
      w,
      textCell(table, line, "improvement", "right"),
      textCell(table, line, "improvement interval", "left"),
      a.shown.mean,
      a.interval,
    );
    const diffCell = textCell(table, line, "difference", "right");
    const places = Math.max(unitOf(diffCell), unitOf(textCell(table, line, "improvement", "right")));
    assert.ok(agrees(diffCell, a.difference, places), `${w}: difference ${diffCell} for ${a.difference}`);
    assert.equal(textCell(table, line, "n", "right"), String(a.shown.n), w);
    // the relative column, when the table has one: the candidate's own ratio, on the same pairs
    const ratio = round.candidates[i]!.relative;
    if (/ relative /.test(lines[0]!) && ratio !== undefined && ratio !== null) {
      const cell = textCell(table, line, "relative", "left");
      assert.equal(relativeAgrees(cell, ratio, direction), true, `${w}: relative ${cell} for ${JSON.stringify(ratio)}`);
    }
  });

  // show: the round's table and the winner's line
  const showText = (await cli(["show", dir.path], { compute })).stdout;
  const head = showText.indexOf("\narm ");
  assert.ok(head > 0, `${at}: show's round table\n${showText}`);
  const rt = showText.slice(head + 1);
  const rtLines = rt.split("\n");
  assert.ok(rtLines[1]!.startsWith("baseline "), at);
  arms.forEach((a, i) => {
    const line = i + 2;
    const w = `${at}: show ${a.measure}`;
    assert.ok(rtLines[line]!.startsWith(`${a.measure} `), `${w}\n${rt}`);
    assert.equal(textCell(rt, line, "verdict", "left"), a.verdict, w);
    const state = textCell(rt, line, "state", "left");
    assert.equal(state === "decided: winner", a.winner, `${w}: ${state}`);
    assert.equal(state.startsWith(`dropped at pair ${a.pairs}`), a.dropped, `${w}: ${state}`);
    const cell = textCell(
      rt,
      line,
      a.stage === "screen" ? "screen (improvement)" : "confirmation (improvement)",
      "left",
    );
    const t = armText(cell);
    checkPrinted(w, t.mean, t.interval, a.shown.mean, a.interval);
    assert.equal(t.n, a.shown.n, w);
    assert.equal(t.range, range(a), w);
  });
  const named = /^(winner|no winner): (\S+)/m.exec(rt.split("\n").slice(arms.length + 2).join("\n"));
  assert.ok(named, `${at}: show names the winner or says there is none\n${rt}`);
  assert.equal(named[1] === "winner", winner !== null, `${at}: ${named[0]}`);
  if (winner !== null) assert.equal(named[2], arms[winner - 1]!.measure, at);
  assert.match(showText, new RegExp(`^verdict: ${d.verdict}$`, "m"), at);

  // Markdown: the heading names the winner; a row per estimate, the shown one agreeing
  const md = (await cli(["report", dir.path, "--md"], { compute })).stdout;
  const heading = md.split("\n")[0]!;
  assert.equal(
    heading.startsWith(
      `### \`toy\`: ${d.verdict}, ${winner === null ? "no winner" : `winner \`${arms[winner - 1]!.measure}\``}`,
    ),
    true,
    `${at}: ${heading}`,
  );
  const rows = mdRows(md).map(mdCells).filter((r) => /^`candidate(-\d+)?`/.test(r[0] ?? "") && r.length === 10);
  for (const a of arms) {
    const w = `${at}: Markdown ${a.measure}`;
    const mine = rows.filter((r) => r[0]!.startsWith(`\`${a.measure}\``));
    const row = mine.find((r) => r[5] === a.stage);
    assert.ok(row, `${w}: its ${a.stage} row\n${md}`);
    assert.equal(row[4], a.verdict, w);
    assert.equal(row[6], range(a), w);
    checkPrinted(w, row[7]!, row[8]!, a.shown.mean, a.interval);
    assert.ok(agrees(row[9]!, a.difference, Math.max(unitOf(row[7]!), unitOf(row[9]!))), `${w}: ${row[9]}`);
    assert.equal(mine.some((r) => r[0]!.includes("(winner)")), a.winner, `${w}: the winner marked`);
  }

  // HTML: the candidates chart's marks where the numbers say, the winner marked, the dropped greyed
  const file = join(root, "round.html");
  assert.equal((await cli(["report", dir.path, "--html", file], { compute })).code, 0, at);
  const html = readFileSync(file, "utf8");
  assert.match(html, new RegExp(`<span class="badge badge-${d.verdict}">${d.verdict}</span>`), at);
  const svg = svgById(html, "round-");
  assert.ok(svg !== "", `${at}: a candidates chart`);
  const zero = Number(elements(svg, (x) => x.attrs["class"] === "zero")[0]?.attrs["x1"]);
  const points = elements(svg, (x) => x.attrs["data-point"] === "improvement");
  const far = points.reduce((b, p) => (Math.abs(centreX(p) - zero) > Math.abs(centreX(b) - zero) ? p : b), points[0]!);
  const perUnit = Math.abs(centreX(far) - zero) < 20 ? null : (centreX(far) - zero) / Number(far.attrs["data-value"]);
  for (const a of arms) {
    const w = `${at}: HTML ${a.measure}`;
    const p = points.find((x) => x.attrs["data-arm"] === String(a.arm) && x.attrs["data-stage"] === a.stage);
    assert.ok(p, `${w}: its ${a.stage} marker`);
    assert.equal(Number(p.attrs["data-value"]), a.shown.mean, w);
    assert.ok((centreX(p) - zero) * a.shown.mean >= -1e-9, `${w}: on its side of zero`);
    if (perUnit !== null) {
      const predicted = zero + perUnit * a.shown.mean;
      assert.ok(Math.abs(centreX(p) - predicted) < 1, `${w}: at ${centreX(p)}, the numbers say ${predicted}`);
    }
    assert.equal(p.attrs["data-winner"] === "true", a.winner && a.stage === "confirmation", `${w}: winner mark`);
    assert.equal(p.attrs["data-dropped"] === "true", a.dropped, `${w}: dropped, greyed`);
    if (a.dropped) assert.equal(p.attrs["fill"], "#8c959f", `${w}: greyed`);
    const iv = elements(svg, (x) =>
      x.attrs["class"] === "interval" && x.attrs["data-arm"] === String(a.arm) && x.attrs["data-stage"] === a.stage)[0];
    if (a.interval === null) {
      assert.equal(iv, undefined, `${w}: no interval for one pair`);
    } else {
      assert.deepEqual(
        [Number(iv?.attrs["data-lower"]), Number(iv?.attrs["data-upper"])],
        [a.interval.lower, a.interval.upper],
        w,
      );
    }
  }
  assert.equal(points.filter((p) => p.attrs["data-winner"] === "true").length, winner === null ? 0 : 1, at);
}

/** The mean of every benchmark value of `arm` (0 the baseline) in `values`, as a loop would average them itself. */
function meanOfArm(values: Readonly<Record<string, number>>, arm: number): number | null {
  const stem = arm === 0 ? "baseline" : arm === 1 ? "candidate" : `candidate-${arm}`;
  const xs = Object.entries(values).filter(([k]) => k === stem || k.startsWith(`${stem}#`)).map(([, v]) => v);
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
}
