/**
 * Whether the live Grid Engine suite runs, and the tools its files share —
 * the GE twin of slurm_live.ts. The suite needs a cell started by
 * `scripts/ge-testbed`. Without one it is skipped with ONE loud line on
 * stderr — unless `OUTERLOOP_REQUIRE_GE=1` (CI), where a missing testbed
 * fails every live GE test.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { SgeCompute } from "../../src/compute/sge.ts";
import { isTerminal } from "../../src/compute/states.ts";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { waitFor } from "./wait.ts";
export { waitFor };

/** The command that runs the live GE suite, printed whenever it is skipped. */
export const HOW_TO_RUN_GE =
  "scripts/ge-testbed up /tmp/getb && OUTERLOOP_GE_TESTBED=/tmp/getb deno test -A tests/sge/";

/** Where the Debian packages keep the cell (scripts/ge-testbed env). */
export const GE_ENV = { SGE_ROOT: "/var/lib/gridengine", SGE_CELL: "default" } as const;

export type GeDecision =
  | { readonly kind: "run"; readonly dir: string }
  | { readonly kind: "skip"; readonly why: string }
  | { readonly kind: "fail"; readonly why: string };

/** Decides from the environment; pure, so the rule itself is testable. */
export function decideGe(
  env: Readonly<Record<string, string | undefined>>,
  exists: (p: string) => boolean = existsSync,
): GeDecision {
  const dir = env["OUTERLOOP_GE_TESTBED"]?.trim() ?? "";
  const required = env["OUTERLOOP_REQUIRE_GE"] === "1";
  let why: string;
  if (!dir) why = "OUTERLOOP_GE_TESTBED is not set";
  else {
    const pid = path.join(path.resolve(dir), "run", "qmaster.pid");
    if (exists(pid)) return { kind: "run", dir: path.resolve(dir) };
    why = `OUTERLOOP_GE_TESTBED=${JSON.stringify(dir)} holds no testbed (no ${JSON.stringify(pid)})`;
  }
  return required
    ? { kind: "fail", why: `OUTERLOOP_REQUIRE_GE=1 but ${why}: run ${HOW_TO_RUN_GE}` }
    : { kind: "skip", why };
}

export const geLive: GeDecision = decideGe(process.env);

if (geLive.kind === "run") {
  for (const [k, v] of Object.entries(GE_ENV)) process.env[k] ??= v;
} else if (geLive.kind === "skip" && process.env["OUTERLOOP_GE_SKIP_NOTED"] !== "1") {
  process.env["OUTERLOOP_GE_SKIP_NOTED"] = "1";
  process.stderr.write(`*** live Grid Engine suite SKIPPED: ${geLive.why}. Run it with: ${HOW_TO_RUN_GE}\n`);
}

/** A live GE test: runs, is skipped without a testbed, or fails when one is required but missing. */
export function geIt(name: string, timeoutMs: number, fn: () => Promise<void>): void {
  if (geLive.kind === "run") it(name, { timeout: timeoutMs }, fn);
  else if (geLive.kind === "skip") it(name, { skip: geLive.why, timeout: timeoutMs }, fn);
  else {
    const why = geLive.why;
    it(name, { timeout: timeoutMs }, () => {
      throw new Error(why);
    });
  }
}

const SCRIPT = fileURLToPath(new URL("../../scripts/ge-testbed", import.meta.url));

/** Runs `scripts/ge-testbed VERB DIR [DAEMON]`; throws with its stderr on failure. */
export async function geTestbed(verb: "up" | "stop" | "start", daemon?: "qmaster" | "execd"): Promise<void> {
  if (geLive.kind !== "run") throw new Error("No live GE testbed: the suite should have been skipped");
  const argv = [SCRIPT, verb, geLive.dir, ...(daemon ? [daemon] : [])];
  const r = await spawn({ argv, timeoutMs: 120_000, output: "separate" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (${r.exitCode ?? r.signal}): ${r.stderr.trim()}`);
}

/** Runs a GE client command (qstat, qacct); its stdout, or a throw. */
export async function geCommand(argv: readonly string[]): Promise<string> {
  const r = await spawn({ argv, timeoutMs: 30_000, output: "separate" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (${r.exitCode}): ${r.stderr.trim()}`);
  return r.stdout;
}

/** Waits until job `jobId` has ended (a terminal state) and returns that state. */
export async function geJobEnded(jobId: string, timeoutMs = 60_000): Promise<string> {
  const compute = new SgeCompute();
  return await waitFor(`job ${jobId} to end`, () => compute.status(jobId), isTerminal, timeoutMs, 500);
}

/** Runs the outerloop binary with `args`. */
export async function cli(binary: string, ...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [binary, ...args], timeoutMs: 180_000, output: "separate" });
}

/** `outerloop measure --compute sge` of shas[0] against the rest, on the testbed (account acct_a, no queue), then `more`. */
export async function measureSge(
  binary: string,
  repo: string,
  shas: readonly string[],
  runDir: string,
  contractFile: string,
  ...more: string[]
): Promise<SpawnResult> {
  const [base, ...cands] = shas;
  return await cli(
    binary,
    "measure",
    "--compute",
    "sge",
    "--account",
    "acct_a",
    "--repo",
    repo,
    "--base",
    base!,
    ...cands.flatMap((c) => ["--candidate", c]),
    "--contract",
    contractFile,
    "--run-dir",
    runDir,
    "--json",
    ...more,
  );
}

/** A run dir name (so a run tag, in every job name) no earlier run of the suite has used. */
export function uniqueTag(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}`;
}

/** The names of root's GE jobs, queued or running, that contain `part` (a run tag). */
export async function namesQueued(part: string): Promise<string[]> {
  const xml = await geCommand(["qstat", "-u", "root", "-xml"]);
  return [...xml.matchAll(/<JB_name>([^<]*)<\/JB_name>/g)].map((m) => m[1]!).filter((n) => n.includes(part));
}
