/**
 * Run dirs with one failed measure, random but reproducible, for the tests
 * that hold every surface to what failed: a Slurm-kind run (one candidate or
 * a round) on a `FakeCompute` whose eval jobs finish inside `submit`, one of
 * them failing — the baseline's or a sibling's base side (the run fails),
 * or a candidate's or a sibling's candidate side (that candidate crashed) —
 * by exiting non-zero after printing a few lines, or by reporting no metric;
 * driven through `runPhase` until the run is decided or has failed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { withDefaults } from "../../src/compute/job_spec.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { benchmarkName, parseMeasureName, siblingName } from "../../src/measure/measure_name.ts";
import { runPhase } from "../../src/run/phase.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute, finishEvalJob } from "./fake_compute.ts";
import { runRecordFixture } from "./run_fixture.ts";
import { armSha } from "./seeded_round.ts";
import { normal, seededRandom } from "./seeded_random.ts";

/** Whose measure fails: the baseline's side fails the run, a candidate's side is that candidate's crash. */
export type FailingSide = "baseline" | "candidate" | "sibling-base" | "sibling-cand";

/** One random failure to make. */
export interface FailureCase {
  readonly seed: number;
  /** K, the candidates: 1, or a round of 2–3. */
  readonly k: number;
  readonly direction: "maximize" | "minimize";
  readonly repeats: number;
  readonly maxRepeats: number;
  /** A sibling benchmark `lat`, or none. */
  readonly sibling: boolean;
  readonly side: FailingSide;
  /** The failing measure's name (`baseline#2`, `candidate-3`, `sib-lat-cand-2#2`, …). */
  readonly measure: string;
  /** How it fails: exits with `exitCode` after printing lines, or exits 0 with no metric in its result. */
  readonly how: "exit" | "no-metric";
  readonly exitCode: number;
  /** Whether the run fails (the baseline's side), else the candidate crashed. */
  readonly runFails: boolean;
}

/**
 * The case of `seed`: K = 1 or a round of 2–3 candidates, either direction,
 * repeats 1–3 (up to twice as many pairs), with or without a sibling, and
 * one measure of the first batch failing (a round's first batch is its
 * screen, ⌈repeats/2⌉ pairs), by an exit code from 1 to 125 or no metric.
 */
export function failureCase(seed: number): FailureCase {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const k = pick([1, 1, 2, 3]);
  const direction = random() < 0.5 ? "maximize" : "minimize";
  const repeats = 1 + Math.floor(random() * 3);
  const maxRepeats = repeats * (1 + Math.floor(random() * 2));
  const sibling = random() < 0.5;
  const side = pick<FailingSide>(
    sibling ? ["baseline", "candidate", "sibling-base", "sibling-cand"] : [
      "baseline",
      "candidate",
    ],
  );
  const firstBatch = k === 1 ? repeats : Math.ceil(repeats / 2);
  const pair = 1 + Math.floor(random() * firstBatch);
  const arm = side === "baseline" || side === "sibling-base" ? 0 : 1 + Math.floor(random() * k);
  const measure = side.startsWith("sibling") ? siblingName("lat", arm, pair) : benchmarkName(arm, pair);
  const how = random() < 0.6 ? "exit" : "no-metric";
  const exitCode = 1 + Math.floor(random() * 125);
  return {
    seed,
    k,
    direction,
    repeats,
    maxRepeats,
    sibling,
    side,
    measure,
    how,
    exitCode: how === "exit" ? exitCode : 0,
    runFails: arm === 0,
  };
}

/** The measure name an eval job runs, from its script's folder `eval-<name>-<tree sha>-<hex>`. */
function measureOf(script: string): string {
  return basename(dirname(script)).replace(/^eval-/, "").replace(/-[0-9a-f]{40}-[0-9a-f]+$/, "");
}

/** What `failureRun` made: the run dir, the compute its jobs ran on, and the job the failing measure ran in. */
export interface FailureRun {
  readonly dir: RunDir;
  readonly compute: FakeCompute;
  /** The job (or `A_T`) the failing measure ran in. */
  readonly jobId: string;
  /** The lines its job printed before it failed. */
  readonly printed: readonly string[];
}

/**
 * Makes the case's run in `<climb>/r1` (benchmark `toy`, metric `score`,
 * candidates `c1` … `cK`) and drives it through `runPhase` until it is
 * decided, or has failed (the pass throws an EvalError).
 */
export async function failureRun(c: FailureCase, climb: string): Promise<FailureRun> {
  const dir = new RunDir(join(climb, "r1"));
  mkdirSync(dir.path, { recursive: true });
  const contract = {
    metric: "score",
    direction: c.direction,
    min_effect: 0.5,
    repeats: c.repeats,
    max_repeats: c.maxRepeats,
    siblings: c.sibling
      ? [{ name: "lat", command: "sh lat.sh", metric: "ms", direction: "minimize", tolerance: 5 }]
      : [],
  };
  const candidates = Array.from({ length: c.k }, (_, i) => ({ ref: `c${i + 1}`, sha: armSha(i + 1) }));
  const round = c.k === 1 ? {} : { candidateRef: "c1", candidateSha: armSha(1), candidates, baseRef: "main" };
  const createdAt = "2026-01-02T03:04:05.000Z";
  writeRunRecord(dir, runRecordFixture({ runTag: "r1", createdAt, ...round }, contract));
  const random = seededRandom(c.seed * 31 + 7);
  const compute = new FakeCompute();
  let jobId = "";
  const printed = [`seed ${c.seed}: loading`, `Traceback (most recent call last): case ${c.seed} broke`];
  compute.onSubmit = (spec, id) => {
    if (!spec.jobName.startsWith("eval-")) return;
    const name = measureOf(withDefaults(spec).script);
    const ref = parseMeasureName(name)!;
    if (name === c.measure) {
      jobId = id;
      writeFileSync(join(dirname(withDefaults(spec).script), EVAL_FILES.output), printed.join("\n") + "\n");
      finishEvalJob(spec, c.how === "exit" ? null : { other: 1 }, c.exitCode);
      return;
    }
    const value = ref.sibling === null ? 100 + ref.arm + 2 * normal(random) : 50 + normal(random);
    finishEvalJob(spec, { [ref.sibling === null ? "score" : "ms"]: value });
  };
  const deps = { compute, self: ["/bin/outerloop"], now: () => Date.parse(createdAt) + 60_000, env: {} };
  for (let pass = 0; pass < 30; pass++) {
    try {
      const outcome = await runPhase(dir, deps);
      if (outcome.kind === "decided") return { dir, compute, jobId, printed };
    } catch (err) {
      if (err instanceof EvalError) return { dir, compute, jobId, printed };
      throw err;
    }
  }
  throw new Error(`seed ${c.seed}: the run was neither decided nor failed after 30 passes`);
}
