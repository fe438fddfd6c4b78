/**
 * The failure rules on a real Grid Engine cell, through the binary as a user
 * drives it — the GE twin of tests/slurm/failure_live_test.ts: a round whose
 * one candidate crashes decides among the others with no other arm's task
 * deleted (qacct: every task ran to its end); a running task and a waiting
 * one deleted by someone else (`qdel A -t T`) are sent again and the run
 * decides on every pair, the killed attempt kept; a run its baseline failed
 * is taken up with `resume --retry-failed` once the cause is fixed, sending
 * only what failed, and its `--json` on exit 3 names the measure, the job
 * and the cause.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { RETRIED_FILE } from "../../src/measure/attempts.ts";
import { ensureBinary } from "../helpers/binary.ts";
import {
  evalDirOf,
  failureBench as bench,
  failureContract,
  type Json,
  markerOf,
  oneObject,
} from "../helpers/failure_live.ts";
import { cli, geCommand, geIt, geLive, measureSge, waitFor } from "../helpers/ge_live.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

/** Every run tag this file used: whatever of their jobs GE still lists is deleted at the end. */
const tags: string[] = [];
after(async () => {
  if (geLive.kind !== "run" || tags.length === 0) return;
  const xml = await geCommand(["qstat", "-u", "root", "-xml"]).catch(() => "");
  const ids = [
    ...xml.matchAll(/<JB_job_number>(\d+)<\/JB_job_number>\s*<JAT_prio>[^<]*<\/JAT_prio>\s*<JB_name>([^<]*)</g),
  ]
    .filter((m) => tags.some((t) => m[2]!.includes(`-${t}-`))).map((m) => m[1]!);
  if (ids.length > 0) await geCommand(["qdel", ...new Set(ids)]).catch(() => "");
});

/** A tag of its own for each run. */
function newTag(prefix: string): string {
  const tag = `${prefix}${Math.random().toString(36).slice(2, 6)}`;
  tags.push(tag);
  return tag;
}

/** One task's accounting record: GE's task number (1-based), `failed` and `exit_status`. */
interface AcctRecord {
  readonly task: number;
  readonly failed: number;
  readonly exitStatus: number;
}

/** qacct's records of job (or array) `jobNumber`, [] while it has none (it lags the queue). */
async function acctRecords(jobNumber: string): Promise<AcctRecord[]> {
  const out = await geCommand(["qacct", "-j", jobNumber]).catch(() => "");
  return out.split(/^=+$/m).filter((b) => /^jobnumber/m.test(b)).map((b) => {
    const field = (k: string) => Number(b.match(new RegExp(`^${k}\\s+(\\S+)`, "m"))?.[1] ?? NaN);
    const task = field("taskid");
    return { task: Number.isNaN(task) ? 1 : task, failed: field("failed"), exitStatus: field("exit_status") };
  });
}

/** The record of outerloop's job `ref` (`A_T` is GE's task T+1 of array A), once qacct has it. */
async function recordOf(ref: string): Promise<AcctRecord> {
  const [job, task] = ref.split("_");
  const gets = async () =>
    (await acctRecords(job!)).find((r) => r.task === (task === undefined ? 1 : Number(task) + 1));
  const record = await waitFor(`qacct's record of ${ref}`, gets, (r) => r !== undefined, 90_000, 1000);
  return record!;
}

geIt(
  "a round whose one candidate crashes decides among the others on GE; no other arm's task is deleted",
  300_000,
  async () => {
    const started = Date.now();
    const binary = await ensureBinary();
    // base 10; candidate +3 (the winner on every seed), candidate-2 crashes, candidate-3 −2 (dropped by the screen)
    const { repo, shas } = makeRepo([bench(10), bench(13), bench(10, "crash"), bench(8)]);
    const tag = newTag("gfa");
    const runDir = join(tempDir("ge-failure-round-"), tag);
    const file = failureContract({ repeats: 3, max_repeats: 3 });
    const parked = await measureSge(binary, repo, shas, runDir, file, "--seed", "3");
    assert.equal(parked.exitCode, 75, parked.stderr);
    const waited = await cli(binary, "wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(waited.exitCode, 0, `a winner among the others: ${waited.stderr}`);
    const w = oneObject(waited);
    assert.deepEqual([w.verdict, w.winner.arm, w.candidate_sha], ["accept", 1, shas[1]]);
    const crashedArm = w.candidates.find((c: Json) => c.arm === 2);
    assert.deepEqual([crashedArm.verdict, crashedArm.standing, crashedArm.because], ["crashed", "dropped", "crashed"]);
    const crashed = crashedArm.crash.measure;
    assert.match(crashed, /^candidate-2(#2)?$/);
    assert.deepEqual([crashedArm.crash.job_id, crashedArm.crash.cause], [
      markerOf(runDir, crashed),
      "eval command exited with code 1",
    ]);
    assert.match(crashedArm.crash.message, /^Traceback: the proposal broke$/m, "the crash carries its log's tail");
    assert.equal(existsSync(join(runDir, "failure.json")), false, "a candidate's crash is not the run's failure");
    const s = oneObject(await cli(binary, "show", runDir, "--json"));
    assert.equal(s.state, "decided");
    assert.deepEqual(s.crashes.map((c: Json) => c.measure).sort(), ["candidate-2", "candidate-2#2"], "both crashed");

    // qacct: every measured task ran to its own end (a task deleted while running reads failed 100; one
    // deleted while waiting has no record at all, so waiting for each record also proves it ran)
    const d = JSON.parse(readFileSync(join(runDir, "decision.json"), "utf8"));
    const measured = [...Object.keys(d.values), ...s.crashes.map((c: Json) => c.measure)];
    for (const m of measured) {
      const ref = markerOf(runDir, m);
      const record = await recordOf(ref);
      assert.equal(record.failed, 0, `${m} (task ${ref}) was deleted: ${JSON.stringify(record)}`);
      assert.equal(record.exitStatus, s.crashes.some((c: Json) => c.measure === m) ? 1 : 0, `${m}'s exit`);
    }
    process.stderr.write(`live-ge failure (round crash): ${measured.length} tasks; wall ${Date.now() - started} ms\n`);
  },
);

/**
 * The eval checkouts left under /tmp (where a job's checkout went when it had
 * no directory of its own) that were cloned from `repo`: a `--shared` clone
 * names its source's objects in `.git/objects/info/alternates`.
 */
function checkoutsOf(repo: string): string[] {
  const objects = new Set([join(repo, ".git", "objects"), realpathSync(join(repo, ".git", "objects"))]);
  return readdirSync("/tmp").filter((d) => d.startsWith("outerloop-eval.")).filter((d) => {
    const alternates = join("/tmp", d, "tree", ".git", "objects", "info", "alternates");
    return existsSync(alternates) && readFileSync(alternates, "utf8").split("\n").some((l) => objects.has(l.trim()));
  });
}

geIt(
  "a running task and a waiting one deleted by someone else are sent again; the run decides on every pair",
  300_000,
  async () => {
    const started = Date.now();
    const binary = await ensureBinary();
    const { repo, shas } = makeRepo([bench(10, "ok", 0, 6), bench(13, "ok", 0, 6)]);
    const tag = newTag("gfq");
    const runDir = join(tempDir("ge-failure-qdel-"), tag);
    const file = failureContract({ repeats: 2, max_repeats: 2 });
    // one task at a time: one runs while the others wait
    const parked = await measureSge(binary, repo, shas, runDir, file, "--seed", "3", "--array-throttle", "1");
    assert.equal(parked.exitCode, 75, parked.stderr);
    const names = ["baseline", "candidate", "baseline#2", "candidate#2"];
    const running = await waitFor(
      "an eval to start",
      () => names.find((m) => existsSync(join(evalDirOf(runDir, m), EVAL_FILES.started))),
      (m) => m !== undefined,
      90_000,
      250,
    );
    const waiting = names.filter((m) => m !== running).at(-1)!;
    const victims = [running!, waiting].map((m) => ({ measure: m, ref: markerOf(runDir, m) }));
    for (const v of victims) {
      const [job, task] = v.ref.split("_");
      await geCommand(["qdel", job!, "-t", String(Number(task) + 1)]);
    }
    assert.equal((await recordOf(victims[0]!.ref)).failed, 100, "the running task was deleted while it ran");

    const waited = await cli(binary, "wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(waited.exitCode, 0, waited.stderr);
    const w = oneObject(waited);
    assert.equal(w.verdict, "accept");
    assert.deepEqual(Object.keys(w.values).sort(), [...names].sort(), "every pair measured");
    for (const v of victims) {
      const dir = evalDirOf(runDir, v.measure);
      assert.notEqual(markerOf(runDir, v.measure), v.ref, `${v.measure} ran again in a job of its own`);
      assert.match(readFileSync(join(dir, RETRIED_FILE), "utf8"), new RegExp(`^${v.ref}$`, "m"));
    }
    const killed = evalDirOf(runDir, victims[0]!.measure);
    assert.ok(existsSync(join(killed, "attempt-1", EVAL_FILES.started)), "the killed attempt kept");
    assert.equal(existsSync(join(runDir, "failure.json")), false, "a deletion by someone else fails nothing");
    // qdel kills outright: the task's checkout was in the job's own directory, which execd removed
    assert.deepEqual(checkoutsOf(repo), [], "no checkout of the run left on the node");
    process.stderr.write(
      `live-ge failure (qdel): ${
        victims.map((v) => `${v.measure} ${v.ref} -> ${markerOf(runDir, v.measure)}`)
          .join(", ")
      }; wall ${Date.now() - started} ms\n`,
    );
  },
);

geIt(
  "a run its baseline failed on GE: --json on exit 3 names measure, job and cause; --retry-failed sends only that",
  300_000,
  async () => {
    const started = Date.now();
    const binary = await ensureBinary();
    const dir = tempDir("ge-failure-retry-");
    const flag = join(dir, "broken");
    writeFileSync(flag, "the baseline's benchmark fails while this file exists\n");
    const { repo, shas } = makeRepo([bench(10, "flagged"), bench(12)]);
    const tag = newTag("gfr");
    const runDir = join(dir, tag);
    const file = failureContract({ command: `sh bench.sh ${flag}`, repeats: 2, max_repeats: 2 });
    const parked = await measureSge(binary, repo, shas, runDir, file, "--seed", "3");
    assert.equal(parked.exitCode, 75, parked.stderr);
    const failed = await cli(binary, "wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(failed.exitCode, 3, failed.stderr);
    const f = JSON.parse(readFileSync(join(runDir, "failure.json"), "utf8"));
    assert.match(f.measure, /^baseline(#2)?$/);
    assert.deepEqual([f.job_id, f.kind, f.cause], [
      markerOf(runDir, f.measure),
      "exit",
      "eval command exited with code 1",
    ]);
    const j = oneObject(failed);
    assert.deepEqual([j.status, j.exit_code, j.error.kind, j.state], ["error", 3, "eval-failed", "failed"]);
    assert.deepEqual(j.failure, f, "wait --json gives failure.json's failure");
    assert.match(j.error.message, new RegExp(`^measure ${f.measure.replace("#", "\\#")} \\(job ${f.job_id}\\): `));
    assert.match(j.failure.message, /^broken while \S+ exists$/m, "the failure carries the log's tail");

    const shown = oneObject(await cli(binary, "show", runDir, "--json"));
    assert.equal(shown.state, "failed");
    const kept = Object.fromEntries(
      shown.measures.filter((m: Json) => m.state === "done").map((m: Json) => [m.name, [m.value, m.job_id]]),
    );
    assert.deepEqual(Object.keys(kept).sort(), ["candidate", "candidate#2"]);
    const oldBase = ["baseline", "baseline#2"].map((m) => markerOf(runDir, m));

    rmSync(flag);
    const retried = await cli(binary, "resume", runDir, "--retry-failed", "--json");
    assert.equal(retried.exitCode, 75, retried.stderr);
    assert.equal(oneObject(retried).status, "parked");
    const decided = await cli(binary, "wait", runDir, "--poll", "2", "--timeout", "240", "--json");
    assert.equal(decided.exitCode, 0, decided.stderr);
    const d = oneObject(decided);
    assert.equal(d.verdict, "accept");
    for (const [name, [value, job]] of Object.entries(kept) as [string, [number, string]][]) {
      assert.equal(d.values[name], value, `${name}'s value is kept`);
      assert.equal(markerOf(runDir, name), job, `${name} was not measured again`);
    }
    const newBase = ["baseline", "baseline#2"].map((m) => markerOf(runDir, m));
    for (const [i, id] of newBase.entries()) {
      assert.notEqual(id, oldBase[i], "a new job, never the failed one adopted");
      assert.deepEqual([(await recordOf(id)).exitStatus, (await recordOf(oldBase[i]!)).exitStatus], [0, 1]);
    }
    assert.equal(existsSync(join(runDir, "failure.json")), false);
    const history = JSON.parse(readFileSync(join(runDir, "failure-history.json"), "utf8")).failures;
    assert.equal(history.length, 1);
    process.stderr.write(`live-ge failure (retry-failed): wall ${Date.now() - started} ms\n`);
  },
);
