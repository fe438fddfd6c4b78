/**
 * The README's main-job command (`deno task demo`): builds a small benchmark
 * repository from examples/pi in a temporary directory — a baseline commit
 * that estimates pi by Monte Carlo and a better candidate that integrates —
 * then runs `outerloop measure` on the local backend (no cluster) and prints
 * the verdict table. Exits with measure's own exit code (0 = accepted).
 *
 * Usage: deno task demo [--keep] [--json]
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "../src/runtime/spawn.ts";

const root = join(import.meta.dirname!, "..");
const example = join(root, "examples", "pi");
const keep = process.argv.includes("--keep");
const work = mkdtempSync(join(tmpdir(), "outerloop-demo-"));
const repo = join(work, "pi-bench");
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "outerloop demo",
  GIT_AUTHOR_EMAIL: "demo@example.invalid",
  GIT_COMMITTER_NAME: "outerloop demo",
  GIT_COMMITTER_EMAIL: "demo@example.invalid",
} as Record<string, string>;

async function run(argv: string[], cwd = repo): Promise<void> {
  const r = await spawn({ argv, cwd, env, output: "combined" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed:\n${r.stdout}`);
}

try {
  await run(["git", "init", "--quiet", "--initial-branch=main", repo], work);
  copyFileSync(join(example, "baseline", "estimate.sh"), join(repo, "estimate.sh"));
  await run(["git", "add", "estimate.sh"]);
  await run(["git", "commit", "--quiet", "-m", "baseline: Monte Carlo, 2000 samples"]);
  await run(["git", "tag", "baseline"]);
  copyFileSync(join(example, "candidate", "estimate.sh"), join(repo, "estimate.sh"));
  await run(["git", "commit", "--quiet", "-am", "candidate: midpoint rule"]);
  process.stderr.write(`demo: benchmark repository ${repo} (baseline = tag "baseline", candidate = main)\n`);

  const self = "Bun" in globalThis ? [process.execPath, "run"] : [process.execPath, "run", "-A"];
  const measure = [
    ...self,
    join(root, "src", "main.ts"),
    "measure",
    "--compute",
    "local",
    "--repo",
    repo,
    "--base",
    "baseline",
    "--candidate",
    "main",
    "--contract",
    join(example, "contract.json"),
    "--run-dir",
    join(work, "runs", "demo"),
    // a fixed seed keeps the demo's verdict the same on every machine
    "--seed",
    "42",
    ...(process.argv.includes("--json") ? ["--json"] : []),
  ];
  const started = performance.now();
  const r = await spawn({ argv: measure, env, output: "separate" });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.stderr.write(
    `demo: measure exited ${r.exitCode} after ${Math.round(performance.now() - started)} ms; run dir ${
      join(work, "runs", "demo")
    }\n`,
  );
  process.exitCode = r.exitCode ?? 1;
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
