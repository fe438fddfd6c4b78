import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { MeasurerContext } from "../../src/measure/measurer_context.ts";
import { failIfHostsDiffer } from "../../src/measure/pair_hosts.ts";
import type { Outcome } from "../../src/measure/read_look.ts";
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

describe("failIfHostsDiffer()", () => {
  it("fails every measure of a pair job whose measures ran on two hosts, and judges one host or none not", () => {
    const ctx = new MeasurerContext({
      compute: new FakeCompute(),
      root: tempDir("pair-hosts-"),
      repoRoot: "/repo",
      image: "",
      lanes: { account: "", partition: "", gpuPartition: "", gpuAccount: "", scheduled: true },
      evalMinutes: 5,
      evalMem: "2G",
      evalCpus: 1,
      runTag: "t",
      pairing: "duet",
      seedCache: null,
      now: Date.now,
    });
    const pair = [measure("baseline"), measure("candidate")];
    const [u] = ctx.units(pair);
    const host = (m: Measure, h: string) => {
      mkdirSync(ctx.evalDir(m), { recursive: true });
      writeFileSync(join(ctx.evalDir(m), EVAL_FILES.provenance), h === "" ? "" : `host=${h}\n`);
    };
    const values = () =>
      new Map<string, Outcome>(pair.map((m) => [m.name, { kind: "value", value: 1, metrics: {} }] as const));
    host(pair[0]!, "n1");
    host(pair[1]!, "");
    const same = values();
    failIfHostsDiffer(ctx, u!, same);
    assert.deepEqual([...same.values()].map((o) => o.kind), ["value", "value"], "no provenance: not judged");
    ctx.beginPass(pair);
    host(pair[1]!, "n2");
    const differ = values();
    failIfHostsDiffer(ctx, u!, differ);
    const o = differ.get("candidate")!;
    assert.equal(o.kind === "failed" && o.failure.kind, "pair-hosts");
    assert.match(o.kind === "failed" ? o.failure.message : "", /^measure candidate: pair 1: its duet job's measures/);
  });
});
