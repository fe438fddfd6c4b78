import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isPlainWake, wakeSchema } from "../../src/rundir/wake_record.ts";
import { agrees, variants } from "../helpers/fast_path.ts";

/** wake.json's shape checks beside its zod schema: what they accept, the schema accepts unchanged. */
const WAKES: readonly Record<string, unknown>[] = [
  {
    job_id: "12",
    dependency: "afterany:10:11",
    begin: null,
    submitted_at: "2026-12-02T06:04:18.222Z",
    pending: ["10", "11"],
  },
  { job_id: "13", dependency: null, begin: "now+600", submitted_at: "2024-02-29T23:59:59.999Z", pending: [] },
];

describe("isPlainWake", () => {
  it("accepts the wake records, unchanged by the schema", () => {
    for (const w of WAKES) assert.ok(agrees(isPlainWake, wakeSchema(), w), JSON.stringify(w));
  });

  it("accepts nothing the schema refuses, with one thing changed anywhere", () => {
    for (const w of WAKES) {
      for (const v of variants(w)) agrees(isPlainWake, wakeSchema(), v);
      for (const id of ["", "1_2", "-1", "1a", " 1"]) {
        agrees(isPlainWake, wakeSchema(), { ...w, job_id: id });
        agrees(isPlainWake, wakeSchema(), { ...w, pending: [id] });
      }
    }
  });
});
