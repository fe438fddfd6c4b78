/**
 * The CLI's scheduler verbs (`submit`, `status --json`, `jobs --json`,
 * `cancel`) with `--compute slurm` against the real testbed, run as a user
 * would: a separate process under the runtime running this test.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { liveIt, observeReason, observeState, waitFor } from "../helpers/slurm_live.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const NAME = `live-cli-${Date.now().toString(36)}`;

function cli(...args: string[]): Promise<SpawnResult> {
  return spawn({ argv: [...selfRunArgv(MAIN), ...args, "--compute", "slurm"], timeoutMs: 60_000, output: "separate" });
}

interface StatusJson {
  job_id: string;
  state: string;
  elapsed_s: number | null;
  pending_reason: string | null;
  partition: string | null;
}

async function status(id: string): Promise<StatusJson> {
  const r = await cli("status", id, "--json");
  assert.equal(r.exitCode, 0, r.stderr);
  const parsed = JSON.parse(r.stdout) as StatusJson;
  observeState(parsed.state);
  if (parsed.pending_reason) observeReason(parsed.pending_reason);
  return parsed;
}

async function submit(...flags: string[]): Promise<string> {
  const r = await cli("submit", "--job-name", NAME, "--account", "acct_a", "--time", "2", "--mem", "100M", ...flags);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /^[0-9]+\n$/);
  return r.stdout.trim();
}

liveIt("outerloop submit prints the id and status --json follows the job to COMPLETED", 90_000, async () => {
  const id = await submit("--command", "sleep 1");
  const done = await waitFor("COMPLETED", () => status(id), (s) => s.state === "COMPLETED", 30_000, 250);
  assert.equal(done.job_id, id);
  assert.equal(typeof done.elapsed_s, "number");
  assert.equal(done.pending_reason, null);
});

liveIt(
  "a waiting job shows its reason in status --json, is listed by jobs --json, and cancel ends it",
  90_000,
  async () => {
    const id = await submit("--command", "true", "--begin", "now+120");
    const pending = await waitFor("BeginTime", () => status(id), (s) => s.pending_reason === "BeginTime", 20_000, 250);
    assert.equal(pending.state, "PENDING");
    assert.equal(pending.partition, "cpu");
    const jobs = await cli("jobs", "--json");
    assert.equal(jobs.exitCode, 0, jobs.stderr);
    const listed = (JSON.parse(jobs.stdout) as { jobs: Record<string, string>[] }).jobs;
    assert.deepEqual(listed.filter((j) => j["job_id"] === id), [
      { job_id: id, name: NAME, state: "PENDING", reason: "BeginTime", partition: "cpu", script: null },
    ]);
    const byName = await cli("jobs", "--name", NAME, "--json");
    assert.deepEqual(JSON.parse(byName.stdout), { name: NAME, job_id: id });
    const cancel = await cli("cancel", id);
    assert.equal(cancel.exitCode, 0, cancel.stderr);
    assert.equal(cancel.stdout, `cancelled ${id}\n`);
    const ended = await waitFor("CANCELLED", () => status(id), (s) => s.state.startsWith("CANCELLED"), 20_000, 250);
    assert.equal(ended.state, "CANCELLED by 0");
  },
);

liveIt("status --json of an id Slurm never saw is GONE with a null elapsed_s", 60_000, async () => {
  assert.deepEqual(await status("987654321"), {
    job_id: "987654321",
    state: "GONE",
    elapsed_s: null,
    pending_reason: null,
    partition: null,
  });
});

liveIt("a refused submission exits 4 with sbatch's reason on stderr and nothing on stdout", 60_000, async () => {
  const r = await cli("submit", "--job-name", NAME, "--account", "no_such_account", "--command", "true");
  assert.equal(r.exitCode, 4);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /Invalid account or account\/partition combination specified/);
});
