/**
 * What a run asks of a real Slurm, reported not asserted (the testbed of
 * scripts/slurm-testbed; set OUTERLOOP_SLURM_TESTBED and source its `env`):
 *
 *  1. the first pass of `measure` for 10, 100 and 1000 measures (one
 *     benchmark and N/2 − 1 siblings), as job arrays and with `--no-arrays`
 *     (one job per measure): sbatch calls and wall time; each run is
 *     cancelled (`outerloop cancel`) right after its first pass;
 *  2. one run of `repeats: 3, max_repeats: 9` with a sibling under
 *     `measure --wait`: sbatch calls, scheduler queries (squeue, sacct,
 *     scontrol, sacctmgr) and the time from the last eval's end (its
 *     exit_code written) to the verdict (decision.json written).
 *
 * Scheduler calls are counted by shims on PATH that log and exec the real
 * commands. Writes bench/dispatch.json and prints a summary.
 *
 * Usage: deno task build && deno run -A scripts/bench_dispatch.ts
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname!, "..");
const binary = join(root, "dist", "outerloop");
if (!existsSync(binary)) throw new Error("dist/outerloop is missing: run `deno task build` first");
if (!process.env["SLURM_CONF"]) throw new Error("no testbed: source <(bash scripts/slurm-testbed env DIR) first");

const work = mkdtempSync(join(tmpdir(), "outerloop-bench-dispatch-"));
const round = (x: number) => Math.round(x);
try {
  const repo = join(work, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.invalid", ...args]);
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 10}'\n`);
  git("add", "-A");
  git("commit", "-q", "-m", "1");
  writeFileSync(join(repo, "b.sh"), `awk -v s="$SEED" 'BEGIN { printf "{\\"s\\": %.3f}\\n", 11 + (s % 5) / 4 }'\n`);
  git("commit", "-q", "-am", "2");

  const shims = join(work, "bin");
  const log = join(work, "calls.log");
  mkdirSync(shims);
  for (const verb of ["sbatch", "squeue", "sacct", "scontrol", "scancel", "sacctmgr"]) {
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
  let runs = 0;
  const measure = (contract: object, more: string[]) => {
    const file = join(work, `c${runs}.json`);
    writeFileSync(file, JSON.stringify(contract));
    const runDir = join(work, "runs", `r${runs++}`);
    const argv = [
      "measure",
      "--compute",
      "slurm",
      "--account",
      "acct_a",
      "--partition",
      "cpu",
      "--repo",
      repo,
      "--base",
      "main~1",
      "--candidate",
      "main",
      "--contract",
      file,
      "--run-dir",
      runDir,
      ...more,
    ];
    calls();
    const t = performance.now();
    const r = spawnSync(binary, argv, { env, encoding: "utf8" });
    return { runDir, code: r.status, wallMs: performance.now() - t, calls: calls(), stderr: r.stderr };
  };

  // 1. the first pass for N measures
  const firstPass: Record<string, unknown>[] = [];
  for (const n of [10, 100, 1000]) {
    for (const arrays of [true, false]) {
      const contract = {
        name: "d",
        command: "sh b.sh",
        metric: "s",
        seed_env: "SEED",
        eval_minutes: 5,
        siblings: Array.from({ length: n / 2 - 1 }, (_, i) => ({ name: `s${i}`, command: "sh b.sh", metric: "s" })),
      };
      const r = measure(contract, arrays ? [] : ["--no-arrays"]);
      if (r.code !== 75) throw new Error(`measure of ${n} exited ${r.code}: ${r.stderr}`);
      spawnSync(binary, ["cancel", r.runDir], { env, encoding: "utf8" });
      const row = {
        measures: n,
        dispatch: arrays ? "arrays" : "one job per measure",
        sbatch_calls: r.calls["sbatch"] ?? 0,
        first_pass_wall_ms: round(r.wallMs),
      };
      firstPass.push(row);
      console.log(JSON.stringify(row));
    }
  }

  // 2. repeats 3 / max 9 with a sibling, under measure --wait
  const r = measure({
    name: "rw",
    command: "sh b.sh",
    metric: "s",
    seed_env: "SEED",
    eval_minutes: 2,
    min_effect: 0.5,
    repeats: 3,
    max_repeats: 9,
    siblings: [{ name: "lat", command: "sh b.sh", metric: "s", direction: "maximize", tolerance: 5 }],
  }, ["--wait", "--json"]);
  if (![0, 10, 11].includes(r.code ?? -1)) throw new Error(`measure --wait exited ${r.code}: ${r.stderr}`);
  const d = JSON.parse(readFileSync(join(r.runDir, "decision.json"), "utf8"));
  const lastEnd = Math.max(
    ...readdirSync(r.runDir).filter((e) => e.startsWith("eval-")).map((e) =>
      statSync(join(r.runDir, e, "exit-code")).mtimeMs
    ),
  );
  const decided = statSync(join(r.runDir, "decision.json")).mtimeMs;
  const looks = Math.ceil(d.n / 3);
  const cycle = {
    verdict: d.verdict,
    pairs: d.n,
    looks,
    calls: r.calls,
    sbatch_calls: r.calls["sbatch"] ?? 0,
    scheduler_queries: (r.calls["squeue"] ?? 0) + (r.calls["sacct"] ?? 0) + (r.calls["scontrol"] ?? 0) +
      (r.calls["sacctmgr"] ?? 0),
    last_eval_end_to_verdict_ms: round(decided - lastEnd),
    wall_ms: round(r.wallMs),
  };
  console.log(JSON.stringify(cycle));
  writeFileSync(
    join(root, "bench", "dispatch.json"),
    JSON.stringify(
      { date: new Date().toISOString(), first_pass: firstPass, repeats_3_max_9_with_sibling: cycle },
      null,
      2,
    ) +
      "\n",
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
