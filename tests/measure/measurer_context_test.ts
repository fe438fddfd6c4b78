import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES, UNIT_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurerContext } from "../../src/measure/measurer_context.ts";
import { unitWords } from "../../src/measure/unit_words.ts";
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

function context(pairing: "separate" | "same-job" = "separate") {
  return new MeasurerContext({
    compute: new FakeCompute(),
    root: tempDir("context-"),
    repoRoot: "/repo",
    image: "",
    lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 5,
    evalMem: "2G",
    evalCpus: 1,
    runTag: "t",
    pairing,
    seedCache: null,
    now: () => 5_000_000,
  });
}

describe("MeasurerContext", () => {
  it("marks a pair job's id beside the pair and each measure, and reads a member's marker from the pair's", () => {
    const ctx = context("same-job");
    const pair = [measure("baseline"), measure("candidate")];
    const [u] = ctx.units(pair);
    for (const m of pair) mkdirSync(ctx.evalDir(m), { recursive: true });
    mkdirSync(ctx.unitDir(u!), { recursive: true });
    ctx.mark(u!, "9_0");
    assert.equal(readFileSync(join(ctx.unitDir(u!), UNIT_FILES.submitted), "utf8"), "9_0");
    assert.equal(readFileSync(join(ctx.evalDir(pair[1]!), EVAL_FILES.submitted), "utf8"), "9_0");
    assert.equal(ctx.dir(pair[0]!).markerMs, 5_000_000, "the pass knows what it wrote");
    ctx.beginPass(pair);
    writeFileSync(join(ctx.evalDir(pair[1]!), EVAL_FILES.submitted), "");
    assert.equal(ctx.marker(pair[1]!), "9_0", "from the pair job's marker");
    assert.equal(unitWords(u!), "the same-job job of pair 1 (baseline, candidate)");
  });

  it("starts each pass afresh and bounds sacct before the earliest marker", () => {
    const ctx = context();
    const m = measure("baseline");
    mkdirSync(ctx.evalDir(m), { recursive: true });
    ctx.beginPass([m]);
    assert.equal(ctx.done(m), false);
    writeFileSync(join(ctx.evalDir(m), EVAL_FILES.exitCode), "0");
    assert.equal(ctx.done(m), false, "remembered within the pass");
    ctx.beginPass([m]);
    assert.equal(ctx.done(m), true);
    assert.equal(ctx.since([m]).getTime(), 5_000_000 - 600_000, "no marker: from now");
    assert.equal(existsSync(join(ctx.evalDir(m), EVAL_FILES.submitted)), false);
    assert.equal(unitWords(ctx.unit(m)), "measure baseline");
  });
});
