/**
 * The runs the benchmarks and the budget check measure, set up once here:
 * scripts/bench_pass.ts, scripts/bench_startup.ts and scripts/check_budgets.ts
 * share them so the figures they quote are of the same run.
 *
 * - `pendingSetup`: a contract of one benchmark with 499 siblings (repeats 1,
 *   so 2 × 500 = 1000 measures) and a scheduler scripted in sh on PATH
 *   (bench/fake_scheduler.sh: every task listed PENDING by `squeue -r`, sacct
 *   knowing none); `measurePending` dispatches a run of it (exit 75, parked),
 *   after which each `resume` reads the one listing, finds every measure
 *   pending and parks again.
 * - `decidedRun`: a run of `pairs` pairs on the local backend, decided (the
 *   candidate scores higher).
 *
 * Every name under `work` is fixed (no pid, no time, no random part), so two
 * set-ups in dirs of the same length give the binary the same inputs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname!, "..");

/** Siblings of the pending run's benchmark: 2 × (1 + 499) = 1000 measures. */
export const SIBLINGS = 499;
/** Pairs of the decided run. */
export const PAIRS = 4;

/** A repo at `work/repo` of two commits, `main~1` scoring 1 and `main` 2 on `sh b.sh`. */
export function twoCommitRepo(work: string): string {
  const repo = join(work, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.invalid", ...args], {
      stdio: "pipe",
      // fixed dates: the same commit ids every time
      env: {
        ...process.env,
        GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
        GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
      },
    });
  mkdirSync(repo);
  git("init", "-q", "-b", "main");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 1}'\n`);
  git("add", "-A");
  git("commit", "-q", "-m", "1");
  writeFileSync(join(repo, "b.sh"), `echo '{"s": 2}'\n`);
  git("commit", "-q", "-am", "2");
  return repo;
}

/** The flags that measure a run of `repo` between its two commits. */
export const commitFlags = (repo: string) => ["--repo", repo, "--base", "main~1", "--candidate", "main"];

export interface PendingSetup {
  readonly repo: string;
  readonly contract: string;
  /** A dir holding sbatch, squeue, sacct, scancel and scontrol: bench/fake_scheduler.sh. */
  readonly fakebin: string;
  /** The environment a binary runs in against the fake scheduler whose state is in `state`. */
  env(state: string, maxArraySize?: number): Record<string, string>;
}

/** The repo, the 1000-measure contract and the fake scheduler, under `work`. */
export function pendingSetup(work: string): PendingSetup {
  const repo = twoCommitRepo(work);
  const contract = join(work, "c.json");
  writeFileSync(
    contract,
    JSON.stringify({
      name: "b",
      command: "sh b.sh",
      metric: "s",
      direction: "maximize",
      eval_minutes: 5,
      siblings: Array.from(
        { length: SIBLINGS },
        (_, i) => ({ name: `s${i}`, command: "sh b.sh", metric: "s", direction: "maximize" }),
      ),
    }),
  );
  const fakebin = join(work, "bin");
  mkdirSync(fakebin);
  const fake = join(root, "bench", "fake_scheduler.sh");
  for (const verb of ["sbatch", "squeue", "sacct", "scancel", "scontrol"]) {
    writeFileSync(join(fakebin, verb), `#!/bin/sh\nexec sh "${fake}" ${verb} "$@"\n`, { mode: 0o755 });
  }
  return {
    repo,
    contract,
    fakebin,
    env: (state, maxArraySize = 1001) => ({
      PATH: `${fakebin}:/usr/bin:/bin`,
      HOME: work,
      OUTERLOOP_FAKE_STATE: state,
      OUTERLOOP_FAKE_MAX_ARRAY_SIZE: String(maxArraySize),
    }),
  };
}

/** The argv of `measure` that dispatches the pending run into `runDir` (exit 75: parked). */
export const measurePendingArgv = (s: PendingSetup, runDir: string, flags: readonly string[] = []) => [
  "measure",
  "--compute",
  "slurm",
  ...commitFlags(s.repo),
  "--contract",
  s.contract,
  "--run-dir",
  runDir,
  ...flags,
];

/**
 * A decided run of `pairs` pairs on the local backend at `work/runs/r`, made by
 * `binary` (with its own repo and contract under `work`). Returns the run dir.
 */
export function decidedRun(work: string, binary: string, pairs = PAIRS): string {
  const repo = twoCommitRepo(work);
  const contract = join(work, "c.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "b", command: "sh b.sh", metric: "s", direction: "maximize", repeats: pairs }),
  );
  const runDir = join(work, "runs", "r");
  execFileSync(binary, [
    "measure",
    "--compute",
    "local",
    ...commitFlags(repo),
    "--contract",
    contract,
    "--run-dir",
    runDir,
  ], {
    env: { PATH: "/usr/bin:/bin", HOME: work },
    stdio: "pipe",
  });
  if (!existsSync(join(runDir, "decision.json"))) throw new Error(`the run in ${runDir} was not decided`);
  return runDir;
}
