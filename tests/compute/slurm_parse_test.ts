import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseElapsed } from "../../src/compute/elapsed.ts";
import { modeFromEnv } from "../../src/compute/mode.ts";
import {
  firstLine,
  parseActiveJobs,
  parseRequeues,
  parseSbatchId,
  parseStates,
} from "../../src/compute/slurm_parse.ts";
import { GONE, isPending, isTerminal, TERMINAL_STATES } from "../../src/compute/states.ts";

describe("parseElapsed()", () => {
  it("reads MM:SS, HH:MM:SS and D-HH:MM:SS", () => {
    assert.equal(parseElapsed("01:05"), 65);
    assert.equal(parseElapsed("02:00:03"), 7203);
    assert.equal(parseElapsed("1-00:00:10"), 86410);
    assert.equal(parseElapsed("00:00:00"), 0);
    assert.equal(parseElapsed("42"), 42);
  });
  it("gives null for anything else", () => {
    for (const bad of ["", "x", "1:2:3:4", "a-01:00:00", "-01:00", "01:xx", "1-", "01:-1", "1.5:00", " 1:00"]) {
      assert.equal(parseElapsed(bad), null, JSON.stringify(bad));
    }
  });
});

describe("states", () => {
  it("matches terminal states by prefix", () => {
    assert.ok(isTerminal("CANCELLED by 0"));
    for (const s of TERMINAL_STATES) assert.ok(isTerminal(s));
    for (const s of ["RUNNING", "PENDING", "REQUEUED", GONE, ""]) assert.equal(isTerminal(s), false, s);
  });
  it("does not count GONE as terminal and knows PENDING", () => {
    assert.equal(isTerminal(GONE), false);
    assert.ok(isPending("PENDING"));
    assert.equal(isPending("RUNNING"), false);
  });
});

describe("modeFromEnv()", () => {
  it("selects local only for AUTORESEARCH_COMPUTE=local, any case or padding", () => {
    assert.equal(modeFromEnv({ AUTORESEARCH_COMPUTE: " Local " }), "local");
    assert.equal(modeFromEnv({ AUTORESEARCH_COMPUTE: "slurm" }), "slurm");
    assert.equal(modeFromEnv({ AUTORESEARCH_COMPUTE: "locale" }), "slurm");
    assert.equal(modeFromEnv({}), "slurm");
  });

  it("selects Grid Engine for AUTORESEARCH_COMPUTE=sge; anything else but local stays Slurm", () => {
    assert.equal(modeFromEnv({ AUTORESEARCH_COMPUTE: " SGE " }), "sge");
    assert.equal(modeFromEnv({ AUTORESEARCH_COMPUTE: "gridengine" }), "slurm");
  });
});

describe("scheduler output parsers", () => {
  it("reads sbatch --parsable ids with and without a cluster", () => {
    assert.equal(parseSbatchId("123\n"), "123");
    assert.equal(parseSbatchId("456;cluster\n"), "456");
    assert.equal(parseSbatchId(""), null);
    assert.equal(parseSbatchId("Submitted batch job 5"), null);
  });
  it("reads the first line of query output", () => {
    assert.equal(firstLine("\n  RUNNING \nCOMPLETED\n"), "RUNNING");
    assert.equal(firstLine("  \n"), "");
  });
  it("groups squeue lines (id, state, reason, partition, script, name) by name, keeping duplicates and a | anywhere", () => {
    const line = (...fields: string[]) => fields.join("\x1f") + "\n";
    const jobs = parseActiveJobs(
      line("10", "PENDING", "Dependency", "cpu", "/r|1/eval-x/job.sh", "a") +
        line("11", "RUNNING", "None", "gpu", "", "b") +
        line("12", "PENDING", "BeginTime", "cpu", "(null)", "a") + "\ngarbage\n" +
        line("13", "PENDING", "Priority", "cpu", "/s", "x|y") + line("ab", "RUNNING", "None", "cpu", "", "z") +
        "14|PENDING|None|cpu|old-format\n",
    );
    assert.deepEqual([...jobs].map(([n, js]) => [n, js.map((j) => j.id)]), [["a", ["10", "12"]], ["b", ["11"]], [
      "x|y",
      ["13"],
    ]]);
    assert.deepEqual(jobs.get("a")![1], {
      id: "12",
      arrayId: null,
      taskId: null,
      name: "a",
      state: "PENDING",
      reason: "BeginTime",
      partition: "cpu",
      script: "",
    });
    assert.equal(jobs.get("a")![0]!.script, "/r|1/eval-x/job.sh", "a | in the script's path shifts nothing");
  });
  it("reads sacct JobID|State lines, first record per id", () => {
    const states = parseStates("10|COMPLETED\n11|CANCELLED by 0\n10|FAILED\nbad\n");
    assert.deepEqual([...states], [["10", "COMPLETED"], ["11", "CANCELLED by 0"]]);
  });
  it("counts each job's REQUEUED rows of sacct -D (its earlier runs), as 22.05 and 24.11 print them", () => {
    // 347_1 requeued twice, its last run refused on its node; 348 never requeued
    const out = "347_1|REQUEUED\n347_1|REQUEUED\n347_1|FAILED\n348|COMPLETED\n347|REQUEUED\n";
    assert.deepEqual([...parseRequeues(out)], [["347_1", 2], ["347", 1]]);
  });
});
