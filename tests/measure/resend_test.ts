import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurerContext } from "../../src/measure/measurer_context.ts";
import type { Outcome } from "../../src/measure/read_look.ts";
import { resendIfNobodysCode } from "../../src/measure/resend.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { tempDir } from "../helpers/temp.ts";

const measure = (name: string): Measure => ({
  name,
  treeSha: (name.startsWith("base") ? "a" : "b").repeat(40),
  command: "true",
  metric: "score",
  extraEnv: [],
  gpus: 0,
});

function context() {
  return new MeasurerContext({
    compute: new FakeCompute(),
    root: tempDir("resend-"),
    repoRoot: "/repo",
    image: "",
    lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 5,
    evalMem: "2G",
    evalCpus: 1,
    runTag: "t",
    pairing: "same-job",
    seedCache: null,
    now: Date.now,
  });
}

describe("resendIfNobodysCode()", () => {
  it("sets a pair job aside whole, the done partner too, and makes it undispatched", () => {
    const ctx = context();
    const pair = [measure("baseline"), measure("candidate")];
    const [u] = ctx.units(pair);
    for (const m of pair) {
      mkdirSync(ctx.evalDir(m), { recursive: true });
      writeFileSync(join(ctx.evalDir(m), EVAL_FILES.submitted), "8");
    }
    writeFileSync(join(ctx.evalDir(pair[0]!), EVAL_FILES.exitCode), "0");
    const outcomes = new Map<string, Outcome>([
      ["baseline", { kind: "value", value: 1, metrics: {} }],
      ["candidate", { kind: "resend", jobId: "8", endState: "NODE_FAIL" }],
    ]);
    assert.equal(resendIfNobodysCode(ctx, u!, outcomes, false), true);
    assert.equal(outcomes.size, 0);
    for (const m of pair) {
      assert.equal(existsSync(join(ctx.evalDir(m), EVAL_FILES.submitted)), false);
      assert.equal(readFileSync(join(ctx.evalDir(m), "retried"), "utf8"), "8\n");
    }
    assert.equal(readFileSync(join(ctx.evalDir(pair[0]!), "attempt-1", EVAL_FILES.exitCode), "utf8"), "0");
  });

  it("reports each dead measure lost once its retries are spent, and leaves a live unit alone", () => {
    const ctx = context();
    const pair = [measure("baseline"), measure("candidate")];
    const [u] = ctx.units(pair);
    for (const m of pair) {
      mkdirSync(ctx.evalDir(m), { recursive: true });
      writeFileSync(join(ctx.evalDir(m), "retried"), "1\n2\n");
    }
    const dead: Outcome = { kind: "resend", jobId: "3", endState: "PREEMPTED" };
    const outcomes = new Map<string, Outcome>([["baseline", dead], ["candidate", dead]]);
    assert.equal(resendIfNobodysCode(ctx, u!, outcomes, false), false);
    const o = outcomes.get("candidate")!;
    assert.equal(o.kind === "failed" && o.failure.kind, "lost");
    assert.equal(resendIfNobodysCode(ctx, u!, new Map(), true), false);
  });
});
