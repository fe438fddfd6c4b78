// test.sh: alone — it takes a node away and drains the others, under every other live test's jobs
/**
 * What scripts/slurm-testbed promises the live suite about its nodes, on the
 * real testbed: each node runs jobs under its own hostname with a /tmp of its
 * own, `stop DIR slurmd@NODE` loses a node as a power loss does (slurmctld
 * marks it DOWN and requeues its running batch job within a minute), `start`
 * brings it back idle, and `up` resumes a node a test left drained.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { after } from "node:test";
import { live, liveIt, slurmCommand, testbed, testbedNodes, waitFor } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const TAG = `tb-${Date.now().toString(36)}`;
const submitted: string[] = [];
let work = "";

function workDir(): string {
  if (!work) work = tempDir("outerloop-testbed-");
  return work;
}

async function sbatch(args: readonly string[], wrap: string): Promise<string> {
  const out = await slurmCommand([
    "sbatch",
    "--parsable",
    `--job-name=${TAG}`,
    "--account=acct_a",
    "--time=5",
    "--mem=50M",
    `--output=${path.join(workDir(), "%j.out")}`,
    ...args,
    `--wrap=${wrap}`,
  ]);
  const id = out.trim().split(";")[0]!;
  submitted.push(id);
  return id;
}

/** A node taking jobs: idle, or running some (a job of an earlier test may be on it). */
const USABLE = /^(idle|mixed|allocated|completing)$/;
const nodeState = async (node: string) =>
  (await slurmCommand(["sinfo", "-h", "-N", "-n", node, "-o", "%T"])).trim().split("\n")[0] ?? "";
const squeue = async (id: string, format: string) =>
  (await slurmCommand(["squeue", "-h", "-j", id, "-o", format])).trim();
/** Every attempt of the job in sacct (`-D`), oldest first: "STATE|NODELIST". */
const attempts = async (id: string) =>
  (await slurmCommand(["sacct", "-n", "-X", "-D", "-P", "-j", id, "-o", "State,NodeList"])).trim().split("\n")
    .filter((l) => l !== "");

after(async () => {
  if (live.kind !== "run") return;
  if (submitted.length > 0) await slurmCommand(["scancel", ...submitted]);
  if (work) rmSync(work, { recursive: true, force: true });
});

liveIt(
  "every node runs jobs under its own hostname, with a /tmp no other node and not this machine sees",
  120_000,
  async () => {
    const nodes = testbedNodes();
    assert.ok(nodes.length >= 1 && nodes.every((n, i) => n === `tbnode${i + 1}`), JSON.stringify(nodes));
    const mark = `/tmp/${TAG}-mark`;
    const seen = path.join(workDir(), "seen");
    for (const node of nodes) {
      // writes its mark in its /tmp, after saying whether a mark was there (an earlier node's)
      await sbatch(
        ["--wait", `--nodelist=${node}`],
        `echo "$(uname -n) $(test -e ${mark} && echo shared || echo own)" >> ${seen}; touch ${mark}`,
      );
    }
    assert.deepEqual(readFileSync(seen, "utf8").trim().split("\n"), nodes.map((n) => `${n} own`));
    assert.equal(existsSync(mark), false, "a job's /tmp file is seen on this machine");
  },
);

liveIt(
  "a lost node is DOWN within a minute, its running job requeued; started again it takes jobs",
  240_000,
  async () => {
    const nodes = testbedNodes();
    if (nodes.length < 2) {
      process.stderr.write("*** node loss needs SLURM_TESTBED_NODES=2 or more: only the restart is checked\n");
    }
    const lost = nodes[nodes.length - 1]!;
    const others = nodes.filter((n) => n !== lost);
    let passed = false;
    try {
      // the job must start on the node to be lost yet be free to run again elsewhere: the others drained meanwhile
      for (const n of others) {
        await slurmCommand([
          "scontrol",
          "update",
          `nodename=${n}`,
          "state=drain",
          `reason=${TAG}`,
        ]);
      }
      const id = await sbatch([], `echo "attempt \${SLURM_RESTART_COUNT:-0} on $(uname -n)"; sleep 300`);
      await waitFor(`job ${id} running`, () => squeue(id, "%T %N"), (s) => s === `RUNNING ${lost}`, 30_000, 250);
      for (const n of others) await slurmCommand(["scontrol", "update", `nodename=${n}`, "state=resume"]);
      const t0 = Date.now();
      await testbed("stop", `slurmd@${lost}`);
      await waitFor(`${lost} DOWN`, () => nodeState(lost), (s) => s.startsWith("down"), 60_000, 500);
      process.stderr.write(`${lost} DOWN ${((Date.now() - t0) / 1000).toFixed(1)} s after its loss\n`);
      if (others.length > 0) {
        // JobRequeue=1 (Slurm's default): the first attempt ends NODE_FAIL, the job is queued again
        const rows = await waitFor(
          `job ${id}'s first attempt NODE_FAIL`,
          () => attempts(id),
          (r) => r.length >= 2,
          30_000,
          500,
        );
        assert.equal(rows[0], `NODE_FAIL|${lost}`, JSON.stringify(rows));
        assert.match(await squeue(id, "%T"), /^(PENDING|RUNNING|CONFIGURING)$/);
      }
      await testbed("start", `slurmd@${lost}`);
      assert.match(await nodeState(lost), USABLE);
      passed = true;
    } finally {
      for (const n of others) {
        await slurmCommand(["scontrol", "update", `nodename=${n}`, "state=resume"]).catch(() => "");
      }
      // the nodes back for the next test; a failure here never hides the test's own
      await testbed("start", `slurmd@${lost}`).catch((e: unknown) => {
        if (passed) throw e;
        process.stderr.write(`restoring ${lost} failed too: ${String(e)}\n`);
      });
    }
  },
);

liveIt("`up` resumes a node a test left drained", 120_000, async () => {
  const node = testbedNodes()[0]!;
  await slurmCommand(["scontrol", "update", `nodename=${node}`, "state=drain", `reason=${TAG}`]);
  assert.match(await nodeState(node), /^drain/);
  await testbed("up");
  assert.match(await nodeState(node), USABLE);
});
