import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BadInputError } from "../../src/errors.ts";
import {
  beginTime,
  checkSgeJobName,
  geMemory,
  holdJid,
  qsubArgv,
  SgeJobNameError,
  shebang,
  WRAPPER,
} from "../../src/compute/sge_submit.ts";
import { tempDir } from "../helpers/temp.ts";

const base = { jobName: "eval-t1-base", account: "acct", partition: "", timeMinutes: 10 };
const opts = { wrapper: "/tmp/w.sh", interpreter: ["/bin/sh"], now: 0, pe: "smp" };

describe("qsubArgv", () => {
  it("names, spools the wrapper under /bin/sh, exports the clean env, runs where submitted", () => {
    const argv = qsubArgv({ ...base, script: "/r/job.sh", scriptArgs: ["a b"], output: "/r/slurm.out" }, opts);
    assert.deepEqual(argv, [
      "qsub",
      "-terse",
      "-N",
      "eval-t1-base",
      "-S",
      "/bin/sh",
      "-V",
      "-cwd",
      "-o",
      "/r/slurm.out",
      "-j",
      "y",
      "-l",
      "h_rt=600",
      "-l",
      "mem_free=2G",
      "-A",
      "acct",
      "/tmp/w.sh",
      "/bin/sh",
      "/r/job.sh",
      "a b",
    ]);
  });

  it("asks CPUs from the PE, GPUs as the consumable count, the partition as the queue; no QOS", () => {
    const argv = qsubArgv({ ...base, command: "true", cpus: 4, gpus: 2, mem: "1024", partition: "gpu.q", qos: "hi" }, {
      ...opts,
      pe: "threads",
    });
    const s = argv.join(" ");
    assert.match(s, / -pe threads 4 /);
    assert.match(s, / -l gpu=2 /);
    assert.match(s, / -l mem_free=1024M /);
    assert.match(s, / -q gpu\.q /);
    assert.doesNotMatch(s, /hi/);
    assert.deepEqual(argv.slice(-3), ["/bin/sh", "-c", "true"]);
  });

  it("holds on the dependency's jobs (a task waits on its array), an array is -t 1-N with -tc", () => {
    const argv = qsubArgv({ ...base, command: "x", dependency: "afterany:12:13_0:13_4" }, {
      ...opts,
      tasks: 5,
      throttle: 2,
    });
    const s = argv.join(" ");
    assert.match(s, / -hold_jid 12,13 /);
    assert.match(s, / -t 1-5 -tc 2 /);
  });

  it("turns Slurm's output patterns into GE's; an array's %a goes to /dev/null (the array script writes task-T.out)", () => {
    const out = (output: string, tasks?: number) => {
      const a = qsubArgv({ ...base, command: "x", output }, { ...opts, ...(tasks ? { tasks } : {}) });
      return a[a.indexOf("-o") + 1];
    };
    assert.equal(out("/r/log-%j.out"), "/r/log-$JOB_ID.out");
    assert.equal(out("/r/task-%a.out", 3), "/dev/null");
    assert.equal(out("/r/100%%.out"), "/r/100%.out");
  });

  it("drops --open-mode=append (GE appends) and passes other extras to qsub", () => {
    const argv = qsubArgv({ ...base, command: "x", extra: ["--open-mode=append", "-h"] }, opts);
    assert.ok(!argv.includes("--open-mode=append"));
    assert.ok(argv.includes("-h"));
  });

  it("translates begin times to -a", () => {
    const now = new Date(2026, 0, 2, 3, 4, 5).getTime();
    assert.equal(beginTime("now+300", now), "202601020309.05");
    assert.equal(beginTime("2026-05-06T07:08", now), "202605060708.00");
    assert.throws(() => beginTime("tomorrow", now), BadInputError);
  });

  it("refuses a dependency GE cannot express (no afterok)", () => {
    assert.equal(holdJid("singleton", "n"), "n");
    assert.throws(
      () => holdJid("afterok:12", "n"),
      (e: unknown) => e instanceof BadInputError && /afterok/.test(String(e)),
    );
  });

  it("reads the interpreter from #!", () => {
    assert.deepEqual(shebang("#!/bin/bash"), ["/bin/bash"]);
    assert.deepEqual(shebang("#! /usr/bin/env python3"), ["/usr/bin/env", "python3"]);
    assert.deepEqual(shebang("echo hi"), ["/bin/sh"]);
    assert.equal(geMemory("500m"), "500M");
  });
});

describe("checkSgeJobName", () => {
  it("accepts outerloop's names and refuses GE's forbidden ones with exit 2", () => {
    assert.equal(checkSgeJobName("eval-t1-baseline-0123abcd"), "eval-t1-baseline-0123abcd");
    for (const bad of ["1abc", "a/b", "a:b", "a@b", "a\\b", "a*b", "a?b", "a b", ""]) {
      assert.throws(
        () => checkSgeJobName(bad),
        (e: unknown) => e instanceof SgeJobNameError && e instanceof BadInputError,
        bad,
      );
    }
  });
});

describe("the job wrapper", () => {
  const wrapper = () => {
    const f = join(tempDir("sge-wrapper-"), "w.sh");
    writeFileSync(f, WRAPPER);
    return f;
  };
  const run = (env: Record<string, string>, ...args: string[]) =>
    spawnSync("sh", [wrapper(), ...args], { env: { PATH: process.env["PATH"]!, ...env }, encoding: "utf8" });

  it("maps exit 99 and 100 to 1 (GE would reschedule and hold), passes every other code", () => {
    const env = { JOB_ID: "7", SGE_TASK_ID: "undefined" };
    assert.equal(run(env, "sh", "-c", "exit 99").status, 1);
    assert.match(run(env, "sh", "-c", "exit 100").stderr, /exit 100 is read as 1/);
    assert.equal(run(env, "sh", "-c", "exit 3").status, 3);
    assert.equal(run(env, "sh", "-c", "exit 0").status, 0);
  });

  it("sets OUTERLOOP_JOB_ID to JOB_ID, or JOB_ID_T with T = SGE_TASK_ID - 1 for an array task", () => {
    assert.equal(
      run({ JOB_ID: "7", SGE_TASK_ID: "undefined" }, "sh", "-c", 'printf %s "$OUTERLOOP_JOB_ID"').stdout,
      "7",
    );
    assert.equal(run({ JOB_ID: "8", SGE_TASK_ID: "1" }, "sh", "-c", 'printf %s "$OUTERLOOP_JOB_ID"').stdout, "8_0");
    assert.ok(execFileSync("sh", ["-n", wrapper()]).length === 0);
  });
});
