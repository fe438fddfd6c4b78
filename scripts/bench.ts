/**
 * Benchmarks, reported not asserted (our machines are 2 noisy cores):
 *  - cold start of `dist/outerloop --version` against `python3 -c 0`, run
 *    interleaved in the same loop so both see the same noise;
 *  - per-job overhead of LocalCompute over spawning the same trivial command
 *    directly (target ≤ 15 ms);
 *  - binary sizes.
 * Writes bench/results.json and prints a summary.
 *
 * Usage: deno run -A scripts/bench.ts [--runs N]
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LocalCompute } from "../src/compute/local.ts";
import { setLogLevel } from "../src/log.ts";
import { spawn } from "../src/runtime/spawn.ts";

const root = join(import.meta.dirname!, "..");
const runsFlag = process.argv.indexOf("--runs");
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 40;
setLogLevel("quiet");

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (x: number) => Math.round(x * 100) / 100;

async function timed(argv: string[]): Promise<number> {
  const t = performance.now();
  const r = await spawn({ argv, env: { PATH: "/usr/bin:/bin" } });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr}`);
  return performance.now() - t;
}

const binary = join(root, "dist", "outerloop");
if (!existsSync(binary)) throw new Error("dist/outerloop is missing: run `deno task build` first");

const cold = { outerloop: [] as number[], python: [] as number[] };
for (let i = 0; i < runs; i++) {
  cold.outerloop.push(await timed([binary, "--version"]));
  cold.python.push(await timed(["python3", "-c", "0"]));
}

const local = new LocalCompute({ env: { PATH: "/usr/bin:/bin" } });
const job = { direct: [] as number[], local: [] as number[] };
for (let i = 0; i < runs; i++) {
  job.direct.push(await timed(["sh", "-c", "true"]));
  const t = performance.now();
  await local.submit({ jobName: "bench", account: "", partition: "", timeMinutes: 1, command: "true" });
  job.local.push(performance.now() - t);
}

const sizes = Object.fromEntries(
  ["outerloop", "outerloop-linux-arm64", "outerloop-linux-x64-baseline"]
    .filter((f) => existsSync(join(root, "dist", f)))
    .map((f) => [f, round(statSync(join(root, "dist", f)).size / 1e6)]),
);

const results = {
  date: new Date().toISOString(),
  runtime: "Bun" in globalThis ? "bun" : "deno",
  runs,
  cold_start_ms: {
    outerloop_version_median: round(median(cold.outerloop)),
    python3_c0_median: round(median(cold.python)),
    ratio_outerloop_over_python: round(median(cold.outerloop) / median(cold.python)),
  },
  local_job_ms: {
    direct_sh_true_median: round(median(job.direct)),
    local_compute_submit_median: round(median(job.local)),
    overhead_median: round(median(job.local) - median(job.direct)),
  },
  binary_size_mb: sizes,
};
writeFileSync(join(root, "bench", "results.json"), JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(results, null, 2));
