/**
 * Whether the live Slurm suite runs, and the few tools its files share.
 *
 * The suite needs a real cluster started by `scripts/slurm-testbed`. Without
 * one it is skipped with ONE loud line on stderr — unless
 * `OUTERLOOP_REQUIRE_SLURM=1` (CI), where a missing testbed fails every live
 * test: a green run must never hide that the real-cluster evidence is absent.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { isTerminal } from "../../src/compute/states.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import { tempDirsMade } from "./temp.ts";
import { waitFor } from "./wait.ts";
export { waitFor };

/** The command that runs the live suite, printed whenever it is skipped. */
export const HOW_TO_RUN = "scripts/slurm-testbed up /tmp/tb && OUTERLOOP_SLURM_TESTBED=/tmp/tb deno task test";

/** What the live suite does in this environment. */
export type LiveDecision =
  | { readonly kind: "run"; readonly dir: string; readonly conf: string }
  | { readonly kind: "skip"; readonly why: string }
  | { readonly kind: "fail"; readonly why: string };

/** Decides from the environment; pure, so the rule itself is testable. */
export function decideLive(
  env: Readonly<Record<string, string | undefined>>,
  exists: (p: string) => boolean = existsSync,
): LiveDecision {
  const dir = env["OUTERLOOP_SLURM_TESTBED"]?.trim() ?? "";
  const required = env["OUTERLOOP_REQUIRE_SLURM"] === "1";
  let why: string;
  if (!dir) {
    why = "OUTERLOOP_SLURM_TESTBED is not set";
  } else {
    const conf = path.join(path.resolve(dir), "etc", "slurm.conf");
    if (exists(conf)) return { kind: "run", dir: path.resolve(dir), conf };
    why = `OUTERLOOP_SLURM_TESTBED=${JSON.stringify(dir)} holds no testbed (no ${JSON.stringify(conf)})`;
  }
  return required
    ? { kind: "fail", why: `OUTERLOOP_REQUIRE_SLURM=1 but ${why}: run ${HOW_TO_RUN}` }
    : { kind: "skip", why };
}

/** This process's decision; when it runs, scheduler commands find the testbed through SLURM_CONF. */
export const live: LiveDecision = decideLive(process.env);

/**
 * Where a live test's temp dirs go when TMPDIR does not say: the testbed's
 * nodes each have their own /tmp (scripts/slurm-testbed), so a run dir or repo
 * under /tmp would be invisible to the jobs; /var/tmp is one file system for
 * the machine and every node, as a cluster's shared file system is.
 * `scripts/test.sh` gives the live files a TMPDIR there when the user's is
 * under /tmp; this covers `deno test tests/slurm/` run by hand.
 */
const SHARED_TMP = "/var/tmp";

if (live.kind === "run") {
  process.env["SLURM_CONF"] = live.conf;
  const tmp = process.env["TMPDIR"] ?? "";
  if (tmp === "" || tmp === "/tmp") process.env["TMPDIR"] = SHARED_TMP;
  else if (tmp.startsWith("/tmp/")) {
    process.stderr.write(
      `*** TMPDIR=${tmp} is under /tmp, which each testbed node has its own of: jobs will not see the tests' files\n`,
    );
  }
} else if (live.kind === "skip" && process.env["OUTERLOOP_SLURM_SKIP_NOTED"] !== "1") {
  // once per process, however many live files import this
  process.env["OUTERLOOP_SLURM_SKIP_NOTED"] = "1";
  process.stderr.write(`*** live Slurm suite SKIPPED: ${live.why}. Run it with: ${HOW_TO_RUN}\n`);
}

/**
 * A live test: runs against the testbed, is skipped (reported as skipped by
 * both deno and bun) without one, and fails when a testbed is required but
 * missing. Every live test needs an explicit timeout: bun's default is 5 s.
 */
export function liveIt(name: string, timeoutMs: number, fn: () => Promise<void>): void {
  if (live.kind === "run") {
    it(name, { timeout: timeoutMs }, async () => {
      const started = Date.now();
      try {
        await fn();
      } finally {
        await settleJobs(started);
      }
    });
  } else if (live.kind === "skip") it(name, { skip: live.why, timeout: timeoutMs }, fn);
  else {
    const why = live.why;
    it(name, { timeout: timeoutMs }, () => {
      throw new Error(why);
    });
  }
}

/**
 * Cancels the jobs a live test submitted that are still queued or running in
 * its temp dirs when it ends (a wake still finishing after `--wait` returned,
 * the jobs of a test that failed half-way) and waits until the scheduler has
 * let them go: a job writing into a run dir after the process removed it
 * leaves files behind, and one left running takes a node from the next test.
 * A job is the test's by its work dir, its script or its output file: a wake
 * (`--wrap`, no script, submitted from wherever the CLI ran) shows only its
 * log, and on 24.11 slurmstepd makes the missing directories of that log, so
 * a wake starting after the test's dirs were removed brings them back.
 * A listing that fails (a test stopped the controller) leaves them be.
 */
async function settleJobs(startedMs: number): Promise<void> {
  const dirs = tempDirsMade();
  if (dirs.length === 0) return;
  const inDirs = (p: string) => dirs.some((d) => p === d || p.startsWith(d + "/"));
  const listing = async (argv: string[]): Promise<string[] | null> => {
    const r = await spawn({ argv: ["squeue", "-h", "-r", ...argv], timeoutMs: 30_000, output: "separate" });
    return r.exitCode === 0 ? r.stdout.split("\n").filter((l) => l.trim() !== "") : null;
  };
  const ours = async (): Promise<{ id: string; what: string }[] | null> => {
    const jobs = await listing(["-o", "%i|%j|%T|%V|%Z|%o"]);
    // `-O` pads and cannot take a separator: the id, then the output path (the tests' paths have no spaces)
    const outputs = await listing(["-O", "JobID:40,STDOUT:4096"]);
    if (jobs === null || outputs === null) return null;
    const logged = new Set(
      outputs.map((l) => l.trim().split(/\s+/)).filter(([, out]) => inDirs(out ?? "")).map(([id]) => id),
    );
    return jobs.flatMap((line) => {
      const [id = "", name = "", state = "", submitted = "", ...paths] = line.trim().split("|");
      const mine = new Date(submitted).getTime() >= startedMs - 2_000 && (paths.some(inDirs) || logged.has(id));
      return id !== "" && mine ? [{ id, what: `${id} ${name} ${state}` }] : [];
    });
  };
  const left = await ours();
  if (left === null || left.length === 0) return;
  process.stderr.write(`live test left job(s) in its dirs, cancelled: ${left.map((j) => j.what).join(", ")}\n`);
  await spawn({ argv: ["scancel", ...left.map((j) => j.id)], timeoutMs: 30_000, output: "separate" });
  await waitFor("the test's jobs gone from squeue", ours, (ids) => ids === null || ids.length === 0, 60_000, 250);
}

const SCRIPT = fileURLToPath(new URL("../../scripts/slurm-testbed", import.meta.url));

/**
 * What `testbed()` can stop and start: a daemon of the controller side, every
 * node's slurmd (`slurmd`: the jobs on the nodes live on), or one node
 * (`slurmd@tbnode2`): `stop` loses it as a power loss does, every process on it
 * killed at once; slurmctld marks it DOWN within ~30 s and requeues its batch
 * jobs (Slurm's default; NODE_FAIL for a job sent with --no-requeue); `start`
 * boots it again and returns once it is idle.
 */
export type TestbedDaemon = "slurmdbd" | "slurmctld" | "slurmd" | `slurmd@${string}`;

/** Runs `scripts/slurm-testbed VERB DIR [DAEMON]` on the live testbed; throws with its stderr on failure. */
export async function testbed(verb: "up" | "stop" | "start", daemon?: TestbedDaemon): Promise<void> {
  if (live.kind !== "run") throw new Error("No live testbed: the suite should have been skipped");
  const argv = [SCRIPT, verb, live.dir, ...(daemon ? [daemon] : [])];
  const r = await spawn({ argv, timeoutMs: 120_000, output: "separate" });
  if (r.exitCode !== 0) {
    throw new Error(`${argv.join(" ")} failed (${r.exitCode ?? r.signal}): ${r.stderr.trim()}`);
  }
}

/**
 * The testbed's node names (tbnode1, tbnode2, …; `SLURM_TESTBED_NODES` at its
 * first `up`), from the list `scripts/slurm-testbed up` keeps in its directory.
 * Each node's hostname is its name, and its /tmp is its own.
 */
export function testbedNodes(): string[] {
  if (live.kind !== "run") throw new Error("No live testbed: the suite should have been skipped");
  return readFileSync(path.join(live.dir, "nodes"), "utf8").split("\n").filter((n) => n !== "");
}

/** Runs a Slurm client command (scontrol, sacct) against the testbed; its stdout, or a throw. */
export async function slurmCommand(argv: readonly string[]): Promise<string> {
  const r = await spawn({ argv, timeoutMs: 30_000, output: "separate" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (${r.exitCode}): ${r.stderr.trim()}`);
  return r.stdout;
}

const seen = { states: new Set<string>(), reasons: new Set<string>() };

/** Records a state string the suite saw (for the closing summary) and passes it through. */
export function observeState(state: string): string {
  seen.states.add(state);
  return state;
}

/** Records a pending reason the suite saw and passes it through. */
export function observeReason(reason: string): string {
  seen.reasons.add(reason);
  return reason;
}

/** One line naming every state and pending reason observed, sorted. */
export function observedSummary(): string {
  const list = (s: Set<string>) => [...s].sort().map((v) => JSON.stringify(v)).join(", ");
  return `live-slurm observed states: ${list(seen.states)}; pending reasons: ${list(seen.reasons)}`;
}

/**
 * Waits until job `jobId` has ended (a terminal state in sacct) and returns
 * that state. A wake writes decision.json before it retires leftover wakes
 * and prints the verdict, so its log is only complete once the job is over.
 */
export async function jobEnded(jobId: string, timeoutMs = 60_000): Promise<string> {
  const compute = new SlurmCompute();
  return observeState(await waitFor(`job ${jobId} to end`, () => compute.status(jobId), isTerminal, timeoutMs, 250));
}
