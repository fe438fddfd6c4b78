import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runRecordSchema } from "../../src/rundir/run_record.ts";
import { fastRunRecordJson } from "../../src/rundir/run_record_fast.ts";

/**
 * The fast path beside the zod schema of `run.json`: on every value below,
 * what it accepts the schema accepts with the same output, and it accepts
 * the records `measure` writes (so it is the path taken). What it refuses is
 * the schema's to decide. The contract inside has its own such test
 * (tests/contract/contract_fast_test.ts).
 */

const A = "a".repeat(40), B = "b".repeat(40), C = "c".repeat(64);
const RECORD: Record<string, unknown> = {
  format: 1,
  created_at: "2025-01-02T03:04:05.678Z",
  repo: "/repo",
  base_ref: "main~1",
  candidate_ref: "main",
  base_sha: A,
  candidate_sha: B,
  contract: { name: "b", command: "sh b.sh", metric: "s", direction: "maximize", seed_env: "SEED", siblings: [] },
  contract_path: "/c.json",
  seed: 9,
  run_tag: "t1",
  image: "",
  account: "acct",
  partition: "cpu",
  gpu_partition: "",
  gpu_account: "",
  compute: "slurm",
  seed_cache: null,
  command_line: ["outerloop", "measure"],
};
const VALID: readonly Record<string, unknown>[] = [
  RECORD,
  {
    ...RECORD,
    wake_partition: "fast",
    wake_qos: "q",
    cluster: "east",
    arrays: false,
    array_throttle: 4,
    kind: "calibrate",
    seed_cache: "/cache",
    compute: "local",
    candidates: [{ ref: "main", sha: B }, { ref: "other", sha: C }],
    labels: ["wider model", "lr 0.04"],
  },
  { ...RECORD, labels: ["a label"] },
];

const ODD: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  1,
  2,
  -1,
  1.5,
  "",
  "x",
  "/abs",
  A,
  B,
  C,
  A.toUpperCase(),
  "a".repeat(39),
  "2025-01-02T03:04:05.678Z",
  "2025-01-02T03:04:05Z",
  "2025-01-02T03:04:05.678+02:00",
  "2025-02-29T03:04:05.678Z",
  "2024-02-29T03:04:05.678Z",
  "2025-13-02T03:04:05.678Z",
  "2025-01-02T24:04:05.678Z",
  "2025-01-02T03:04:60.678Z",
  "2025-01-02",
  "local",
  "slurm",
  "sge",
  "pbs",
  "measure",
  "calibrate",
  [],
  ["a"],
  [1],
  [{ ref: "main", sha: B }],
  [{ ref: "main", sha: B }, { ref: "o", sha: A }],
  [{ ref: "other", sha: B }, { ref: "o", sha: A }],
  [{ ref: "main", sha: B }, { ref: "o", sha: A, x: 1 }],
  [{ ref: "main", sha: B }, null],
  {},
  { name: "b", command: "x", metric: "s", direction: "maximize" },
  { name: "b", command: "x", metric: "s" },
];

/** Asserts the fast path agrees with the schema on `value`: it accepts only what the schema does, output and all. */
function agrees(value: unknown): boolean {
  const fast = fastRunRecordJson(value);
  if (fast === null) return false;
  const zod = runRecordSchema().safeParse(value);
  assert.ok(zod.success, `the fast path accepted what the schema refuses: ${JSON.stringify(value)}`);
  assert.deepStrictEqual(fast, zod.data, JSON.stringify(value));
  return true;
}

describe("fastRunRecordJson", () => {
  it("accepts the records measure writes, with the schema's output", () => {
    for (const v of VALID) assert.ok(agrees(v), JSON.stringify(v));
  });

  it("accepts nothing the schema refuses, each field set to every odd value", () => {
    let accepted = 0;
    for (const base of VALID) {
      for (const key of [...Object.keys(VALID[1]!), "extra", "createdAt"]) {
        for (const value of ODD) {
          const v: Record<string, unknown> = { ...base };
          if (value === undefined) delete v[key];
          else v[key] = value;
          if (agrees(JSON.parse(JSON.stringify(v)))) accepted++;
        }
      }
    }
    assert.ok(accepted > 50, `the fast path took only ${accepted} of the variants`);
  });

  it("refuses what is not an object", () => {
    for (const v of [null, [], "x", 1, undefined]) assert.equal(fastRunRecordJson(v), null);
  });
});
