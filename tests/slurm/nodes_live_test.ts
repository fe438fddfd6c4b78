// test.sh: alone — it takes a node away and drains the others, under every other live test's jobs
/**
 * What only several nodes show, through the binary on the testbed's nodes
 * (scripts/slurm-testbed with SLURM_TESTBED_NODES ≥ 2: each node its own
 * hostname and its own /tmp): a node lost while its measure runs (the
 * scheduler requeues the job; it runs again elsewhere, counted once, the
 * loss named in `show`), a drained node (jobs wait for it, named, and run
 * once it is back: never read as dead), and a look whose pairs land on two
 * hosts (each pair's measures on one host, in one job).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import {
  evalDirOf,
  failureBench as bench,
  failureContract,
  type Json,
  markerOf,
  oneObject,
} from "../helpers/failure_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { live, liveIt, slurmCommand, testbed, testbedNodes, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const tags: string[] = [];
after(async () => {
  if (live.kind !== "run") return;
  const listed = await slurmCommand(["squeue", "-h", "-o", "%j"]).catch(() => "");
  for (const name of new Set(listed.split("\n").filter((n) => tags.some((t) => n.includes(`-${t}-`))))) {
    await slurmCommand(["scancel", "-n", name]).catch(() => "");
  }
});

async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 300_000, output: "separate" });
}

/**
 * `cli` with the jobs' TMPDIR a temp dir of this test's: an eval killed with its node never removes its
 * checkout (on a cluster, the node's own temp dir goes with it), which would be left in the suite's.
 */
async function cliLosingNodes(...args: string[]): Promise<SpawnResult> {
  const env = { ...process.env, TMPDIR: tempDir("live-nodes-tmp-") } as Record<string, string>;
  return await spawn({ argv: [await ensureBinary(), ...args], env, timeoutMs: 300_000, output: "separate" });
}

/** A run of base 10 against candidate 12, `pairs` pairs in one look, on the testbed's lane; its run dir and tag. */
function newRun(prefix: string, contract: Record<string, unknown>, sleep = 1) {
  const { repo, shas } = makeRepo([bench(10, "ok", 0, sleep), bench(12, "ok", 0, sleep)]);
  const tag = `${prefix}${Math.random().toString(36).slice(2, 6)}`;
  tags.push(tag);
  const runDir = join(tempDir(`live-nodes-${prefix}-`), tag);
  const file = failureContract(contract);
  const argv = [...testbedMeasureArgv({ repo, shas, contract: file, runDir }), "--run-tag", tag, "--seed", "3"];
  return { argv, runDir, tag };
}

/** The node a job (or `A_T` task) runs on, "" while it does not run. */
async function nodeOf(job: string): Promise<string> {
  const out = (await slurmCommand(["squeue", "-h", "-r", "-j", job, "-o", "%T %N"])).trim();
  const [state, node] = out.split(" ");
  return state === "RUNNING" ? node ?? "" : "";
}

/** The host each measure of a decided run ran on (show --json's provenance), by measure. */
async function hostsOf(runDir: string): Promise<Record<string, string>> {
  const shown = oneObject(await cli("show", runDir, "--json"));
  return Object.fromEntries(shown.measures.map((m: Json) => [m.name, m.provenance?.host ?? ""]));
}

liveIt(
  "a node lost while its measure runs: the scheduler requeues the job, it runs again on another node, counted once, " +
    "and show names the loss",
  300_000,
  async () => {
    const nodes = testbedNodes();
    assert.ok(nodes.length >= 2, `the testbed has several nodes: ${nodes.join(", ")}`);
    const lost = nodes[1]!;
    // five CPUs a measure: one measure per node at a time, so one runs on the node that is lost
    const { argv, runDir } = newRun("nl", { repeats: 2, max_repeats: 2, pairing: "separate", eval_cpus: 5 }, 15);
    const parked = await cliLosingNodes(...argv, "--json");
    assert.equal(parked.exitCode, 75, parked.stderr);
    const measures = ["baseline", "candidate", "baseline#2", "candidate#2"];
    const victim = await waitFor(
      "a measure to run on " + lost,
      async () => {
        for (const m of measures) {
          const job = markerOf(runDir, m);
          if ((await nodeOf(job)) === lost && existsSync(join(evalDirOf(runDir, m), "started"))) return { m, job };
        }
        return null;
      },
      (v) => v !== null,
      90_000,
      250,
    );
    const { m, job } = victim!;
    try {
      await testbed("stop", `slurmd@${lost}`);
      // the controller declares the node DOWN and requeues its job; Slurm then holds a requeued job back for
      // about two minutes (BeginTime): started at once here, to keep the suite short
      await waitFor(
        "the lost node's job to be queued again",
        async () => {
          const out = (await slurmCommand(["squeue", "-h", "-r", "-j", job, "-o", "%T"])).trim();
          return out;
        },
        (s) => s === "PENDING",
        120_000,
        500,
      );
      await slurmCommand(["scontrol", "update", `jobid=${job}`, "StartTime=now"]);
      const waited = await cli("wait", runDir, "--poll", "2", "--timeout", "240", "--json");
      assert.equal(waited.exitCode, 0, waited.stderr);
      const d = oneObject(waited);
      assert.equal(d.verdict, "accept");
      assert.equal(Object.keys(d.values).length, 4, "one value per measure: the lost one counted once");
      assert.equal(markerOf(runDir, m), job, "the same job ran again: the scheduler's requeue, nothing sent anew");
      const shown = oneObject(await cli("show", runDir, "--json"));
      const row = shown.measures.find((x: Json) => x.name === m);
      assert.deepEqual(row.attempts.map((a: Json) => [a.job_id, a.host, a.requeued]), [[job, lost, true]]);
      assert.match(row.attempts[0].why, new RegExp(`its attempt on ${lost} left no exit code: its node was lost`));
      assert.notEqual(row.provenance.host, lost, "its value came from another node");
      const text = (await cli("show", runDir)).stdout;
      assert.match(
        text,
        new RegExp(`earlier attempts[^\\n]*\\n(.*\\n)*  ${m.replace("#", "#")}: job ${job} on ${lost}: `),
      );
      const rows = await slurmCommand(["sacct", "-D", "-X", "-n", "-P", "-j", job, "-o", "State,NodeList"]);
      process.stderr.write(`live nodes (node lost): ${m} job ${job}: ${rows.trim().replace(/\n/g, ", ")}\n`);
      assert.match(rows, new RegExp(`NODE_FAIL\\|${lost}|REQUEUED\\|${lost}`), "sacct keeps the lost attempt");
    } finally {
      await testbed("start", `slurmd@${lost}`);
    }
  },
);

liveIt(
  "jobs waiting for drained nodes are waited on and named, never read as dead, and run once the nodes are back",
  240_000,
  async () => {
    const nodes = testbedNodes();
    const { argv, runDir } = newRun("nd", { repeats: 2, max_repeats: 2 });
    for (const n of nodes) {
      await slurmCommand(["scontrol", "update", `nodename=${n}`, "state=drain", "reason=outerloop-test"]);
    }
    try {
      const parked = await cli(...argv, "--json");
      assert.equal(parked.exitCode, 75, parked.stderr);
      const waiting = await cli("wait", runDir, "--poll", "1", "--timeout", "6", "--json");
      assert.equal(waiting.exitCode, 75, waiting.stderr);
      const w = oneObject(waiting);
      assert.deepEqual([w.status, w.stopped], ["waiting", "timeout"]);
      const shown = oneObject(await cli("show", runDir, "--json"));
      for (const x of shown.measures) {
        assert.equal(x.state, "pending", JSON.stringify(x));
        assert.ok(x.reason, `a pending measure's reason is named: ${JSON.stringify(x)}`);
      }
      process.stderr.write(`live nodes (drained): pending as ${shown.measures[0].reason}\n`);
    } finally {
      for (const n of nodes) await slurmCommand(["scontrol", "update", `nodename=${n}`, "state=resume"]);
    }
    const decided = await cli("wait", runDir, "--poll", "2", "--timeout", "180", "--json");
    assert.equal(decided.exitCode, 0, decided.stderr);
    assert.equal(oneObject(decided).verdict, "accept");
  },
);

liveIt(
  "a look whose pairs land on two hosts: each pair's measures on one host, in one job, and the run decides",
  240_000,
  async () => {
    const nodes = testbedNodes();
    // same-job pairs (one job runs a pair's measures one after the other) of five CPUs: one pair per node at a time
    const { argv, runDir } = newRun("nh", { repeats: 2, max_repeats: 2, pairing: "same-job", eval_cpus: 5 }, 3);
    const decided = await cli(...argv, "--wait", "--poll", "2", "--json");
    assert.equal(decided.exitCode, 0, decided.stderr);
    assert.equal(oneObject(decided).verdict, "accept");
    const hosts = await hostsOf(runDir);
    assert.equal(hosts["baseline"], hosts["candidate"], "pair 1 on one host");
    assert.equal(hosts["baseline#2"], hosts["candidate#2"], "pair 2 on one host");
    assert.notEqual(hosts["baseline"], hosts["baseline#2"], `the pairs on two hosts: ${JSON.stringify(hosts)}`);
    for (const h of Object.values(hosts)) assert.ok(nodes.includes(h), `${h} is a testbed node`);
    const text = (await cli("show", runDir)).stdout;
    for (const h of new Set(Object.values(hosts))) assert.ok(text.includes(h), `show names host ${h}`);
  },
);

liveIt(
  "a run measured with TMPDIR in the login node's own /tmp, which no node has: the evals run all the same",
  180_000,
  async () => {
    // this machine is the login node: its /tmp is not a node's (each node has its own)
    const loginTmp = mkdtempSync("/tmp/outerloop-login-");
    try {
      const { argv, runDir } = newRun("nt", { repeats: 2, max_repeats: 2 });
      const r = await spawn({
        argv: [await ensureBinary(), ...argv, "--wait", "--poll", "2", "--json"],
        env: { ...process.env, TMPDIR: loginTmp } as Record<string, string>,
        timeoutMs: 170_000,
        output: "separate",
      });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.equal(oneObject(r).verdict, "accept");
      // Slurm's step daemon makes a job's missing TMPDIR on its node (22.05, 24.11); were it not made, the eval
      // script drops the variable and checks out under the next temp dir (tests/dispatch/eval_script_test.ts)
      const log = readFileSync(join(evalDirOf(runDir, "baseline"), "output.log"), "utf8");
      process.stderr.write(`live nodes (login TMPDIR): baseline's output.log: ${JSON.stringify(log)}\n`);
    } finally {
      rmSync(loginTmp, { recursive: true, force: true });
    }
  },
);
