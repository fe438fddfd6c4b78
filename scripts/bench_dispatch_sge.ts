/**
 * What a look asks of a real Grid Engine, reported not asserted (the cell of
 * scripts/ge-testbed; SGE_ROOT and SGE_CELL from its `env`): the first pass
 * of `measure --compute sge` for a look of 24 measures (one benchmark and 11
 * siblings, both arms), as job arrays and with `--no-arrays` (one job per
 * measure): qsub calls, every GE command, and wall time. Each run is
 * cancelled (`outerloop cancel`) right after its first pass. Commands are
 * counted by shims on PATH that log and exec the real ones.
 * Writes bench/dispatch_sge.json and prints it.
 *
 * Usage: deno task build && deno run -A scripts/bench_dispatch_sge.ts
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname!, "..");
const binary = join(root, "dist", "outerloop");
if (!existsSync(binary)) throw new Error("dist/outerloop is missing: run `deno task build` first");
if (!process.env["SGE_ROOT"]) throw new Error('no GE cell: eval "$(bash scripts/ge-testbed env DIR)" first');

const MEASURES = 24;
const REPEATS = 3;
const work = mkdtempSync(join(tmpdir(), "outerloop-bench-sge-"));
try {
  const repo = join(work, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.invalid", ...args]);
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 10}'\n`);
  git("add", "-A");
  git("commit", "-q", "-m", "1");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 11}'\n`);
  git("commit", "-q", "-am", "2");

  const shims = join(work, "bin");
  const log = join(work, "calls.log");
  mkdirSync(shims);
  for (const verb of ["qsub", "qstat", "qacct", "qdel", "qconf"]) {
    const real = execFileSync("sh", ["-c", `command -v ${verb}`]).toString().trim();
    writeFileSync(join(shims, verb), `#!/bin/sh\necho ${verb} >> "${log}"\nexec ${real} "$@"\n`, { mode: 0o755 });
  }
  const env = { ...process.env, PATH: `${shims}:${process.env["PATH"]}` };
  const calls = () => {
    const counts: Record<string, number> = {};
    for (const v of existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) {
      if (v) counts[v] = (counts[v] ?? 0) + 1;
    }
    rmSync(log, { force: true });
    return counts;
  };
  const rows: Record<string, unknown>[] = [];
  let runs = 0;
  for (const arrays of [true, false]) {
    // a look of MEASURES measures: (1 + siblings) benchmarks × 2 arms
    const contract = {
      name: "d",
      command: "sh b.sh",
      metric: "s",
      direction: "maximize",
      seed_env: "SEED",
      eval_minutes: 5,
      siblings: Array.from(
        { length: MEASURES / 2 - 1 },
        (_, i) => ({ name: `s${i}`, command: "sh b.sh", metric: "s", direction: "maximize" }),
      ),
    };
    const file = join(work, `c${runs}.json`);
    writeFileSync(file, JSON.stringify(contract));
    const runDir = join(work, "runs", `r${runs++}`);
    const argv = ["measure", "--compute", "sge", "--account", "acct_a", "--repo", repo, "--base", "main~1"];
    argv.push("--candidate", "main", "--contract", file, "--run-dir", runDir, ...(arrays ? [] : ["--no-arrays"]));
    const walls: number[] = [];
    let counted: Record<string, number> = {};
    for (let i = 0; i < REPEATS; i++) {
      const dir = `${runDir}-${i}`;
      argv[argv.indexOf("--run-dir") + 1] = dir;
      calls();
      const t = performance.now();
      const r = spawnSync(binary, argv, { env, encoding: "utf8" });
      walls.push(performance.now() - t);
      counted = calls();
      if (r.status !== 75) throw new Error(`measure exited ${r.status}: ${r.stderr}`);
      spawnSync(binary, ["cancel", dir], { env, encoding: "utf8" });
    }
    walls.sort((a, b) => a - b);
    rows.push({
      measures: MEASURES,
      dispatch: arrays ? "arrays" : "one job per measure",
      qsub_calls: counted["qsub"] ?? 0,
      ge_calls: counted,
      first_pass_wall_ms_median: Math.round(walls[Math.floor(walls.length / 2)]!),
      first_pass_wall_ms_all: walls.map(Math.round),
    });
  }
  const out = {
    date: new Date().toISOString(),
    scheduler: "Son of Grid Engine 8.1.9 (scripts/ge-testbed, one host, 2 cores)",
    note: "qsub calls include the wake job's; each first pass ends parked (exit 75) and is then cancelled",
    // the machine is shared: GE's clients cost ~1 s each under load (50 ms idle), which the wall times carry
    load_average_1m_at_end: Number(loadavg()[0]!.toFixed(1)),
    first_pass: rows,
  };
  mkdirSync(join(root, "bench"), { recursive: true });
  writeFileSync(join(root, "bench", "dispatch_sge.json"), JSON.stringify(out, null, 2) + "\n");
  console.log(JSON.stringify(out, null, 2));
} finally {
  rmSync(work, { recursive: true, force: true });
}
