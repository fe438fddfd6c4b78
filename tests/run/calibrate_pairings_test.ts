import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { calibrateEachPairing } from "../../src/run/calibrate_pairings.ts";
import type { RunRequest } from "../../src/run/prepare.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { readRunRecord } from "../../src/rundir/run_record.ts";
import { FakeCompute } from "../helpers/fake_compute.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

// `calibrate --pairing all` through the CLI (the comparison printed): tests/cli/commands/calibrate_test.ts.

function request(contract: Record<string, unknown> = {}): RunRequest {
  const { repo } = makeRepo([{ "b.sh": "echo 1" }]);
  const path = join(tempDir("pairings-contract-"), "c.json");
  writeFileSync(
    path,
    JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize", ...contract }),
  );
  return {
    repo,
    base: "main",
    candidates: ["main"],
    labels: [],
    contract: path,
    runDir: new RunDir(join(tempDir("pairings-"), "cal")),
    seed: 7,
    runTag: undefined,
    image: "",
    account: "",
    partition: "",
    gpuPartition: "",
    gpuAccount: "",
    wakePartition: "",
    wakeQos: "",
    cluster: "",
    arrays: true,
    arrayThrottle: null,
    seedCache: null,
    mode: "slurm",
    raw: [],
  };
}

function deps(compute: FakeCompute, wait: { pollS: number; timeoutS: number | null } | null) {
  let clock = Date.parse("2026-01-02T03:04:05Z");
  const said: string[] = [];
  const phase = () => ({ compute, self: ["/bin/outerloop"], now: () => clock, env: {} });
  return {
    said,
    deps: {
      now: () => clock,
      self: ["/bin/outerloop"],
      phase,
      waitDeps: {
        compute: () => compute,
        now: () => clock,
        sleep: (ms: number) => {
          clock += ms;
          return Promise.resolve();
        },
        onInterrupt: () => () => {},
      },
      wait,
      say: (line: string) => void said.push(line),
    },
  };
}

describe("calibrateEachPairing()", () => {
  it("starts a calibration under each pairing in RUN_DIR/<pairing>, tagged -sep, -same, -duet", async () => {
    const r = request();
    const { deps: d, said } = deps(new FakeCompute(), null);
    const outcome = await calibrateEachPairing(r, 4, d);
    assert.deepEqual(outcome, { kind: "parked", calibrated: [] });
    const runs = ["separate", "same-job", "duet"].map((p) => readRunRecord(new RunDir(join(r.runDir.path, p))));
    assert.deepEqual(runs.map((x) => [x.runTag, x.contract.pairing, x.contract.repeats, x.kind]), [
      ["cal-sep", "separate", 4, "calibrate"],
      ["cal-same", "same-job", 4, "calibrate"],
      ["cal-duet", "duet", 4, "calibrate"],
    ]);
    assert.equal(said.length, 3, said.join("\n"));
    assert.match(said[0]!, /^the separate calibration in .*\/separate is parked behind wake job /);
  });

  it("leaves out duet when a measure needs GPUs", async () => {
    const r = request({ gpus: 1 });
    const { deps: d } = deps(new FakeCompute(), null);
    const outcome = await calibrateEachPairing({ ...r, gpuPartition: "gpu" }, 2, d);
    assert.equal(outcome.kind, "parked");
    for (const p of ["separate", "same-job"]) {
      assert.equal(readRunRecord(new RunDir(join(r.runDir.path, p))).kind, "calibrate");
    }
    assert.equal(existsSync(join(r.runDir.path, "duet")), false);
  });
});
