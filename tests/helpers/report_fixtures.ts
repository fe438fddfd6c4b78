/**
 * Runs and climbs for the report tests: a plain decided run to vary with
 * overrides, a run with repeats, a climb with every state, and a run whose
 * every name holds characters that break Markdown and HTML.
 */
import type { Climb, RunSummary } from "../../src/report/model.ts";

const BASE = "0123456789abcdef0123456789abcdef01234567";
const CAND = "fedcba9876543210fedcba9876543210fedcba98";

/**
 * A decided single-pair run of `pi` (maximize, min_effect 0.5) accepted at
 * 10 -> 12; vary it with `over`. Unless `over` gives them, the improvement
 * and the difference follow `differences.candidate` and the direction, as
 * run_summary.ts reads them from a single pair's decision (none without a
 * verdict).
 */
export function makeRun(over: Partial<RunSummary> = {}): RunSummary {
  const run: RunSummary = {
    runDir: "/runs/r1",
    tag: "r1",
    kind: "measure",
    createdAt: "2025-03-01T10:00:00Z",
    backend: "slurm",
    benchmark: "pi",
    metric: "score",
    unit: null,
    direction: "maximize",
    minEffect: 0.5,
    minEffectWritten: over.minEffect ?? 0.5,
    baseSha: BASE,
    candidateSha: CAND,
    label: "",
    state: "decided",
    verdict: "accept",
    values: { baseline: 10, candidate: 12 },
    differences: { candidate: 2 },
    improvement: null,
    difference: null,
    pairs: [{ baseline: 10, candidate: 12 }],
    reasons: ["The candidate improved on the baseline by 2, above min_effect 0.5: score 10 -> 12, delta 2."],
    decidedAt: "2025-03-01T10:12:05Z",
    wallSeconds: 725,
    failure: null,
    disputes: [],
    live: null,
    samples: {},
    round: null,
    ...over,
  };
  if ("improvement" in over || "difference" in over) return run;
  const d = run.verdict === null ? undefined : run.differences["candidate"];
  if (d === undefined) return { ...run, improvement: null, difference: null };
  return {
    ...run,
    improvement: { n: 1, mean: run.direction === "maximize" ? d : -d, interval: null, setAside: [] },
    difference: d,
  };
}

/** A run with five pairs (differences +1.2, +0.6, +1.1, +0.5, +1.1: mean +0.9), an interval, and a sibling `tsp`. */
export function repeatRun(over: Partial<RunSummary> = {}): RunSummary {
  const pairs = [
    { baseline: 10, candidate: 11.2 },
    { baseline: 10.4, candidate: 11 },
    { baseline: 9.8, candidate: 10.9 },
    { baseline: 10.1, candidate: 10.6 },
    { baseline: 10.2, candidate: 11.3 },
  ];
  const values: Record<string, number> = { "sib-tsp-base": 310, "sib-tsp-cand": 305 };
  const differences: Record<string, number> = { "sib-tsp": -5 };
  pairs.forEach((p, i) => {
    const suffix = i === 0 ? "" : `#${i + 1}`;
    values[`baseline${suffix}`] = p.baseline;
    values[`candidate${suffix}`] = p.candidate;
    differences[`candidate${suffix}`] = p.candidate - p.baseline;
  });
  return makeRun({
    tag: "r-repeat",
    values,
    differences,
    pairs,
    improvement: { n: 5, mean: 0.9, interval: { lower: 0.55, upper: 1.25, confidence: 0.95 }, setAside: [] },
    difference: 0.9,
    ...over,
  });
}

/**
 * A minimize run of 10 pairs (the candidate about 0.75 faster) whose pair 8
 * stalled — its candidate 17.4, a difference of +4.3 — and was set aside:
 * the improvement is the mean of the other nine (+0.75, interval
 * [+0.71, +0.79]), the difference its negation. Every benchmark measure
 * reported 7 samples (their median the value), pair 8's candidate up to 18.2.
 */
export function stalledRun(over: Partial<RunSummary> = {}): RunSummary {
  const noise = [0.02, -0.05, 0.08, -0.01, 0.04, -0.07, 0.03, 0, -0.04, 0.01];
  const pairs = noise.map((e, i) => {
    const baseline = Math.round((13 + 0.1 * Math.sin(i + 1)) * 1000) / 1000;
    return { baseline, candidate: i === 7 ? 17.4 : Math.round((baseline - 0.75 + e) * 1000) / 1000 };
  });
  const values: Record<string, number> = {};
  const differences: Record<string, number> = {};
  const samples: Record<string, { n: number; min: number; median: number; max: number }> = {};
  pairs.forEach((p, i) => {
    const suffix = i === 0 ? "" : `#${i + 1}`;
    values[`baseline${suffix}`] = p.baseline;
    values[`candidate${suffix}`] = p.candidate;
    differences[`candidate${suffix}`] = p.candidate - p.baseline;
    samples[`baseline${suffix}`] = { n: 7, min: p.baseline - 0.04, median: p.baseline, max: p.baseline + 0.21 };
    const top = i === 7 ? 18.2 : p.candidate + 0.19;
    samples[`candidate${suffix}`] = { n: 7, min: p.candidate - 0.05, median: p.candidate, max: top };
  });
  const kept = pairs.filter((_, i) => i !== 7).map((p) => p.baseline - p.candidate);
  const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
  return makeRun({
    tag: "r-stall",
    direction: "minimize",
    metric: "ms",
    minEffect: 0.3,
    values,
    differences,
    pairs,
    samples,
    improvement: {
      n: 10,
      mean,
      interval: { lower: mean - 0.037, upper: mean + 0.037, confidence: 0.95 },
      setAside: [8],
      setAsideWhy: "outlying by the generalized ESD test",
    },
    difference: -mean,
    reasons: [
      "The candidate improved on the baseline, above min_effect 0.3: ms mean improvement 0.75 over 9 of 10 pairs.",
    ],
    ...over,
  });
}

/** Eight runs, oldest first: accept, reject, inconclusive, a repeat run, failed, cancelled, accept, parked. */
export function climbFixture(): Climb {
  const at = (h: number) => `2025-03-0${1 + Math.floor(h / 24)}T${String(h % 24).padStart(2, "0")}:00:00Z`;
  const run = (i: number, over: Partial<RunSummary>) =>
    makeRun({ tag: `r${i}`, runDir: `/runs/r${i}`, createdAt: at(i * 5), decidedAt: at(i * 5 + 1), ...over });
  const decided = (base: number, cand: number, verdict: RunSummary["verdict"]) => ({
    values: { baseline: base, candidate: cand },
    differences: { candidate: cand - base },
    pairs: [{ baseline: base, candidate: cand }],
    verdict,
  });
  const open = { verdict: null, decidedAt: null, wallSeconds: null, reasons: [], differences: {} };
  return [
    run(1, decided(10, 12, "accept")),
    run(2, decided(12, 11.5, "reject")),
    run(3, decided(12, 12.3, "inconclusive")),
    climbRepeat(at(20), at(21)),
    run(5, { ...open, state: "failed", values: { baseline: 12.9 }, pairs: [], failure: "eval exited 1: boom" }),
    run(6, { ...open, state: "cancelled", values: {}, pairs: [] }),
    run(7, decided(12.9, 14.1, "accept")),
    run(8, { ...open, state: "parked", values: { baseline: 14.1 }, pairs: [] }),
  ];
}

/** `repeatRun` moved up by 2, as run 4 of `climbFixture` (its baseline is run 1's accepted candidate). */
function climbRepeat(createdAt: string, decidedAt: string): RunSummary {
  const r = repeatRun();
  const pairs = r.pairs.map((p) => ({ baseline: p.baseline + 2, candidate: p.candidate + 2 }));
  const values = Object.fromEntries(
    Object.entries(r.values).map(([k, v]) => [k, k.startsWith("sib-") ? v : v + 2]),
  );
  return { ...r, tag: "r4", runDir: "/runs/r4", createdAt, decidedAt, pairs, values };
}

/** A run whose names, tag, reasons and failure hold `<`, `&`, quotes, `|`, backticks and newlines. */
export function nastyRun(): RunSummary {
  return makeRun({
    tag: "t|<b>&\"'`x`",
    benchmark: "loss<val> & \"co\" | 'q'",
    metric: "m|<i>",
    values: { baseline: 1, candidate: 2, "sib-a<b>|c-base": 3, "sib-a<b>|c-cand": 4 },
    differences: { candidate: 1, "sib-a<b>|c": 1 },
    reasons: ["line one | <script>alert(1)</script> & *bold*\nline two"],
    failure: "no <failure> | here\nreally",
  });
}

/**
 * A decided round of three candidates (maximize, min_effect 0.5) against one
 * baseline on 6 pairs: the screen (pairs 1–2) dropped `candidate` (+0.1,
 * too far below min_effect: inconclusive) and `candidate-3` (−1: rejected)
 * and chose `candidate-2`, which its confirmation on pairs 3–6 accepted at
 * +1.9 [+1.4, +2.4] 97.5%: the winner. `refs` names the candidates (c1, c2,
 * c3 by default).
 */
export function roundSummaryRun(over: Partial<RunSummary> = {}, refs = ["c1", "c2", "c3"]): RunSummary {
  const shas = [CAND, "1".repeat(40), "2".repeat(40)];
  const base = [10.2, 10, 9.9, 10.1, 10.05, 9.8];
  const values: Record<string, number> = {};
  const differences: Record<string, number> = {};
  base.forEach((b, i) => {
    const s = i === 0 ? "" : `#${i + 1}`;
    values[`baseline${s}`] = b;
    const arms: [string, number][] = i < 2 ? [["candidate", 0.1], ["candidate-2", 2], ["candidate-3", -1]] : [
      ["candidate-2", 1.9 + (i % 2 === 0 ? 0.1 : -0.2)],
    ];
    for (const [name, effect] of arms) {
      values[`${name}${s}`] = b + effect;
      differences[`${name}${s}`] = effect;
    }
  });
  const est = (n: number, mean: number, lower: number, upper: number, confidence: number) => ({
    n,
    mean,
    interval: { lower, upper, confidence },
    setAside: [],
  });
  const arm = (e: { mean: number; lower: number; upper: number }, first: number, last: number) => ({
    estimate: est(last - first + 1, e.mean, e.lower, e.upper, first === 1 ? 0.95 : 0.975),
    firstPair: first,
    lastPair: last,
    difference: e.mean,
    baseline: base.slice(first - 1, last).reduce((a, b) => a + b, 0) / (last - first + 1),
    candidate: base.slice(first - 1, last).reduce((a, b) => a + b, 0) / (last - first + 1) + e.mean,
  });
  const winner = arm({ mean: 1.9, lower: 1.4, upper: 2.4 }, 3, 6);
  return makeRun({
    tag: "r-round",
    values,
    differences,
    pairs: [],
    improvement: winner.estimate,
    difference: 1.9,
    reasons: ["A round of 3 candidates against one baseline, screened then confirmed.", "Candidate 2 wins the round."],
    round: {
      baseRef: "main",
      open: false,
      n: 6,
      winner: 2,
      next: null,
      arms: [
        {
          arm: 1,
          measure: "candidate",
          ref: refs[0]!,
          sha: shas[0]!,
          label: "",
          verdict: "inconclusive",
          standing: "dropped",
          because: "hopeless",
          winner: false,
          pairs: 2,
          screen: arm({ mean: 0.1, lower: -0.3, upper: 0.5 }, 1, 2),
          confirmation: null,
          siblings: [],
          reason: "Dropped by the screen: mean improvement 0.1 over 2 screen pairs.",
        },
        {
          arm: 2,
          measure: "candidate-2",
          ref: refs[1]!,
          sha: shas[1]!,
          label: "",
          verdict: "accept",
          standing: "decided",
          because: "accepted",
          winner: true,
          pairs: 6,
          screen: arm({ mean: 2, lower: 1.6, upper: 2.4 }, 1, 2),
          confirmation: winner,
          siblings: [],
          reason: "The candidate improved on the baseline, above min_effect 0.5.",
        },
        {
          arm: 3,
          measure: "candidate-3",
          ref: refs[2]!,
          sha: shas[2]!,
          label: "",
          verdict: "reject",
          standing: "dropped",
          because: "hopeless",
          winner: false,
          pairs: 2,
          screen: arm({ mean: -1, lower: -1.4, upper: -0.6 }, 1, 2),
          confirmation: null,
          siblings: [],
          reason: "Dropped by the screen: mean improvement -1 over 2 screen pairs.",
        },
      ],
    },
    ...over,
  });
}

/** The relative change (candidate / baseline) of a time saved `mean` [lower, upper] s on a 1.25 s baseline; null past 1.25 s. */
function ratioOf(mean: number, lower: number, upper: number) {
  const r = (saved: number) => (1.25 - saved) / 1.25;
  return upper >= 1.25 ? null : { mean: r(mean), lower: r(upper), upper: r(lower), confidence: 0.95 };
}

/** One candidate of `timingRound`: its improvement estimate on its pairs, and whether it won or was dropped. */
interface TimingArm {
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
  readonly winner?: boolean;
}

/**
 * A round of a timing benchmark (minimize `parse_seconds`, baseline 1.25 s):
 * every arm's estimate as given; the winner (if any) accepted on its
 * confirmation, every other arm dropped by the screen on its two pairs.
 */
function timingRound(tag: string, createdAt: string, arms: readonly TimingArm[]): RunSummary {
  const est = (a: TimingArm) => ({
    estimate: {
      n: a.n,
      mean: a.mean,
      interval: { lower: a.lower, upper: a.upper, confidence: 0.95 },
      setAside: [],
    },
    firstPair: a.winner ? 3 : 1,
    lastPair: a.winner ? 2 + a.n : a.n,
    difference: -a.mean,
    baseline: 1.25,
    candidate: 1.25 - a.mean,
    relative: ratioOf(a.mean, a.lower, a.upper),
  });
  const winner = arms.findIndex((a) => a.winner === true);
  const w = winner < 0 ? null : est(arms[winner]!);
  return makeRun({
    tag,
    runDir: `/runs/${tag}`,
    createdAt,
    decidedAt: createdAt.replace(":00:00Z", ":40:00Z"),
    benchmark: "parser",
    metric: "parse_seconds",
    direction: "minimize",
    minEffect: 0.02,
    verdict: w === null ? "reject" : "accept",
    values: { baseline: 1.25 },
    differences: {},
    pairs: [],
    improvement: w?.estimate ?? null,
    relative: w?.relative ?? null,
    difference: w === null ? null : w.difference,
    reasons: [w === null ? "No candidate of the round improved." : `Candidate ${winner + 1} wins the round.`],
    round: {
      baseRef: "main",
      open: false,
      n: w === null ? 2 : 2 + w.estimate.n,
      winner: w === null ? null : winner + 1,
      next: null,
      arms: arms.map((a, i) => ({
        arm: i + 1,
        measure: i === 0 ? "candidate" : `candidate-${i + 1}`,
        ref: `c${i + 1}`,
        sha: String(i + 1).repeat(40),
        label: "",
        verdict: a.winner ? "accept" : "inconclusive",
        standing: a.winner ? "decided" : "dropped",
        because: a.winner ? "accepted" : "behind",
        winner: a.winner === true,
        pairs: a.winner ? 2 + a.n : 2,
        screen: a.winner ? { ...est({ ...a, n: 2 }), firstPair: 1, lastPair: 2 } : est(a),
        confirmation: a.winner ? est(a) : null,
        siblings: [],
        reason: a.winner ? "The candidate improved on the baseline." : "Dropped by the screen: behind the leader.",
      })),
    },
  });
}

/**
 * A climb of a timing benchmark as an automated loop makes it: rounds of
 * three or four candidates whose winners gain 0.04 to 0.09 s (min_effect
 * 0.02 s), beside runs of one; the candidates the screen dropped carry
 * two-pair screen intervals about ±14 s wide — a hundred times the winners'.
 * Every estimate carries its relative change, but the dropped candidates'
 * (whose intervals reach past the baseline's whole time).
 */
export function timingClimb(): Climb {
  const wide = (mean: number): TimingArm => ({ mean, lower: mean - 14, upper: mean + 14, n: 2 });
  const one = (tag: string, createdAt: string, verdict: RunSummary["verdict"], mean: number, half: number) =>
    makeRun({
      tag,
      runDir: `/runs/${tag}`,
      createdAt,
      decidedAt: createdAt.replace(":00:00Z", ":20:00Z"),
      benchmark: "parser",
      metric: "parse_seconds",
      direction: "minimize",
      minEffect: 0.02,
      verdict,
      values: { baseline: 1.25, candidate: 1.25 - mean },
      differences: { candidate: -mean },
      pairs: [{ baseline: 1.25, candidate: 1.25 - mean }],
      improvement: {
        n: 10,
        mean,
        interval: { lower: mean - half, upper: mean + half, confidence: 0.95 },
        setAside: [],
      },
      relative: ratioOf(mean, mean - half, mean + half),
      difference: -mean,
    });
  return [
    one("r1", "2026-02-01T10:00:00Z", "accept", 0.05, 0.02),
    timingRound("r2", "2026-02-01T11:00:00Z", [wide(-0.3), {
      mean: 0.04,
      lower: 0.025,
      upper: 0.055,
      n: 6,
      winner: true,
    }, wide(0.8)]),
    timingRound("r3", "2026-02-01T12:00:00Z", [wide(0.5), wide(-1.2), {
      mean: 0.09,
      lower: 0.06,
      upper: 0.12,
      n: 6,
      winner: true,
    }, wide(0.2)]),
    one("r4", "2026-02-01T13:00:00Z", "reject", -0.01, 0.02),
    timingRound("r5", "2026-02-01T14:00:00Z", [wide(0.1), wide(-0.6), wide(0.3)]),
  ];
}

/**
 * A calibration run (`outerloop calibrate`: the base against itself) of a
 * timing benchmark (minimize `t`) on 6 A/A pairs with its calibration.json
 * as read (`calibration`); `biased` moves every second measure 0.05 lower,
 * so its interval excludes 0. Its contract's min_effect (0.5) is not the
 * suggestion (0.03).
 */
export function calibrationRun(biased = false, over: Partial<RunSummary> = {}): RunSummary {
  const first = [1.2, 1.22, 1.19, 1.21, 1.2, 1.23];
  const shift = [0.01, -0.012, 0.004, -0.006, 0.009, -0.003].map((d) => d - (biased ? 0.05 : 0));
  const values: Record<string, number> = {};
  first.forEach((v, i) => {
    const s = i === 0 ? "" : `#${i + 1}`;
    values[`baseline${s}`] = v;
    values[`candidate${s}`] = v + shift[i]!;
  });
  const differences = first.map((v, i) => values[`candidate${i === 0 ? "" : `#${i + 1}`}`]! - v);
  const improvements = differences.map((d) => -d);
  const mean = improvements.reduce((a, b) => a + b, 0) / improvements.length;
  const half = 0.0095;
  return makeRun({
    tag: "cal",
    runDir: "/runs/cal",
    kind: "calibrate",
    benchmark: "parser",
    metric: "t",
    direction: "minimize",
    minEffect: 0.5,
    candidateSha: BASE,
    state: "calibrated",
    verdict: null,
    values,
    differences: {},
    improvement: null,
    difference: null,
    pairs: [],
    reasons: [],
    calibration: {
      baseSha: BASE,
      runIdentity: "a".repeat(40),
      calibratedAt: "2025-03-01T10:12:05Z",
      benchmark: "parser",
      metric: "t",
      direction: "minimize",
      confidence: 0.95,
      n: 6,
      mean,
      lower: mean - half,
      upper: mean + half,
      sd: 0.0089,
      biased,
      detectable: [{ pairs: 3, effect: 0.031 }, { pairs: 5, effect: 0.019 }, { pairs: 10, effect: 0.012 }],
      siblings: {},
      suggestion: { minEffect: 0.03, repeats: 4, maxRepeats: 12, siblings: {} },
      derivation: "min_effect 0.03: the smallest systematic difference this A/A check finds with 80% power.",
      relativeSuggestion: null,
      seeds: [11, 12, 13, 14, 15, 16],
      values,
      differences,
    },
    ...over,
  });
}

/** The crash of `crashedRun` and `crashedRound`: eval exited 1, its log ending in a traceback with `<`, `|` and backticks. */
export const CRASH = {
  measure: "candidate#2",
  cause: "eval exited with code 1",
  jobId: "4242_1",
  logTail: 'Traceback (most recent call last):\n  File "bench.py", line 3, in <module>\nValueError: bad | `input`\n',
} as const;

/** A run of one candidate whose eval crashed on pair 2 (verdict `crashed`): the baseline measured, no estimate. */
export function crashedRun(over: Partial<RunSummary> = {}): RunSummary {
  return makeRun({
    tag: "r-crash",
    verdict: "crashed",
    values: { baseline: 10, candidate: 12, "baseline#2": 10.1 },
    differences: {},
    improvement: null,
    difference: null,
    pairs: [{ baseline: 10, candidate: 12 }],
    reasons: ["The candidate crashed: eval exited with code 1 (candidate#2)."],
    crash: CRASH,
    ...over,
  });
}

/**
 * `roundSummaryRun` whose third candidate crashed on the screen's second
 * pair: verdict `crashed`, dropped, its screen estimate from pair 1 alone
 * (when `estimate`) or none; the others went on to their verdicts.
 */
export function crashedRound(estimate = true): RunSummary {
  const r = roundSummaryRun({ tag: "r-round-crash" });
  const arms = r.round!.arms.map((a) =>
    a.arm !== 3 ? a : {
      ...a,
      verdict: "crashed" as const,
      because: "crashed",
      pairs: 1,
      screen: estimate
        ? {
          ...a.screen!,
          estimate: { n: 1, mean: -1, interval: null, setAside: [] },
          lastPair: 1,
        }
        : null,
      crash: { ...CRASH, measure: "candidate-3#2" },
      reason: "It crashed: eval exited with code 1 (candidate-3#2).",
    }
  );
  const values = Object.fromEntries(Object.entries(r.values).filter(([k]) => k !== "candidate-3#2"));
  return { ...r, values, round: { ...r.round!, arms } };
}
