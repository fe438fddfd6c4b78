/**
 * Waiting on a real Grid Engine cell, as an agent drives it: `measure
 * --wait` parks, waits and prints the verdict, and nothing of the run stays
 * queued after (the wake that decided ends by itself, any other is deleted);
 * `wait` of the decided run answers decision.json's verdict; and a `wait`
 * started after the jobs were submitted counts their time pending from the
 * submission, not from its own first look.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../helpers/binary.ts";
import { cli, geCommand, geIt, measureSge, namesQueued, uniqueTag, waitFor } from "../helpers/ge_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

const sleepy = (score: number) => ({ "bench.sh": `sleep 2\necho '{"score": ${score}}'\n` });

function contract(dir: string): string {
  const file = join(dir, "contract.json");
  const c = {
    name: "toy",
    command: "sh bench.sh",
    metric: "score",
    direction: "maximize",
    repeats: 2,
    eval_minutes: 2,
  };
  writeFileSync(file, JSON.stringify(c));
  return file;
}

geIt("measure --wait on GE prints the verdict, leaves nothing queued, and wait answers it again", 240_000, async () => {
  const binary = await ensureBinary();
  const { repo, shas } = makeRepo([sleepy(10), sleepy(12)]);
  const dir = tempDir("ge-wait-");
  const tag = uniqueTag("gewt");
  const runDir = join(dir, tag);
  const r = await measureSge(binary, repo, shas, runDir, contract(dir), "--wait", "--poll", "2");
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stderr, /parked on job\(s\) \d+ behind wake job \d+; waiting for the verdict/);
  const decision = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
  const answer = JSON.parse(r.stdout);
  assert.equal(answer.status, "decided");
  assert.equal(answer.verdict, decision.verdict);
  assert.equal(decision.verdict, "accept");
  await waitFor("nothing of the run queued", () => namesQueued(tag), (n) => n.length === 0, 60_000, 500);
  const again = await cli(binary, "wait", runDir, "--json");
  assert.equal(again.exitCode, 0, again.stderr);
  assert.deepEqual(
    { status: JSON.parse(again.stdout).status, verdict: JSON.parse(again.stdout).verdict },
    { status: "decided", verdict: decision.verdict },
  );
});

geIt("a wait started after the jobs were queued counts their time pending from their submission", 180_000, async () => {
  const binary = await ensureBinary();
  // every slot of the cell taken, so the run's tasks wait in the queue
  const slots = Number(/slots\s+(\d+)/.exec(await geCommand(["qconf", "-sq", "all.q"]))?.[1] ?? "8");
  const blockers: string[] = [];
  try {
    for (let i = 0; i < slots; i++) {
      const id = await geCommand([
        "qsub",
        "-terse",
        "-b",
        "y",
        "-N",
        "blocker",
        "-o",
        "/dev/null",
        "-j",
        "y",
        "sleep",
        "90",
      ]);
      blockers.push(id.trim());
    }
    const { repo, shas } = makeRepo([sleepy(10), sleepy(12)]);
    const dir = tempDir("ge-pending-");
    const runDir = join(dir, uniqueTag("gepd"));
    const parked = await measureSge(binary, repo, shas, runDir, contract(dir));
    assert.equal(parked.exitCode, 75, parked.stderr);
    const submitted = Date.now();
    // the clock moves on before anyone looks: the queue's own answer does not say since when a job waits
    await waitFor("4 s after the submission", () => Date.now() - submitted, (ms) => ms >= 4000, 10_000, 200);
    const w = await cli(binary, "wait", runDir, "--timeout", "1");
    assert.equal(w.exitCode, 75, w.stderr);
    const pending = /longest pending: \S+ \(job \d+_\d+[^)]*\) for (\d+)s/.exec(w.stderr);
    assert.ok(pending !== null, w.stderr);
    assert.ok(Number(pending[1]) >= 4, `pending for ${pending[1]}s, 4 s or more after the submission: ${w.stderr}`);
    const cancel = await cli(binary, "cancel", runDir);
    assert.equal(cancel.exitCode, 0, cancel.stderr);
    assert.ok(existsSync(join(runDir, "cancelled.json")));
  } finally {
    if (blockers.length > 0) await geCommand(["qdel", ...blockers]).catch(() => "");
  }
});
