import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SlurmError, SlurmQueryError } from "../../src/compute/errors.ts";
import type { Runner } from "../../src/compute/runner.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import { LocalCompute } from "../../src/compute/local.ts";
import {
  elapsedOnly,
  parseCpuTime,
  parseMemory,
  parseReqMem,
  parseUsage,
  USAGE_FIELDS,
} from "../../src/compute/usage.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";

/** Real `sacct -o JobID,State,Elapsed,Timelimit,TotalCPU,AllocCPUS,ReqMem,MaxRSS --parsable2 --noheader`
 * output from the project's Slurm 22.05 testbed (jobacct_gather/linux): a job with an srun step, and a
 * job cancelled while it ran. */
const SACCT_STEPS = [
  "5|COMPLETED|00:00:04|00:01:00|00:01.626|2|200M|",
  "5.batch|COMPLETED|00:00:04||00:00.022|2||10808K",
  "5.0|COMPLETED|00:00:03||00:01.604|2||136292K",
  "6|CANCELLED by 0|00:00:03|00:01:00|00:00.004|1|256M|",
  "6.batch|CANCELLED|00:00:03||00:00.004|1||2944K",
].join("\n");

/** The same testbed with jobacct_gather/none: no MaxRSS anywhere, TotalCPU zero. */
const SACCT_NO_GATHER = ["2|COMPLETED|00:00:03|00:02:00|00:00:00|1|100M|", "2.batch|COMPLETED|00:00:03||00:00:00|1||"]
  .join("\n");

describe("parseUsage()", () => {
  it("takes the job line's times, CPUs and request and the largest MaxRSS of its steps", () => {
    const u = parseUsage(SACCT_STEPS);
    assert.deepEqual(u.get("5"), {
      jobId: "5",
      state: "COMPLETED",
      elapsedS: 4,
      timelimitS: 60,
      maxRssBytes: 136292 * 1024,
      reqMemBytes: 200 * 1024 ** 2,
      allocCpus: 2,
      totalCpuS: 1.626,
      cpuEfficiency: 1.626 / (4 * 2),
    });
    assert.equal(u.get("6")?.state, "CANCELLED by 0");
    assert.equal(u.get("6")?.maxRssBytes, 2944 * 1024);
    assert.equal(u.size, 2);
  });

  it("reads an unmeasured TotalCPU as unknown, not idle, when no step has a MaxRSS", () => {
    const u = parseUsage(SACCT_NO_GATHER).get("2")!;
    assert.equal(u.maxRssBytes, null);
    assert.equal(u.totalCpuS, null);
    assert.equal(u.cpuEfficiency, null);
    assert.equal(u.elapsedS, 3);
    assert.equal(u.timelimitS, 120);
  });

  it("keeps a short job's TotalCPU and CPU use when its steps have no MaxRSS (no sample taken before it ended)", () => {
    // real testbed output (jobacct_gather/linux, JobAcctGatherFrequency=task=1): a 1-second busy job that
    // ended before the first sample, and an eval job that ran under a second
    const oneSecond = "55|COMPLETED|00:00:01|00:02:00|00:00.204|1|256M|\n55.batch|COMPLETED|00:00:01||00:00.204|1||";
    const u = parseUsage(oneSecond).get("55")!;
    assert.equal(u.totalCpuS, 0.204);
    assert.equal(u.cpuEfficiency, 0.204);
    assert.equal(u.maxRssBytes, null, "sacct has none: nothing was sampled");
    const subSecond = "37|COMPLETED|00:00:00|00:02:00|00:00.029|1|2G|\n37.batch|COMPLETED|00:00:00||00:00.029|1||";
    const v = parseUsage(subSecond).get("37")!;
    assert.equal(v.totalCpuS, 0.029);
    assert.equal(v.cpuEfficiency, null, "an Elapsed of 0 s gives nothing to divide by");
  });

  it("leaves out a finished job whose steps have not all ended in the database: their figures are still to come", () => {
    // the job's end and its batch step's end (which carries MaxRSS) reach slurmdbd on separate messages; a
    // record taken between the two would keep blanks in decision.json for good (lines as the testbed prints them)
    const running = "61|COMPLETED|00:00:03|00:02:00|00:00.031|1|2G|\n61.batch|RUNNING|00:00:03||00:00:00|1||";
    const noStep = "61|COMPLETED|00:00:03|00:02:00|00:00.031|1|2G|";
    const ended = "61|COMPLETED|00:00:03|00:02:00|00:00.031|1|2G|\n61.batch|COMPLETED|00:00:03||00:00.031|1||8032K";
    assert.equal(parseUsage(running).size, 0);
    assert.equal(parseUsage(noStep).size, 0);
    assert.equal(parseUsage(ended).get("61")?.maxRssBytes, 8032 * 1024);
    // a job not over: Slurm 24.11 accounts it PENDING from its submission (22.05 had no row yet), then RUNNING
    assert.equal(parseUsage("63|PENDING|00:00:00|00:02:00|00:00:00|0|2G|").size, 0);
    assert.equal(
      parseUsage("63|RUNNING|00:00:01|00:02:00|00:00:00|1|2G|\n63.batch|RUNNING|00:00:01||00:00:00|1||").size,
      0,
    );
    // a job cancelled while pending never had a step: its record is final as it is
    assert.equal(parseUsage("62|CANCELLED by 0|00:00:00|00:02:00|00:00:00|1|2G|").get("62")?.elapsedS, 0);
  });

  it("sums the steps' TotalCPU when the job line has none", () => {
    const u = parseUsage(
      "7|COMPLETED|00:00:10|UNLIMITED||1|1Gn|\n7.batch|COMPLETED|00:00:10||00:04.5|1||1M\n" +
        "7.0|COMPLETED|00:00:09||00:03.5|1||2M",
    ).get("7")!;
    assert.equal(u.totalCpuS, 8);
    assert.equal(u.cpuEfficiency, 0.8);
    assert.equal(u.timelimitS, null, "UNLIMITED");
    assert.equal(u.reqMemBytes, 1024 ** 3);
    assert.equal(u.maxRssBytes, 2 * 1024 ** 2);
  });

  it("leaves out a job whose record is not complete yet (no Timelimit: its start is not in the database)", () => {
    // real output, a second after a 2 s job ended, then a second later
    const early = "109|COMPLETED|00:00:02||00:00.004|1|16?|\n109.batch|COMPLETED|00:00:02||00:00.004|1||3236K";
    const later = "109|COMPLETED|00:00:02|00:02:00|00:00.004|1|256M|\n109.batch|COMPLETED|00:00:02||00:00.004|1||3236K";
    assert.equal(parseUsage(early).size, 0);
    assert.equal(parseUsage(later).get("109")?.reqMemBytes, 256 * 1024 ** 2);
  });

  it("ignores steps without their job's line, blank lines, other ids (a collapsed array row) and short lines", () => {
    const text = "\n8.batch|COMPLETED|00:00:01||00:00.1|1||1K\n9_[1-3]|PENDING|00:00:00|00:01:00|00:00:00|1|1G|\n" +
      "10|COMPLETED\n";
    assert.equal(parseUsage(text).size, 0);
  });

  it("gives zero elapsed no efficiency (nothing to divide by)", () => {
    const u = parseUsage("11|FAILED|00:00:00|00:01:00|00:00.000|1|1G|\n11.batch|FAILED|00:00:00||00:00.000|1||0")
      .get("11")!;
    assert.equal(u.cpuEfficiency, null);
    assert.equal(u.maxRssBytes, 0);
  });
});

describe("sacct memory and CPU-time fields", () => {
  it("parseMemory() reads binary units and plain bytes", () => {
    assert.equal(parseMemory("76372K"), 76372 * 1024);
    assert.equal(parseMemory("1.50G"), 1.5 * 1024 ** 3);
    assert.equal(parseMemory("2048"), 2048);
    assert.equal(parseMemory("0"), 0);
    for (const bad of ["", "x", "1Q", "-1K", "1.K"]) assert.equal(parseMemory(bad), null, bad);
  });

  it("parseReqMem() reads the job's request, per node (n) or per CPU (c)", () => {
    assert.equal(parseReqMem("2G", 4), 2 * 1024 ** 3);
    assert.equal(parseReqMem("2Gn", 4), 2 * 1024 ** 3);
    assert.equal(parseReqMem("512Mc", 4), 4 * 512 * 1024 ** 2);
    assert.equal(parseReqMem("512Mc", null), null);
    assert.equal(parseReqMem("", 1), null);
  });

  it("parseCpuTime() reads MM:SS.mmm, HH:MM:SS and D-HH:MM:SS", () => {
    assert.equal(parseCpuTime("00:01.626"), 1.626);
    assert.equal(parseCpuTime("01:02:03"), 3723);
    assert.equal(parseCpuTime("1-00:00:01.5"), 86401.5);
    for (const bad of ["", ".5", "x", "1:2:3:4"]) assert.equal(parseCpuTime(bad), null, bad);
  });
});

/** A runner that answers from a script and records every argv. */
function scripted(answer: (argv: readonly string[]) => SpawnResult): { runner: Runner; calls: string[][] } {
  const calls: string[][] = [];
  const runner: Runner = (argv) => {
    calls.push([...argv]);
    return Promise.resolve(answer(argv));
  };
  return { runner, calls };
}

describe("SlurmCompute.usage() and cancelMany()", () => {
  it("asks ONE sacct with the steps (no -X), bounded by -S, and parses it", async () => {
    const { runner, calls } = scripted(() => exited(0, SACCT_STEPS));
    const u = await new SlurmCompute({ runner }).usage(["5", "6"], new Date(2026, 0, 2, 3, 4, 5));
    assert.deepEqual(calls, [[
      "sacct",
      "-j",
      "5,6",
      "--parsable2",
      "--noheader",
      "-o",
      USAGE_FIELDS,
      "-S",
      "2026-01-02T03:04:05",
    ]]);
    assert.equal(u.get("5")?.maxRssBytes, 136292 * 1024);
  });

  it("asks nothing for no ids, and rejects a failed sacct as unknown (SlurmQueryError)", async () => {
    const quiet = scripted(() => exited(0, ""));
    assert.equal((await new SlurmCompute({ runner: quiet.runner }).usage([])).size, 0);
    assert.deepEqual(quiet.calls, []);
    const { runner } = scripted(() => exited(1, "", "sacct: error: slurmdbd down"));
    await assert.rejects(new SlurmCompute({ runner }).usage(["5"]), SlurmQueryError);
  });

  it("cancels every id with ONE scancel, and throws when scancel fails", async () => {
    const { runner, calls } = scripted(() => exited(0, ""));
    await new SlurmCompute({ runner }).cancelMany(["11", "12", "13"]);
    await new SlurmCompute({ runner }).cancelMany([]);
    assert.deepEqual(calls, [["scancel", "11", "12", "13"]]);
    const failing = scripted(() => exited(1, "", "scancel: error: Access denied"));
    await assert.rejects(
      new SlurmCompute({ runner: failing.runner }).cancelMany(["11"]),
      (e: unknown) => e instanceof SlurmError && /scancel failed \(1\): scancel: error: Access denied/.test(e.message),
    );
    await assert.rejects(new SlurmCompute({ runner }).cancelMany(["1;rm"]), /Not a job id/);
  });
});

describe("LocalCompute.usage()", () => {
  it("knows how long the jobs it ran took and the walltime they had, nothing more", async () => {
    const c = new LocalCompute({ env: { PATH: "/usr/bin:/bin" }, minuteMs: 2000 });
    const id = await c.submit({ jobName: "j", account: "", partition: "", timeMinutes: 3, command: "true" });
    const u = await c.usage([id, "9000000000"]);
    assert.deepEqual([...u.keys()], [id], "a job of another process is absent");
    assert.deepEqual(u.get(id), { ...elapsedOnly(id, "COMPLETED", u.get(id)!.elapsedS), timelimitS: 6 });
    assert.ok(u.get(id)!.elapsedS! >= 0);
    await c.cancelMany([id]); // nothing is ever live: a no-op
  });
});

describe("parseUsage() of every job shape", () => {
  it("reads each array task from its own A_T row and A_T.batch step (recorded on the testbed)", async () => {
    const { slurmFixture } = await import("./_slurm_fixtures.ts");
    const u = parseUsage(slurmFixture("sacct-usage.txt"));
    assert.deepEqual([...u.keys()], ["23_0", "23_1", "23_2", "23_3", "23_4"]);
    assert.deepEqual(u.get("23_0"), {
      jobId: "23_0",
      state: "COMPLETED",
      elapsedS: 6,
      timelimitS: 300,
      maxRssBytes: 3280 * 1024,
      reqMemBytes: 100 * 1024 ** 2,
      allocCpus: 1,
      totalCpuS: 0.002,
      cpuEfficiency: 0.002 / 6,
    });
    assert.equal(u.get("23_3")?.state, "FAILED");
  });

  it("never reads CPU use above what was asked: whole-second Elapsed against millisecond TotalCPU is capped", () => {
    // a one-CPU job that computed 1.65 s within an Elapsed sacct counts as 1 s (seen as 165%)
    const u = parseUsage(
      ["84_0|COMPLETED|00:00:01|00:01:00|00:01.650|1|2G|", "84_0.batch|COMPLETED|00:00:01||00:01.650|1||21056K"]
        .join("\n"),
    ).get("84_0")!;
    assert.equal(u.totalCpuS, 1.65);
    assert.equal(u.cpuEfficiency, 1);
    assert.equal(u.maxRssBytes, 21056 * 1024);
    const busy = parseUsage(
      "9|COMPLETED|00:00:10|00:01:00|00:05.000|1|2G|\n9.batch|COMPLETED|00:00:10||00:05.000|1||1K",
    )
      .get("9")!;
    assert.equal(busy.cpuEfficiency, 0.5, "below the cap, as seff computes it");
  });
});
