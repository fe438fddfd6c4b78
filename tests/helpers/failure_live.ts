/**
 * What the live failure suites (tests/slurm/failure_live_test.ts and
 * tests/sge/failure_live_test.ts) share: the benchmark that crashes or fails
 * on cue, the one-object reading of a `--json` answer, and the job a
 * measure's eval dir last ran in.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { SpawnResult } from "../../src/runtime/spawn.ts";
import { tempDir } from "./temp.ts";

// deno-lint-ignore no-explicit-any -- parsed --json output
export type Json = any;

/**
 * A benchmark scoring `score` give or take a tenth by seed (the same for
 * every arm on a seed, so a pair's difference is the scores', unless
 * `noise` adds a seeded term of its own); `crash` exits 1 with a traceback
 * and no metric; `flagged` exits 1 while the file the command names exists
 * (the cause the test fixes). `sleep` seconds first (1 unless given).
 */
export const failureBench = (score: number, mode: "ok" | "crash" | "flagged" = "ok", noise = 0, sleep = 1) => ({
  "bench.sh": [
    `sleep ${sleep}`,
    `[ "$(cat mode)" = crash ] && { echo 'Traceback: the proposal broke' >&2; exit 1; }`,
    `[ "$(cat mode)" = flagged ] && [ -f "$1" ] && { echo "broken while $1 exists" >&2; exit 1; }`,
    `awk -v s="$SEED" -v b="$(cat score)" -v k="$(cat noise)" ` +
    `'BEGIN { printf "{\\"score\\": %.4f}\\n", b + ((s % 5) - 2) / 10 + k * ((s * 7) % 5 - 2) / 10 }'`,
    "",
  ].join("\n"),
  score: String(score),
  mode,
  noise: String(noise),
});

/** A contract of small jobs (one minute, 256M) for failureBench, with `over` on top, in a temp dir. */
export function failureContract(over: Record<string, unknown>): string {
  const file = join(tempDir("live-failure-contract-"), "contract.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "fl",
      command: "sh bench.sh /nonexistent",
      metric: "score",
      direction: "maximize",
      seed_env: "SEED",
      eval_minutes: 1,
      eval_mem: "256M",
      min_effect: 1,
      ...over,
    }),
  );
  return file;
}

/** The ONE JSON object a `--json` command printed: stdout must hold exactly one line, and it must parse. */
export function oneObject(r: SpawnResult): Json {
  const lines = r.stdout.split("\n").filter((l) => l.trim() !== "");
  assert.equal(lines.length, 1, `exactly one line on stdout, got ${JSON.stringify(r.stdout)}; stderr ${r.stderr}`);
  const j = JSON.parse(lines[0]!);
  assert.equal(typeof j, "object");
  return j;
}

/** The eval dir of `measure` in `runDir` (its name is `eval-<measure>-<sha>-…`). */
export function evalDirOf(runDir: string, measure: string): string {
  const exact = new RegExp(`^eval-${measure.replace(/[#-]/g, "\\$&")}-[0-9a-f]{40}-`);
  const name = readdirSync(runDir).find((n) => exact.test(n));
  assert.ok(name, `no eval dir of ${measure} in ${runDir}`);
  return join(runDir, name);
}

/** The job (or `A_T` task) a measure of the run last ran in: its eval dir's marker. */
export function markerOf(runDir: string, measure: string): string {
  return readFileSync(join(evalDirOf(runDir, measure), EVAL_FILES.submitted), "utf8").trim();
}
