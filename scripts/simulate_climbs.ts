/**
 * The verdict under noise, measured end to end: climbs with the compiled
 * binary on the local backend, against a synthetic benchmark whose value is
 *
 *   100 + the commit's true effect + 20·Z(seed) + 2·noise()
 *
 * — a large seed-dependent term (the same for both sides of a pair: common
 * random numbers cancel it) and a small per-run noise, normal or heavy-tailed
 * (Student t with 3 df, scaled to the same sd). Each climb is one
 * `outerloop measure` of a candidate against the base, on its own run seed.
 * For today's rule (one pair) and the defaults (repeats 4, max_repeats 12,
 * sequential stopping) it reports the false-accept rate (no true effect), the
 * accept rate at a true effect of 5 (min_effect 1), and the mean pairs used.
 * The in-process simulation (scripts/simulate_verdict.ts) varies direction,
 * scale and design far more widely; this one proves the wired-in binary.
 *
 * A second experiment times a synthetic benchmark on a shared cluster, as
 * the contract's `pairing` sees it: each JOB runs on a "node" whose speed
 * factor is its own (log-normal, σ 10%, drawn from the job's id,
 * OUTERLOOP_JOB_ID — one for both measures of a same-job pair), within-job
 * noise 1%, a true speed-up of 3% (or none), optionally with 10% of runs
 * stalled 3× longer; `minimize`, min_effect 1 (1% of the base's 100). It
 * compares `separate` (each measure its own job, so each its own node) with
 * `same-job` (a pair in one job) at repeats 4 / max_repeats 12.
 *
 * A third runs rounds (`measure --candidate …` K times) of the first model's
 * benchmark: K = 2 and 4 candidates, none with an effect, or one with 4.6 (the
 * effect a single run of the 4/12 design accepts 90% of the time) beside K − 1
 * without: how often the round names a false winner, how often the true best
 * wins, and the measures used (scripts/simulate_rounds.ts has the in-process
 * comparison with K independent runs).
 *
 * A fourth runs two cells of issue 31's family of outlier models
 * (scripts/simulate_outliers.ts) through the binary: per-run sd 1, a true
 * effect of 3, each measure of the affected side(s) moved by `size` sd against
 * it with probability 10% (the arm a tree is, from its `arm` file); today's
 * rule, and the calibrated fence with the `noise` that `outerloop calibrate`
 * (20 A/A pairs of the base, through the binary, once per cell) suggests. It
 * reports accepts at the effect and false accepts at exactly min_effect, with
 * the mean pairs, beside the in-process figures of bench/verdict_outliers.json.
 *
 * Usage: deno run -A scripts/simulate_climbs.ts [--climbs N] [--jobs J] [--only noise|pairing|rounds|outliers]
 * Writes bench/verdict_climbs.json.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "../src/runtime/spawn.ts";

const root = join(import.meta.dirname!, "..");
const arg = (flag: string, fallback: number) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLIMBS = arg("--climbs", 200);
const ONLY = (() => {
  const i = process.argv.indexOf("--only");
  return i > 0 ? process.argv[i + 1] : null;
})();
/** Whether this run does the experiment (all of them without --only). */
const wants = (experiment: "noise" | "pairing" | "rounds" | "outliers") => ONLY === null || ONLY === experiment;
const JOBS = arg("--jobs", 2);
const binary = process.env["OUTERLOOP_BINARY"] ?? join(root, "dist", "outerloop");

/**
 * The timing benchmark: the node factor from the job's id (the same job, the
 * same node), the within-job noise and the stall from /dev/urandom.
 */
const TIMING = `#!/bin/sh
stalls=$1
speedup=$(cat speedup)
noise_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
node_seed=$(printf '%s' "$OUTERLOOP_JOB_ID" | cksum | cut -d' ' -f1)
awk -v ns="$noise_seed" -v node="$node_seed" -v speedup="$speedup" -v stalls="$stalls" '
function z() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
BEGIN {
  srand(node); f = exp(0.1 * z())
  srand(ns); n = z(); stall = (stalls == "stalls" && rand() < 0.1) ? 3 : 1
  printf "{\\"ms\\": %.9f}\\n", 100 * (1 - speedup) * f * (1 + 0.01 * n) * stall
}'
`;

/** The benchmark: awk draws Z from the seed, the noise from /dev/urandom. */
const BENCH = `#!/bin/sh
shape=$1
effect=$(cat effect)
noise_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
awk -v seed="$BENCH_SEED" -v ns="$noise_seed" -v effect="$effect" -v shape="$shape" '
function z() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
BEGIN {
  srand(seed); s = z()
  srand(ns); n = z()
  if (shape == "t3") { c = z()^2 + z()^2 + z()^2; n = n / sqrt(c / 3) / sqrt(3) }
  printf "{\\"score\\": %.9f}\\n", 100 + effect + 20 * s + 2 * n
}'
`;

/**
 * The outlier family's benchmark: `sh outliers.sh SIDE RATE SIZE DIRECTION`; the seed term from the seed, the
 * per-run noise (sd 1) and the outlier from /dev/urandom; the tree's effect and arm from its files.
 */
const OUTLIERS = `#!/bin/sh
effect=$(cat effect)
arm=$(cat arm)
noise_seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
awk -v seed="$BENCH_SEED" -v ns="$noise_seed" -v effect="$effect" -v arm="$arm" -v side="$1" -v rate="$2" \\
  -v size="$3" -v dir="$4" '
function z() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
BEGIN {
  srand(seed); s = z()
  srand(ns); n = z(); hit = (side == "both" || side == arm) && rand() < rate
  sign = dir == "maximize" ? 1 : -1
  printf "{\\"score\\": %.9f}\\n", 100 + 20 * s + sign * (effect + n - (hit ? size : 0))
}'
`;

function git(cwd: string, ...args: string[]) {
  return spawn({
    argv: ["git", ...args],
    cwd,
    env: {
      PATH: "/usr/bin:/bin",
      HOME: cwd,
      GIT_AUTHOR_NAME: "sim",
      GIT_AUTHOR_EMAIL: "sim@example.invalid",
      GIT_COMMITTER_NAME: "sim",
      GIT_COMMITTER_EMAIL: "sim@example.invalid",
    },
  }).then((r) => {
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    return r.stdout.trim();
  });
}

const work = join(tmpdir(), `outerloop-sim-${process.pid}`);
mkdirSync(work, { recursive: true });
const repo = join(work, "repo");
mkdirSync(repo);
await git(repo, "init", "-q", "-b", "main");
writeFileSync(join(repo, "bench.sh"), BENCH);
writeFileSync(join(repo, "effect"), "0\n");
writeFileSync(join(repo, "timing.sh"), TIMING);
writeFileSync(join(repo, "speedup"), "0\n");
writeFileSync(join(repo, "outliers.sh"), OUTLIERS);
writeFileSync(join(repo, "arm"), "baseline\n");
await git(repo, "add", "-A");
await git(repo, "commit", "-q", "-m", "base");
const base = await git(repo, "rev-parse", "HEAD");
writeFileSync(join(repo, "NOTE"), "a change that does nothing\n");
await git(repo, "add", "-A");
await git(repo, "commit", "-q", "-m", "no effect");
const noEffect = await git(repo, "rev-parse", "HEAD");
writeFileSync(join(repo, "effect"), "5\n");
await git(repo, "commit", "-q", "-am", "effect 5");
const effect = await git(repo, "rev-parse", "HEAD");
await git(repo, "checkout", "-q", noEffect);
writeFileSync(join(repo, "speedup"), "0.03\n");
await git(repo, "commit", "-q", "-am", "3% faster");
const faster = await git(repo, "rev-parse", "HEAD");
// a round's candidates: four without an effect (each its own tree) and one of 4.6
const nulls: string[] = [];
for (let i = 1; i <= 4; i++) {
  await git(repo, "checkout", "-q", base);
  writeFileSync(join(repo, "NOTE"), `no effect ${i}\n`);
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", `no effect ${i}`);
  nulls.push(await git(repo, "rev-parse", "HEAD"));
}
await git(repo, "checkout", "-q", base);
writeFileSync(join(repo, "effect"), "4.6\n");
await git(repo, "commit", "-q", "-am", "effect 4.6");
const winner = await git(repo, "rev-parse", "HEAD");
/** The outlier family's candidates by true effect: each a tree of the candidate's arm. */
const outlierTrees = new Map<number, string>();
for (const eff of [0, 0.45, 3]) {
  await git(repo, "checkout", "-q", base);
  writeFileSync(join(repo, "arm"), "candidate\n");
  writeFileSync(join(repo, "effect"), `${eff}\n`);
  await git(repo, "commit", "-q", "-am", `outliers: candidate of effect ${eff}`);
  outlierTrees.set(eff, await git(repo, "rev-parse", "HEAD"));
}
await git(repo, "checkout", "-q", base);

/** Each cell's contract file, written once before any climb reads it. */
function contract(shape: string, rule: "today" | "defaults"): string {
  return join(work, `contract-${shape}-${rule}.json`);
}

function writeContract(shape: string, rule: "today" | "defaults"): void {
  const file = contract(shape, rule);
  const c: Record<string, unknown> = {
    name: "sim",
    command: `sh bench.sh ${shape}`,
    metric: "score",
    direction: "maximize",
    seed_env: "BENCH_SEED",
    min_effect: 1,
    eval_minutes: 5,
  };
  if (rule === "defaults") Object.assign(c, { repeats: 4, max_repeats: 12 });
  writeFileSync(file, JSON.stringify(c));
}

interface Cell {
  shape: string;
  rule: "today" | "defaults" | "separate" | "same-job";
  effect: 0 | 5 | 3;
  accepts: number;
  pairs: number;
  climbs: number;
  errors: number;
}

async function climb(cell: Cell, i: number): Promise<void> {
  const runDir = join(work, "climbs", `${cell.shape}-${cell.rule}-${cell.effect}`, `run-${i}`);
  const r = await spawn({
    argv: [
      binary,
      "measure",
      "--compute",
      "local",
      "--repo",
      repo,
      "--base",
      base,
      "--candidate",
      cell.effect === 0 ? noEffect : cell.effect === 3 ? faster : effect,
      "--contract",
      cellContract(cell),
      "--run-dir",
      runDir,
      "--seed",
      String(1000 + i),
      "--json",
    ],
    env: { PATH: "/usr/bin:/bin", HOME: work },
    timeoutMs: 600_000,
  });
  if (r.exitCode !== 0 && r.exitCode !== 10 && r.exitCode !== 11) {
    cell.errors++;
    process.stderr.write(`climb ${runDir} exited ${r.exitCode}: ${r.stderr.slice(-400)}\n`);
    return;
  }
  cell.climbs++;
  if (r.exitCode === 0) cell.accepts++;
  const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  cell.pairs += d.n ?? 1;
  rmSync(runDir, { recursive: true, force: true });
}

/** The timing experiment's contract of a pairing and noise. */
function timingContract(stalls: string, pairing: "separate" | "same-job"): string {
  const file = join(work, `contract-timing-${stalls}-${pairing}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: "timing",
      command: `sh timing.sh ${stalls}`,
      metric: "ms",
      direction: "minimize",
      min_effect: 1,
      eval_minutes: 5,
      repeats: 4,
      max_repeats: 12,
      pairing,
    }),
  );
  return file;
}

function cellContract(c: Cell): string {
  return c.rule === "separate" || c.rule === "same-job"
    ? join(work, `contract-timing-${c.shape}-${c.rule}.json`)
    : contract(c.shape, c.rule);
}

const cells: Cell[] = [];
if (wants("noise")) {
  for (const shape of ["normal", "t3"]) {
    for (const rule of ["today", "defaults"] as const) {
      for (const eff of [0, 5] as const) {
        cells.push({ shape, rule, effect: eff, accepts: 0, pairs: 0, climbs: 0, errors: 0 });
        writeContract(shape, rule);
      }
    }
  }
}
if (wants("pairing")) {
  for (const stalls of ["clean", "stalls"]) {
    for (const pairing of ["separate", "same-job"] as const) {
      timingContract(stalls, pairing);
      for (const eff of [0, 3] as const) {
        cells.push({ shape: stalls, rule: pairing, effect: eff, accepts: 0, pairs: 0, climbs: 0, errors: 0 });
      }
    }
  }
}
interface RoundCell {
  k: number;
  scenario: "no effect" | "one winner";
  rounds: number;
  falseWinners: number;
  bestWins: number;
  measures: number;
  errors: number;
}

async function roundClimb(cell: RoundCell, i: number): Promise<void> {
  const runDir = join(work, "rounds", `${cell.k}-${cell.scenario.replace(" ", "-")}`, `run-${i}`);
  const candidates = cell.scenario === "no effect" ? nulls.slice(0, cell.k) : [winner, ...nulls.slice(0, cell.k - 1)];
  const r = await spawn({
    argv: [binary, "measure", "--compute", "local", "--repo", repo, "--base", base]
      .concat(candidates.flatMap((c) => ["--candidate", c]))
      .concat([
        "--contract",
        contract("normal", "defaults"),
        "--run-dir",
        runDir,
        "--seed",
        String(5000 + i),
        "--json",
      ]),
    env: { PATH: "/usr/bin:/bin", HOME: work },
    timeoutMs: 600_000,
  });
  if (r.exitCode !== 0 && r.exitCode !== 10 && r.exitCode !== 11) {
    cell.errors++;
    process.stderr.write(`round ${runDir} exited ${r.exitCode}: ${r.stderr.slice(-400)}\n`);
    return;
  }
  cell.rounds++;
  const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  const arm = d.round?.winner?.arm ?? null;
  if (arm !== null && (cell.scenario === "no effect" || arm !== 1)) cell.falseWinners++;
  if (arm === 1 && cell.scenario === "one winner") cell.bestWins++;
  cell.measures += Object.keys(d.values).length;
  rmSync(runDir, { recursive: true, force: true });
}

const roundCells: RoundCell[] = [];
if (wants("rounds")) {
  writeContract("normal", "defaults");
  for (const k of [2, 4]) {
    for (const scenario of ["no effect", "one winner"] as const) {
      roundCells.push({ k, scenario, rounds: 0, falseWinners: 0, bestWins: 0, measures: 0, errors: 0 });
    }
  }
}

/** A cell of issue 31's family, under one rule, at one true effect. */
interface OutlierCell {
  family: string;
  rule: "today" | "calibrated";
  effect: number;
  accepts: number;
  pairs: number;
  climbs: number;
  errors: number;
}

/** The two cells of the family run through the binary: the trial (maximize, both sides, ×12) and a ×8 one. */
const FAMILY = [
  {
    family: "3/9 maximize me0.15 both 10% ×12",
    repeats: 3,
    max: 9,
    direction: "maximize",
    minEffect: 0.45,
    side: "both",
    size: 12,
  },
  {
    family: "4/12 minimize me0 candidate 10% ×8",
    repeats: 4,
    max: 12,
    direction: "minimize",
    minEffect: 0,
    side: "candidate",
    size: 8,
  },
] as const;

function outlierContract(f: (typeof FAMILY)[number], rule: "today" | "calibrated"): string {
  return join(work, `contract-outliers-${FAMILY.indexOf(f)}-${rule}.json`);
}

async function writeOutlierContracts(f: (typeof FAMILY)[number]): Promise<{ sd: number; pairs: number }> {
  const c = {
    name: "outliers",
    command: `sh outliers.sh ${f.side} 0.1 ${f.size} ${f.direction}`,
    metric: "score",
    direction: f.direction,
    seed_env: "BENCH_SEED",
    min_effect: f.minEffect,
    eval_minutes: 5,
    repeats: f.repeats,
    max_repeats: f.max,
  };
  writeFileSync(outlierContract(f, "today"), JSON.stringify(c));
  // one A/A calibration of 20 pairs through the binary, as a user would run once before a climb
  const runDir = join(work, "calibrations", String(FAMILY.indexOf(f)));
  const r = await spawn({
    argv: [
      binary,
      "calibrate",
      "--compute",
      "local",
      "--repo",
      repo,
      "--base",
      base,
      "--contract",
      outlierContract(f, "today"),
      "--run-dir",
      runDir,
      "--pairs",
      "20",
      "--seed",
      String(31 + FAMILY.indexOf(f)),
      "--json",
    ],
    env: { PATH: "/usr/bin:/bin", HOME: work },
    timeoutMs: 1_800_000,
  });
  if (r.exitCode !== 0) throw new Error(`calibrate exited ${r.exitCode}: ${r.stderr.slice(-400)}`);
  const noise = JSON.parse(readFileSync(join(runDir, "calibration.json"), "utf8")).suggestion.noise;
  writeFileSync(outlierContract(f, "calibrated"), JSON.stringify({ ...c, noise }));
  return noise;
}

async function outlierClimb(f: (typeof FAMILY)[number], cell: OutlierCell, i: number): Promise<void> {
  const runDir = join(work, "outliers", `${FAMILY.indexOf(f)}-${cell.rule}-${cell.effect}`, `run-${i}`);
  const r = await spawn({
    argv: [
      binary,
      "measure",
      "--compute",
      "local",
      "--repo",
      repo,
      "--base",
      base,
      "--candidate",
      outlierTrees.get(cell.effect)!,
      "--contract",
      outlierContract(f, cell.rule),
      "--run-dir",
      runDir,
      "--seed",
      String(9000 + i),
      "--json",
    ],
    env: { PATH: "/usr/bin:/bin", HOME: work },
    timeoutMs: 600_000,
  });
  if (r.exitCode !== 0 && r.exitCode !== 10 && r.exitCode !== 11) {
    cell.errors++;
    process.stderr.write(`climb ${runDir} exited ${r.exitCode}: ${r.stderr.slice(-400)}\n`);
    return;
  }
  cell.climbs++;
  if (r.exitCode === 0) cell.accepts++;
  const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  cell.pairs += d.n ?? 1;
  rmSync(runDir, { recursive: true, force: true });
}

const started = Date.now();
const outlierRows: Record<string, unknown>[] = [];
if (wants("outliers")) {
  for (const f of FAMILY) {
    const noise = await writeOutlierContracts(f);
    for (const rule of ["today", "calibrated"] as const) {
      const row: Record<string, unknown> = { cell: f.family, rule, noise: rule === "calibrated" ? noise : null };
      for (const eff of [3, f.minEffect]) {
        const cell: OutlierCell = { family: f.family, rule, effect: eff, accepts: 0, pairs: 0, climbs: 0, errors: 0 };
        const queue = Array.from({ length: CLIMBS }, (_, i) => i);
        await Promise.all(Array.from({ length: JOBS }, async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) await outlierClimb(f, cell, i);
        }));
        const key = eff === 3 ? "effect_3" : "at_min_effect";
        row[key] = {
          accepts: cell.accepts,
          climbs: cell.climbs,
          errors: cell.errors,
          mean_pairs: Math.round((cell.pairs / Math.max(1, cell.climbs)) * 100) / 100,
        };
        process.stderr.write(`${f.family} ${rule} effect ${eff}: ${cell.accepts}/${cell.climbs} accepted\n`);
      }
      outlierRows.push(row);
    }
  }
}
for (const cell of cells) {
  const queue = Array.from({ length: CLIMBS }, (_, i) => i);
  await Promise.all(Array.from({ length: JOBS }, async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) await climb(cell, i);
  }));
  process.stderr.write(`${cell.shape} ${cell.rule} effect ${cell.effect}: ${cell.accepts}/${cell.climbs} accepted\n`);
}
for (const cell of roundCells) {
  const queue = Array.from({ length: CLIMBS }, (_, i) => i);
  await Promise.all(Array.from({ length: JOBS }, async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) await roundClimb(cell, i);
  }));
  process.stderr.write(
    `round K ${cell.k} ${cell.scenario}: ${cell.bestWins}/${cell.rounds} best, ${cell.falseWinners} false\n`,
  );
}
rmSync(work, { recursive: true, force: true });

const rate = (c: Cell) => Math.round((c.accepts / Math.max(1, c.climbs)) * 10000) / 100;
const mean = (c: Cell) => Math.round((c.pairs / Math.max(1, c.climbs)) * 100) / 100;
const find = (shape: string, rule: string, eff: number) =>
  cells.find((c) => c.shape === shape && c.rule === rule && c.effect === eff)!;
const summary = !wants("noise")
  ? []
  : ["normal", "t3"].flatMap((shape) =>
    (["today", "defaults"] as const).map((rule) => ({
      noise: shape,
      rule: rule === "today" ? "repeats 1 (today's rule)" : "repeats 4, max_repeats 12 (sequential)",
      false_accept_pct: rate(find(shape, rule, 0)),
      accept_at_effect_5_pct: rate(find(shape, rule, 5)),
      mean_pairs_no_effect: mean(find(shape, rule, 0)),
      mean_pairs_effect_5: mean(find(shape, rule, 5)),
    }))
  );
const pairing = !wants("pairing")
  ? []
  : ["clean", "stalls"].flatMap((stalls) =>
    (["separate", "same-job"] as const).map((p) => ({
      noise: stalls === "clean" ? "node σ 10%, within-job 1%" : "the same, 10% of runs stalled 3x",
      pairing: p,
      false_accept_pct: rate(find(stalls, p, 0)),
      accept_at_3pct_speedup_pct: rate(find(stalls, p, 3)),
      mean_pairs_no_effect: mean(find(stalls, p, 0)),
      mean_pairs_speedup: mean(find(stalls, p, 3)),
    }))
  );
const pct = (x: number, n: number) => Math.round((x / Math.max(1, n)) * 10000) / 100;
const rounds = roundCells.map((c) => ({
  k: c.k,
  scenario: c.scenario,
  false_winner_pct: pct(c.falseWinners, c.rounds),
  best_wins_pct: c.scenario === "one winner" ? pct(c.bestWins, c.rounds) : null,
  mean_measures: Math.round((c.measures / Math.max(1, c.rounds)) * 10) / 10,
}));
const out = join(root, "bench", "verdict_climbs.json");
// a partial run (--only) keeps the other experiment's figures from the last full one
let kept: Record<string, unknown> = {};
try {
  kept = JSON.parse(readFileSync(out, "utf8"));
} catch { /* first run */ }
const results = {
  ...kept,
  ...(!wants("noise") ? {} : {
    what: "climbs through the compiled binary, local backend: value = 100 + effect + 20*Z(seed) + 2*noise, " +
      "min_effect 1, true effect 5",
    summary,
  }),
  ...(!wants("pairing") ? {} : {
    pairing_what: "timing through the compiled binary, local backend: ms = 100 * (1 - speedup) * node(job) * " +
      "(1 + 0.01 z) [* 3 for 10% of runs], node(job) log-normal sigma 0.1 per job, minimize, min_effect 1, " +
      "repeats 4 / max_repeats 12",
    pairing,
  }),
  ...(!wants("outliers") ? {} : {
    outliers_what: "issue 31's family through the compiled binary, local backend: score = 100 + 20*Z(seed) + " +
      "sign*(effect + noise - outlier), per-run sd 1, true effect 3, 10% of the side's measures moved by size sd; " +
      "today's rule and the calibrated fence with the noise `outerloop calibrate --pairs 20` suggested",
    outliers: outlierRows,
  }),
  ...(!wants("rounds") ? {} : {
    rounds_what: "rounds through the compiled binary, local backend: the first model, repeats 4 / max_repeats 12, " +
      "K candidates without an effect, or one of 4.6 beside K - 1 without",
    rounds,
  }),
  // an outliers-only run keeps the other experiments' counts
  ...(ONLY === "outliers"
    ? { outliers_climbs_per_cell: CLIMBS, outliers_minutes: Math.round((Date.now() - started) / 600) / 100 }
    : { climbs_per_cell: CLIMBS, minutes: Math.round((Date.now() - started) / 600) / 100 }),
  errors: cells.reduce((n, c) => n + c.errors, 0) + roundCells.reduce((n, c) => n + c.errors, 0) +
    outlierRows.reduce(
      (n, r) => n + ((r["effect_3"] as { errors: number }).errors + (r["at_min_effect"] as { errors: number }).errors),
      0,
    ),
};
writeFileSync(out, JSON.stringify(results, null, 2) + "\n");
if (summary.length > 0) console.table(summary);
if (pairing.length > 0) console.table(pairing);
if (rounds.length > 0) console.table(rounds);
if (outlierRows.length > 0) console.log(JSON.stringify(outlierRows, null, 1));
