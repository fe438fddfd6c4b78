/**
 * Benchmarks, reported not asserted (our machines are 2 noisy cores):
 *  - cold start of `dist/outerloop --version`, and of `show` and `resume` of a
 *    decided run (what a wake or an agent's poll pays), against
 *    `python3 -S -c 0` and against an empty program compiled the same way (the
 *    floor), all interleaved in one loop so every command sees the same noise;
 *    reported as medians and median ratios;
 *  - per-job overhead of LocalCompute over spawning the same trivial command
 *    directly (target ≤ 15 ms);
 *  - binary sizes.
 * Writes bench/results.json and prints a summary.
 *
 * Usage: deno run -A scripts/bench.ts [--runs N]
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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

/** A decided run on the local backend, for `show` and `resume` to read. */
async function decidedRun(work: string): Promise<string> {
  const repo = join(work, "repo");
  const git = (...args: string[]) =>
    timed(["git", "-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.invalid", ...args]);
  await timed(["git", "init", "-q", "-b", "main", repo]);
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 1}'\n`);
  await git("add", "-A");
  await git("commit", "-q", "-m", "1");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 2}'\n`);
  await git("commit", "-q", "-am", "2");
  writeFileSync(
    join(work, "c.json"),
    JSON.stringify({ name: "b", command: "sh b.sh", metric: "s", direction: "maximize" }),
  );
  const runDir = join(work, "runs", "r");
  const args = ["--compute", "local", "--repo", repo, "--base", "main~1", "--candidate", "main"];
  await timed([binary, "measure", ...args, "--contract", join(work, "c.json"), "--run-dir", runDir]);
  return runDir;
}

/** The floor: an empty program compiled as dist/outerloop is. */
async function emptyBinary(work: string): Promise<string> {
  const src = join(root, `.bench-empty-${process.pid}.ts`);
  const out = join(work, "empty");
  writeFileSync(src, "console.log(0);\n");
  const flags = ["--compile", "--splitting", "--format=esm", "--minify", "--bytecode"]
    .concat(["--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"]);
  try {
    const r = await spawn({
      argv: ["bun", "build", ...flags, src, "--outfile", out],
      env: process.env as Record<string, string>,
    });
    if (r.exitCode !== 0) throw new Error(`building the empty program failed: ${r.stderr}`);
  } finally {
    rmSync(src, { force: true });
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), "outerloop-bench-"));
const runDir = await decidedRun(work);
const commands: Record<string, string[]> = {
  python3_S_c0: ["/usr/bin/python3", "-S", "-c", "0"],
  empty_compiled: [await emptyBinary(work)],
  version: [binary, "--version"],
  show_decided: [binary, "show", runDir],
  resume_decided: [binary, "resume", runDir],
};
const cold: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  // resume of a decided run exits with the verdict's code: 0 here (accept)
  for (const [name, argv] of Object.entries(commands)) cold[name]!.push(await timed(argv));
}
rmSync(work, { recursive: true, force: true });
const py = median(cold["python3_S_c0"]!);
const coldStart = Object.fromEntries(
  Object.entries(cold).map((
    [name, xs],
  ) => [name, { median_ms: round(median(xs)), ratio_to_python3_S: round(median(xs) / py) }]),
);

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
  cold_start: coldStart,
  local_job_ms: {
    direct_sh_true_median: round(median(job.direct)),
    local_compute_submit_median: round(median(job.local)),
    overhead_median: round(median(job.local) - median(job.direct)),
  },
  binary_size_mb: sizes,
};
writeFileSync(join(root, "bench", "results.json"), JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(results, null, 2));
