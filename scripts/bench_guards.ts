/**
 * What guards from the same eval save, reported not asserted: one benchmark
 * that computes three numbers in one run (`{"t": …, "size": …, "mem": …}`),
 * measured on the local backend by the compiled binary under one contract
 * twice — `size` and `mem` as two `guards` (read from the benchmark's own
 * result line), and as two `siblings` (each with its own command, the same
 * script, as a sibling must be: it runs the whole benchmark again to report
 * its one number). A fixed design (`repeats` = `max_repeats`, one look), so
 * both make every pair and the counts do not hang on the verdict.
 *
 * Per run: the eval jobs run (the local backend's "ran … locally" lines, and
 * the run dir's eval dirs, which must agree); the CPU seconds (user + sys) of
 * the benchmark commands themselves, each adding its shell's `times` to a log;
 * the CPU seconds of the whole `measure` (GNU time: outerloop, every eval job
 * with its checkout, and the benchmark); and the wall time. The two shapes are
 * interleaved, `--runs` times, medians reported, with the ratio
 * guards / siblings of each. Writes bench/guards.json and prints it.
 *
 * Usage: deno task build && deno run -A scripts/bench_guards.ts [--runs N] [--repeats N]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname!, "..");
const binary = join(root, "dist", "outerloop");
if (!existsSync(binary)) throw new Error("dist/outerloop is missing: run `deno task build` first");
const gnuTime = "/usr/bin/time";
if (!existsSync(gnuTime)) throw new Error("GNU time (/usr/bin/time) is missing: apt-get install time");
const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = flag("--runs", 3);
const repeats = flag("--repeats", 5);
/** Iterations of the benchmark's loop: about a quarter of a CPU second on our machines. */
const WORK = { base: 3_000_000, candidate: 1_500_000 };

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

const work = mkdtempSync(join(tmpdir(), "outerloop-bench-guards-"));
try {
  const repo = join(work, "repo");
  const cpuLog = join(work, "benchmark-cpu.log");
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.invalid", ...args]);
  /**
   * The benchmark: a loop of `n` iterations timed by itself (`t`), the
   * output's size and a memory figure — three numbers one run computes —
   * then its shell's and its children's CPU (`times`) added to the log.
   */
  const bench = (n: number) =>
    `start=$(date +%s%N)\n` +
    `x=$(awk -v n=${n} 'BEGIN { for (i = 0; i < n; i++) x += i % 7; print x }')\n` +
    `end=$(date +%s%N)\n` +
    `times >> "${cpuLog}"\n` +
    `awk -v a="$start" -v b="$end" -v x="$x" 'BEGIN { printf "{\\"t\\": %.6f, \\"size\\": %d, \\"mem\\": 64}\\n", (b - a) / 1e9, length(x) * 1000 }'\n`;
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "bench.sh"), bench(WORK.base));
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  writeFileSync(join(repo, "bench.sh"), bench(WORK.candidate));
  git("commit", "-q", "-am", "candidate: half the work");

  const base = { name: "loop", command: "sh bench.sh", metric: "t", direction: "minimize", eval_minutes: 5 };
  const design = { repeats, max_repeats: repeats, min_effect: "5%" };
  const extra = [
    { metric: "size", direction: "minimize", tolerance: "1%" },
    { metric: "mem", direction: "minimize", tolerance: 2 },
  ];
  const contracts = {
    guards: { ...base, ...design, guards: extra },
    siblings: {
      ...base,
      ...design,
      siblings: extra.map((g) => ({ name: g.metric, command: base.command, ...g })),
    },
  };
  for (const [shape, c] of Object.entries(contracts)) writeFileSync(join(work, `${shape}.json`), JSON.stringify(c));

  interface Sample {
    readonly evalJobs: number;
    readonly benchmarkCpuS: number;
    readonly runCpuS: number;
    readonly wallS: number;
    readonly verdict: string;
    readonly reasons: readonly string[];
  }

  /** Sums every `times` figure the benchmark commands added to the log (shell and children, user and sys). */
  const benchmarkCpu = (): number => {
    if (!existsSync(cpuLog)) return 0;
    const figures = [...readFileSync(cpuLog, "utf8").matchAll(/([0-9]+)m([0-9.]+)s/g)];
    return figures.reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  };

  const measureOnce = (shape: "guards" | "siblings", i: number): Sample => {
    const runDir = join(work, "runs", `${shape}${i}`);
    const timing = join(work, `time-${shape}${i}`);
    rmSync(cpuLog, { force: true });
    const argv = [
      "-f",
      "%e %U %S",
      "-o",
      timing,
      binary,
      "measure",
      "--compute",
      "local",
      "--repo",
      repo,
      "--base",
      "main~1",
      "--candidate",
      "main",
      "--contract",
      join(work, `${shape}.json`),
      "--run-dir",
      runDir,
      "--seed",
      String(i + 1),
    ];
    const r = spawnSync(gnuTime, argv, { encoding: "utf8" });
    if (![0, 10, 11].includes(r.status ?? -1)) throw new Error(`measure (${shape}) exited ${r.status}: ${r.stderr}`);
    const ran = r.stderr.split("\n").filter((l) => /^outerloop: ran eval-.* locally as job/.test(l)).length;
    const evalDirs = readdirSync(runDir).filter((n) => n.startsWith("eval-")).length;
    if (ran !== evalDirs) throw new Error(`${shape}: ${ran} eval jobs ran but ${evalDirs} eval dirs`);
    // a verdict (accept 0, reject 10, inconclusive 11) is any of them: what is measured is the cost
    const [wall, user, sys] = readFileSync(timing, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
    const decision = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    return {
      evalJobs: ran,
      benchmarkCpuS: benchmarkCpu(),
      runCpuS: user! + sys!,
      wallS: wall!,
      verdict: decision.verdict,
      reasons: decision.reasons,
    };
  };

  const samples: Record<"guards" | "siblings", Sample[]> = { guards: [], siblings: [] };
  for (let i = 0; i < runs; i++) {
    // alternate which goes first, so neither always runs on a warmer machine
    const order = i % 2 === 0 ? (["guards", "siblings"] as const) : (["siblings", "guards"] as const);
    for (const shape of order) samples[shape].push(measureOnce(shape, i));
  }

  const summary = (xs: readonly Sample[]) => ({
    eval_jobs: median(xs.map((x) => x.evalJobs)),
    benchmark_cpu_s: round(median(xs.map((x) => x.benchmarkCpuS))),
    run_cpu_s: round(median(xs.map((x) => x.runCpuS))),
    wall_s: round(median(xs.map((x) => x.wallS))),
    verdicts: xs.map((x) => x.verdict),
    reasons_of_first: xs[0]!.reasons,
  });
  const g = summary(samples.guards);
  const s = summary(samples.siblings);
  const results = {
    date: new Date().toISOString(),
    runtime: "Bun" in globalThis ? "bun" : "deno",
    backend: "local",
    runs,
    design: { pairs: repeats, repeats, max_repeats: repeats, looks: 1 },
    benchmark: `sh bench.sh: an awk loop of ${WORK.base} (base) / ${WORK.candidate} (candidate) iterations, ` +
      `printing {"t", "size", "mem"}`,
    guards: { contract: contracts.guards, ...g },
    siblings: { contract: contracts.siblings, ...s },
    ratio_guards_to_siblings: {
      eval_jobs: round(g.eval_jobs / s.eval_jobs, 3),
      benchmark_cpu_s: round(g.benchmark_cpu_s / s.benchmark_cpu_s, 3),
      run_cpu_s: round(g.run_cpu_s / s.run_cpu_s, 3),
      wall_s: round(g.wall_s / s.wall_s, 3),
    },
  };
  writeFileSync(join(root, "bench", "guards.json"), JSON.stringify(results, null, 2) + "\n");
  console.log(JSON.stringify(results, null, 2));
} finally {
  rmSync(work, { recursive: true, force: true });
}
