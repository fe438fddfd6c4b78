import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { renderPairScript, writePairJob } from "../../src/dispatch/pair_job.ts";
import { tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

/**
 * Stand-ins for eval job scripts: each appends "start NAME" and "end NAME"
 * to a shared log, records the CPUs it may use, and on a signal records
 * which one it got — TERM or USR1 (the pair job's "abandoned") — as an eval
 * script's traps would, then ends. With `waitFor`, it starts its end only once
 * that other member has started (a rendezvous: only two at once can pass it).
 */
function member(dir: string, name: string, opts: { waitFor?: string; hold?: boolean } = {}): string {
  const log = join(dir, "log");
  const script = join(dir, `${name}.sh`);
  const rendezvous = opts.waitFor
    ? `i=0; until grep -qx "start ${opts.waitFor}" "${log}"; do i=$((i+1)); [ $i -gt 200 ] && { echo "alone ${name}" >>"${log}"; break; }; sleep 0.05; done`
    : "";
  const hold = opts.hold ? `touch "${dir}/${name}.running"; while :; do sleep 0.05; done` : "";
  writeFileSync(
    script,
    `trap 'echo "TERM ${name}" >>"${log}"; exit 143' TERM
trap 'echo "USR1 ${name}" >>"${log}"; exit 130' USR1
echo "start ${name}" >>"${log}"
sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >"${dir}/${name}.cpus"
${rendezvous}
${hold}
echo "end ${name}" >>"${log}"
`,
  );
  return script;
}

/** Runs the pair job in a process group of its own; resolves with its exit code. */
function run(script: string): { pid: number; done: Promise<number | null> } {
  const child = spawn("sh", [script], { detached: true, stdio: "ignore" });
  const done = new Promise<number | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : null)))
  );
  return { pid: child.pid!, done };
}

const lines = (dir: string) =>
  existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8").trim().split("\n") : [];

describe("a same-job pair job", () => {
  it("runs its measures one after the other, in its order", async () => {
    const dir = tempDir("pair-job-");
    const script = writePairJob(join(dir, "unit"), "same-job", [member(dir, "cand"), member(dir, "base")]);
    assert.equal(await run(script).done, 0);
    assert.deepEqual(lines(dir), ["start cand", "end cand", "start base", "end base"]);
  });

  it("passes a TERM on to the measure running and starts no other, exiting 143", async () => {
    const dir = tempDir("pair-job-");
    const script = writePairJob(join(dir, "unit"), "same-job", [member(dir, "a", { hold: true }), member(dir, "b")]);
    const job = run(script);
    await waitFor("the first measure to run", () => existsSync(join(dir, "a.running")), Boolean);
    process.kill(job.pid, "SIGTERM"); // the job script alone: it must pass the signal on itself
    assert.equal(await job.done, 143);
    assert.deepEqual(lines(dir), ["start a", "TERM a"]);
  });

  it("passes an INT (outerloop abandoning the job) on as USR1, which a background measure can trap", async () => {
    const dir = tempDir("pair-job-");
    const script = writePairJob(join(dir, "unit"), "same-job", [member(dir, "a", { hold: true }), member(dir, "b")]);
    const job = run(script);
    await waitFor("the first measure to run", () => existsSync(join(dir, "a.running")), Boolean);
    process.kill(-job.pid, "SIGINT"); // the whole group, as the local backend stops a job
    assert.equal(await job.done, 130);
    assert.deepEqual(lines(dir), ["start a", "USR1 a"]);
  });
});

describe("a duet pair job", () => {
  it("runs a base and its candidate at once, then the next two", async () => {
    const dir = tempDir("pair-job-");
    const script = writePairJob(join(dir, "unit"), "duet", [
      member(dir, "base", { waitFor: "cand" }),
      member(dir, "cand", { waitFor: "base" }),
      member(dir, "sib-base", { waitFor: "sib-cand" }),
      member(dir, "sib-cand", { waitFor: "sib-base" }),
    ]);
    assert.equal(await run(script).done, 0);
    const log = lines(dir);
    assert.equal(log.filter((l) => l.startsWith("alone")).length, 0, log.join("\n"));
    assert.ok(
      log.indexOf("start sib-base") > log.indexOf("end base") &&
        log.indexOf("start sib-base") > log.indexOf("end cand"),
    );
  });

  it("pins the two to disjoint halves of the job's CPUs where there are two or more", async (t) => {
    const dir = tempDir("pair-job-");
    const script = writePairJob(join(dir, "unit"), "duet", [member(dir, "base"), member(dir, "cand")]);
    assert.equal(await run(script).done, 0);
    const all = readFileSync("/proc/self/status", "utf8").match(/^Cpus_allowed_list:\s*(.*)$/m)?.[1] ?? "";
    const base = readFileSync(join(dir, "base.cpus"), "utf8").trim();
    const cand = readFileSync(join(dir, "cand.cpus"), "utf8").trim();
    if (all === "0" || !existsSync("/usr/bin/taskset")) {
      t.diagnostic(`one CPU (${all}) or no taskset: both run unpinned`);
      assert.equal(base, cand);
      return;
    }
    assert.notEqual(base, cand);
    assert.notEqual(base, all);
  });
});

describe("renderPairScript()", () => {
  it("quotes every script path and refuses what cannot run", () => {
    const s = renderPairScript("same-job", ["/run dir/eval-a'b/job.sh"]);
    assert.match(s, /ol_one '\/run dir\/eval-a'"'"'b\/job\.sh'/);
    assert.throws(() => renderPairScript("duet", ["/a/job.sh"]), TypeError);
    assert.throws(() => renderPairScript("same-job", ["relative/job.sh"]), TypeError);
    assert.throws(() => renderPairScript("same-job", []), TypeError);
  });
});
