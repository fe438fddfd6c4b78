import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { describe, it } from "node:test";
import { parseContract } from "../../src/contract/contract.ts";
import { decide } from "../../src/verdict/decide.ts";
import { type DecisionRecord, readDecision, writeDecision } from "../../src/rundir/decision_file.ts";
import {
  readRunRecord,
  runIdentity,
  type RunRecord,
  RunRecordError,
  writeRunRecord,
} from "../../src/rundir/run_record.ts";
import { readWakeRecord, type WakeRecord, writeWakeRecord } from "../../src/rundir/wake_record.ts";

const BASE = "0123456789abcdef0123456789abcdef01234567";
const CAND = "89abcdef0123456789abcdef0123456789abcdef";

const contract = parseContract({
  name: "bench",
  command: "python eval.py",
  metric: "acc",
  direction: "maximize",
  seed_env: "SEED",
  siblings: [{ name: "lat", command: "python lat.py", metric: "ms", direction: "minimize", tolerance: 2 }],
}, "contract.json");

const RECORD: RunRecord = {
  format: 1,
  createdAt: "2025-01-02T03:04:05.678Z",
  repo: "/work/repo",
  baseRef: "main",
  candidateRef: "attempt-7",
  baseSha: BASE,
  candidateSha: CAND,
  candidates: [{ ref: "attempt-7", sha: CAND }],
  contract,
  contractPath: "/work/repo/contract.json",
  seed: 1234,
  runTag: "run-abc",
  image: "",
  account: "acct",
  partition: "cpu",
  gpuPartition: "gpu",
  gpuAccount: "",
  wakePartition: "",
  wakeQos: "",
  cluster: "",
  arrays: true,
  arrayThrottle: null,
  smoke: false,
  compute: "slurm",
  seedCache: null,
  commandLine: ["/opt/outerloop", "measure", "--repo", "/work/repo"],
  kind: "measure",
  labels: [""],
};

const runDir = () => tempDir("ol-run-");
const runJson = (dir: string) => join(dir, "run.json");

/** Asserts `fn` throws a RunRecordError with `problem` whose message names `path` and matches `re`. */
function assertRunRecordError(fn: () => unknown, path: string, problem: string, re: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof RunRecordError, String(err));
    assert.equal(err.name, "RunRecordError");
    assert.equal(err.path, path);
    assert.equal(err.problem, problem);
    assert.ok(err.message.includes(JSON.stringify(path)), err.message);
    assert.match(err.message, re);
    return true;
  });
}

/** Writes a run.json from RECORD's JSON form with `patch(json)` applied, bypassing validation. */
function writePatched(dir: string, patch: (j: Record<string, unknown>) => void): void {
  writeRunRecord(new RunDir(dir), RECORD);
  const j = JSON.parse(readFileSync(runJson(dir), "utf8")) as Record<string, unknown>;
  patch(j);
  writeFileSync(runJson(dir), JSON.stringify(j));
}

describe("writeRunRecord() and readRunRecord()", () => {
  it("round-trip every field, stored with snake_case keys", () => {
    const dir = runDir();
    writeRunRecord(new RunDir(dir), RECORD);
    assert.deepEqual(readRunRecord(new RunDir(dir)), RECORD);
    const j = JSON.parse(readFileSync(runJson(dir), "utf8")) as Record<string, unknown>;
    assert.deepEqual(Object.keys(j), [
      "format",
      "created_at",
      "repo",
      "base_ref",
      "candidate_ref",
      "base_sha",
      "candidate_sha",
      "contract",
      "contract_path",
      "seed",
      "run_tag",
      "image",
      "account",
      "partition",
      "gpu_partition",
      "gpu_account",
      "compute",
      "seed_cache",
      "command_line",
    ]);
    assert.equal((j["contract"] as Record<string, unknown>)["seed_env"], "SEED");
    assert.deepEqual(readdirSync(dir), ["run.json"]);
  });

  it("creates the run dir when it does not exist yet", () => {
    const dir = join(runDir(), "a", "b");
    writeRunRecord(new RunDir(dir), RECORD);
    assert.deepEqual(readRunRecord(new RunDir(dir)), RECORD);
  });

  it("accepts the same run again and keeps the record first written, created_at included", () => {
    const dir = runDir();
    writeRunRecord(new RunDir(dir), RECORD);
    const before = readFileSync(runJson(dir));
    assert.deepEqual(writeRunRecord(new RunDir(dir), RECORD), RECORD);
    const again = { ...RECORD, createdAt: "2025-06-01T00:00:00.000Z", commandLine: ["outerloop", "measure", "--json"] };
    assert.deepEqual(writeRunRecord(new RunDir(dir), again), RECORD);
    assert.deepEqual(readFileSync(runJson(dir)), before);
  });

  it("keeps each candidate's label, informational: not the run's identity, the first measure's standing", () => {
    const dir = runDir();
    const labelled = { ...RECORD, labels: ["try a wider model"] };
    writeRunRecord(new RunDir(dir), labelled);
    assert.deepEqual(JSON.parse(readFileSync(runJson(dir), "utf8")).labels, ["try a wider model"]);
    assert.deepEqual(readRunRecord(new RunDir(dir)), labelled);
    assert.equal(runIdentity(labelled), runIdentity(RECORD), "a label is no part of what is measured");
    assert.deepEqual(writeRunRecord(new RunDir(dir), { ...labelled, labels: ["another"] }), labelled);
  });

  it("reads a run.json from before labels (none known), and writes none when there is none", () => {
    const dir = runDir();
    writeRunRecord(new RunDir(dir), RECORD);
    assert.equal("labels" in JSON.parse(readFileSync(runJson(dir), "utf8")), false, "an unlabelled record as before");
    assert.deepEqual(readRunRecord(new RunDir(dir)).labels, [""]);
  });

  it("refuses to overwrite another run's record, naming what differs, and leaves it byte-identical", () => {
    const dir = runDir();
    writeRunRecord(new RunDir(dir), RECORD);
    const before = readFileSync(runJson(dir));
    const other = { ...RECORD, candidateSha: BASE, contract: { ...contract, minEffect: 1 } };
    assertRunRecordError(
      () => writeRunRecord(new RunDir(dir), other),
      runJson(dir),
      "other-run",
      /already holds another run in ".*run.json" \(its candidate_sha, contract differ\); pick a new --run-dir/,
    );
    assert.deepEqual(readFileSync(runJson(dir)), before);
  });

  it("refuses to write an invalid record", () => {
    const dir = runDir();
    assert.throws(
      () => writeRunRecord(new RunDir(dir), { ...RECORD, seed: -1, baseSha: "HEAD" }),
      /invalid run record[^]*at base_sha[^]*at seed/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe("readRunRecord() on a missing or damaged run.json", () => {
  it("says a dir without run.json is not a run dir", () => {
    const dir = runDir();
    assertRunRecordError(
      () => readRunRecord(new RunDir(dir)),
      runJson(dir),
      "missing",
      /is not a run dir made by `outerloop measure`/,
    );
  });

  it("reports a truncated run.json as damaged and leaves it byte-identical", () => {
    const dir = runDir();
    writeRunRecord(new RunDir(dir), RECORD);
    const whole = readFileSync(runJson(dir));
    const half = whole.subarray(0, whole.length >> 1);
    writeFileSync(runJson(dir), half);
    assertRunRecordError(
      () => readRunRecord(new RunDir(dir)),
      runJson(dir),
      "damaged",
      /is damaged \(not JSON: .*\); it is left as it is/,
    );
    assertRunRecordError(() => writeRunRecord(new RunDir(dir), RECORD), runJson(dir), "damaged", /damaged/);
    assert.deepEqual(readFileSync(runJson(dir)), half);
    assert.deepEqual(readdirSync(dir), ["run.json"]);
  });

  const invalid: [string, (j: Record<string, unknown>) => void, RegExp][] = [
    ["a short sha", (j) => (j["base_sha"] = "0123abc"), /expected a full lowercase commit sha\n {2}→ at base_sha/],
    ["a relative repo", (j) => (j["repo"] = "repo"), /expected an absolute path\n {2}→ at repo/],
    ["a fractional seed", (j) => (j["seed"] = 1.5), /expected a whole number\n {2}→ at seed/],
    ["an unknown compute", (j) => (j["compute"] = "k8s"), /→ at compute/],
    [
      "another format",
      (j) => (j["format"] = 2),
      /expected 1 \(the only run record format this version reads\)\n {2}→ at format/,
    ],
    ["a missing field", (j) => delete j["run_tag"], /→ at run_tag/],
    ["an unknown field", (j) => (j["extra"] = 1), /Unknown key "extra"/],
    ["a bad timestamp", (j) => (j["created_at"] = "yesterday"), /→ at created_at/],
    [
      "a bad field inside the frozen contract",
      (
        j,
      ) => (((j["contract"] as Record<string, unknown[]>)["siblings"]![0] as Record<string, unknown>)["tolerance"] =
        -1),
      /→ at contract\.siblings\[0\]\.tolerance/,
    ],
  ];
  for (const [what, patch, re] of invalid) {
    it(`reports ${what}, naming the field, and leaves the file byte-identical`, () => {
      const dir = runDir();
      writePatched(dir, patch);
      const before = readFileSync(runJson(dir));
      assertRunRecordError(() => readRunRecord(new RunDir(dir)), runJson(dir), "invalid", re);
      assert.deepEqual(readFileSync(runJson(dir)), before);
    });
  }
});

describe("wake.json", () => {
  const WAKE: WakeRecord = {
    jobId: "42",
    dependency: "afterany:40:41",
    begin: null,
    submittedAt: "2025-01-02T03:04:05.000Z",
    pending: ["40", "41"],
  };

  it("reads null before the first park, then round-trips the latest wake", () => {
    const dir = runDir();
    assert.equal(readWakeRecord(new RunDir(dir)), null);
    writeWakeRecord(new RunDir(dir), WAKE);
    assert.deepEqual(readWakeRecord(new RunDir(dir)), WAKE);
    const deadline = { ...WAKE, jobId: "43", dependency: null, begin: "now+600", pending: [] };
    writeWakeRecord(new RunDir(dir), deadline);
    assert.deepEqual(readWakeRecord(new RunDir(dir)), deadline);
    assert.deepEqual(readdirSync(dir), ["wake.json"]);
  });

  it("reports a damaged wake.json naming the file and field, leaving it as it is", () => {
    const dir = runDir();
    const path = join(dir, "wake.json");
    writeFileSync(
      path,
      JSON.stringify({ job_id: "x1", dependency: null, begin: null, submitted_at: WAKE.submittedAt, pending: [] }),
    );
    assertRunRecordError(
      () => readWakeRecord(new RunDir(dir)),
      path,
      "invalid",
      /expected a job id \(digits only\)\n {2}→ at job_id/,
    );
    writeFileSync(path, "{");
    assertRunRecordError(() => readWakeRecord(new RunDir(dir)), path, "damaged", /wake record/);
    assert.equal(readFileSync(path, "utf8"), "{");
  });
});

describe("decision.json", () => {
  const decision = decide(contract, { baseline: 10, candidate: 12, "sib-lat-base": 5, "sib-lat-cand": 6 });
  const RECORD_D: DecisionRecord = {
    ...decision,
    baseSha: BASE,
    candidateSha: CAND,
    decidedAt: "2025-01-02T04:00:00.000Z",
    direction: "maximize",
    minEffect: 0,
    baselineSource: "measured",
    runIdentity: runIdentity(RECORD),
    paired: null,
  };

  it("reads null before the run is decided, then round-trips the decision with snake_case keys", () => {
    const dir = runDir();
    assert.equal(readDecision(new RunDir(dir)), null);
    writeDecision(new RunDir(dir), RECORD_D);
    assert.deepEqual(readDecision(new RunDir(dir)), RECORD_D);
    const j = JSON.parse(readFileSync(join(dir, "decision.json"), "utf8")) as Record<string, unknown>;
    assert.equal(j["verdict"], "accept");
    assert.deepEqual(j["values"], { baseline: 10, candidate: 12, "sib-lat-base": 5, "sib-lat-cand": 6 });
    assert.deepEqual(j["deltas"], { candidate: 2, "sib-lat": 1 });
    assert.equal(j["baseline_source"], "measured");
  });

  it("reports an invalid decision.json naming the field", () => {
    const dir = runDir();
    writeDecision(new RunDir(dir), RECORD_D);
    const path = join(dir, "decision.json");
    const j = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    j["verdict"] = "maybe";
    writeFileSync(path, JSON.stringify(j));
    assertRunRecordError(() => readDecision(new RunDir(dir)), path, "invalid", /→ at verdict/);
  });

  it("refuses, and leaves as it is, a decision of another run: other shas or another run identity", () => {
    const dir = runDir();
    writeDecision(new RunDir(dir), RECORD_D);
    const path = join(dir, "decision.json");
    const bytes = readFileSync(path, "utf8");
    assert.deepEqual(readDecision(new RunDir(dir), RECORD), RECORD_D);
    const otherContract = { ...RECORD, contract: { ...RECORD.contract, minEffect: 1 } };
    assertRunRecordError(
      () => readDecision(new RunDir(dir), otherContract),
      path,
      "other-run",
      /belongs to another run .* \(its run identity differ\); it is left as it is/,
    );
    assertRunRecordError(
      () => readDecision(new RunDir(dir), { ...RECORD, candidateSha: BASE }),
      path,
      "other-run",
      /\(its shas differ\)/,
    );
    assert.equal(readFileSync(path, "utf8"), bytes);
  });

  it("keeps a repeated design's seeds, pairs and estimates, and writes none of them for a single pair", () => {
    const dir = runDir();
    const est = { n: 4, mean: 1.5, lower: 0.5, upper: 2.5, confidence: 0.9833, method: "paired Student t" };
    const paired = {
      seeds: [7, 11, 13, 17],
      n: 4,
      outcome: "accepted",
      benchmark: { ...est, setAside: [] },
      siblings: {},
    };
    writeDecision(new RunDir(dir), { ...RECORD_D, paired });
    assert.deepEqual(readDecision(new RunDir(dir))?.paired, paired);
    const j = JSON.parse(readFileSync(join(dir, "decision.json"), "utf8")) as Record<string, unknown>;
    assert.deepEqual([j["seeds"], j["n"], j["benchmark"]], [[7, 11, 13, 17], 4, est]);
    writeDecision(new RunDir(dir), RECORD_D);
    const single = JSON.parse(readFileSync(join(dir, "decision.json"), "utf8")) as Record<string, unknown>;
    assert.deepEqual(Object.keys(single), [
      "verdict",
      "values",
      "deltas",
      "reasons",
      "base_sha",
      "candidate_sha",
      "decided_at",
      "direction",
      "min_effect",
      "baseline_source",
      "run_identity",
    ]);
  });
});
