/**
 * Holds the compiled binary's cost to the budgets of bench/budgets.json, in
 * instructions (callgrind's Ir: what the binary executes, which the load of
 * the machine does not move). Builds nothing: takes dist/outerloop (or
 * --binary PATH), sets up in a temp dir of its own (removed at the end) the
 * runs of scripts/bench_runs.ts, and counts under `valgrind --tool=callgrind`:
 *
 * - `resume_pending_1000`: one `resume` pass over the 1000-pending run (the
 *   fake scheduler answering at once; the pass parks again, exit 75);
 * - `show_decided`, `resume_decided`: `show` and `resume` of a decided run of
 *   4 pairs (what an agent's poll and a wake pay to start).
 *
 * Prints a line per figure (measured, budget, ratio) and exits 1 when one
 * exceeds its budget by more than the tolerance (10%). The inputs are pinned
 * so the counts repeat run to run: a fixed environment, fixed names under a
 * temp dir whose path has a fixed length, the same git commit ids, and
 * JavaScriptCore's GC and JIT kept on the main thread (BUN_JSC_useConcurrentGC=0,
 * BUN_JSC_useConcurrentJIT=0: the same work, done where callgrind counts it
 * the same every time). Raising a
 * budget is a commit of its own that says what the extra instructions buy:
 * `--record` writes the measured counts into bench/budgets.json with the id
 * of the last commit that changed what the binary is built from (and takes
 * a note with `--note TEXT`): build that tree first, or name the commit the
 * binary was built from with `--commit ID` (say, one built in a worktree).
 *
 * Usage: deno task build && deno run -A scripts/check_budgets.ts [--binary PATH] [--record [--note TEXT] [--commit ID]]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Budgets, collected, judge } from "./budgets.ts";
import { decidedRun, measurePendingArgv, pendingSetup } from "./bench_runs.ts";

const root = join(import.meta.dirname!, "..");
const budgetsFile = join(root, "bench", "budgets.json");
const VALGRIND = "/usr/bin/valgrind";

const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : null;
};
const binary = flag("--binary") ?? join(root, "dist", "outerloop");
const record = process.argv.includes("--record");
if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`deno task build\` first`);
if (!existsSync(VALGRIND)) throw new Error(`${VALGRIND} is missing: apt-get install valgrind`);

/**
 * The last commit that changed what dist/outerloop is built from (its source, its dependencies, its build),
 * which must be the tree's: a binary built from a tree with changes there is of no commit.
 */
function builtFrom(): string {
  const built = ["src", "package.json", "package-lock.json", "scripts/build.sh"];
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
  if (git("status", "--porcelain", "--", ...built) !== "") {
    throw new Error(`uncommitted changes in ${built.join(", ")}: record from a clean tree, or name it with --commit`);
  }
  return git("log", "-1", "--format=%h", "--abbrev=7", "--", ...built);
}

const started = performance.now();
/** A fixed-length prefix (mkdtemp's 6 random characters), the same under every TMPDIR. */
const work = mkdtempSync("/tmp/outerloop-budgets-");
try {
  /** The instructions `binary argv` executes under callgrind (its children not traced), and its exit code. */
  const count = (argv: readonly string[], env: Record<string, string>, expect: number) => {
    const r = spawnSync(VALGRIND, ["--tool=callgrind", "--callgrind-out-file=/dev/null", binary, ...argv], {
      cwd: work,
      // JavaScriptCore's GC marks and its JIT compiles on threads of their own, as far as they get while the
      // main thread runs: how much of the work falls to the main thread varied the count by ~10% run to run.
      // Done on the main thread, the same work repeats to ~0.05%
      env: { ...env, LANG: "C", LC_ALL: "C", TZ: "UTC", BUN_JSC_useConcurrentGC: "0", BUN_JSC_useConcurrentJIT: "0" },
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (r.status !== expect) {
      throw new Error(`${argv.join(" ")} exited ${r.status} under callgrind, not ${expect}:\n${r.stderr.slice(-2000)}`);
    }
    return collected(r.stderr);
  };

  const measured: Record<string, number> = {};

  const pending = join(work, "pending");
  mkdirSync(pending);
  const setup = pendingSetup(pending);
  const state = join(pending, "state");
  mkdirSync(state);
  const pendingRun = join(pending, "runs", "p");
  const m = spawnSync(binary, measurePendingArgv(setup, pendingRun), { env: setup.env(state), stdio: "pipe" });
  if (m.status !== 75) throw new Error(`measure of the pending run exited ${m.status}, not 75 (parked)`);
  // one pass first, so the counted one is a pass like every later one
  const warm = spawnSync(binary, ["resume", pendingRun], { env: setup.env(state), stdio: "pipe" });
  if (warm.status !== 75) throw new Error(`resume of the pending run exited ${warm.status}, not 75 (parked)`);
  measured["resume_pending_1000"] = count(["resume", pendingRun], setup.env(state), 75);

  const decided = join(work, "decided");
  mkdirSync(decided);
  const decidedDir = decidedRun(decided, binary);
  const plain = { PATH: "/usr/bin:/bin", HOME: decided };
  measured["show_decided"] = count(["show", decidedDir], plain, 0);
  measured["resume_decided"] = count(["resume", decidedDir], plain, 0);

  const budgets = JSON.parse(readFileSync(budgetsFile, "utf8")) as Budgets;
  if (record) {
    const commit = flag("--commit") ?? builtFrom();
    const note = flag("--note") ?? "recorded by scripts/check_budgets.ts --record";
    const figures = Object.fromEntries(
      Object.entries(measured).map(([k, ir]) => [k, { ir, commit, note: budgets.figures[k]?.note ?? note }]),
    );
    writeFileSync(budgetsFile, JSON.stringify({ ...budgets, figures }, null, 2) + "\n");
    console.log(`recorded in bench/budgets.json at ${commit}`);
  }
  const verdicts = judge(measured, record ? JSON.parse(readFileSync(budgetsFile, "utf8")) as Budgets : budgets);
  for (const v of verdicts) console.log(v.line);
  console.log(`checked in ${Math.round((performance.now() - started) / 1000)} s`);
  if (verdicts.some((v) => v.over)) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
