import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contractSchema } from "../../src/contract/contract.ts";
import { fastContractJson } from "../../src/contract/contract_fast.ts";

/**
 * The fast path beside the zod schema: on every value below, what it accepts
 * the schema accepts with the same output, and it accepts the valid shapes
 * (so it is the path taken). A refusal of the fast path is the schema's to
 * decide, so whatever it refuses needs no further check.
 */

const SIB = { name: "lat", command: "python lat.py", metric: "ms", direction: "minimize" };
const VALID: readonly Record<string, unknown>[] = [
  { name: "bench", command: "python eval.py", metric: "acc", direction: "maximize" },
  {
    name: "bench",
    command: "sh b.sh",
    metric: "s",
    direction: "minimize",
    summary: "mean",
    seed_env: "BENCH_SEED",
    gpus: 1,
    eval_minutes: 5,
    eval_mem: "16G",
    eval_cpus: 4,
    baseline: "cached",
    min_effect: "2%",
    siblings: [{ ...SIB, seed_env: "S", gpus: 2, tolerance: 0.5, summary: "min" }, { ...SIB, name: "b" }],
    guards: [{ metric: "size", direction: "minimize", tolerance: "1%", summary: "mean" }, {
      metric: "mem",
      direction: "maximize",
    }],
    unit: "µs",
    pairing: "separate",
    repeats: 3,
    max_repeats: 9,
    confidence: 0.99,
  },
  { name: "d", command: "x", metric: "m", direction: "maximize", pairing: "duet", repeats: 2, max_repeats: 2 },
  { name: "s", command: "x", metric: "m", direction: "maximize", pairing: "same-job", gpus: 1, min_effect: 0.25 },
];

/** Values every field is set to in turn: of every type, valid and not for one field or another. */
const ODD: readonly unknown[] = [
  undefined,
  null,
  true,
  0,
  -0,
  1,
  2,
  -1,
  1.5,
  0.5,
  0.95,
  1e300,
  Number.MAX_SAFE_INTEGER + 1,
  "",
  " ",
  "x",
  "-x",
  "a/b",
  "a..b",
  "a|b",
  "ms",
  "bpb",
  " ms",
  "a\nb",
  "x".repeat(17),
  "a\u0000b",
  "\ud800",
  "\t",
  "é".repeat(80),
  "2%",
  "0.5%",
  "02%",
  "-1%",
  "2G",
  "0G",
  "1024",
  "maximize",
  "minimize",
  "median",
  "mean",
  "max",
  "cached",
  "measure",
  "separate",
  "same-job",
  "duet",
  "SEED",
  "1SEED",
  "OUTERLOOP_RESULT",
  "OUTERLOOP_OTHER",
  "LD_PRELOAD",
  "PATH",
  "BASH_ENV",
  [],
  [SIB],
  [SIB, SIB],
  [{ ...SIB, extra: 1 }],
  [{ ...SIB, gpus: 1 }],
  [{ metric: "acc", direction: "maximize" }],
  [{ metric: "size", direction: "maximize" }, { metric: "size", direction: "minimize" }],
  [{ metric: "size" }],
  [null],
  {},
  { a: 1 },
];

const KEYS = [
  "name",
  "command",
  "metric",
  "direction",
  "unit",
  "$schema",
  "summary",
  "seed_env",
  "gpus",
  "eval_minutes",
  "eval_mem",
  "eval_cpus",
  "baseline",
  "min_effect",
  "siblings",
  "guards",
  "pairing",
  "repeats",
  "max_repeats",
  "confidence",
  "min_efect",
  "__proto__",
];

/** Asserts the fast path agrees with the schema on `value`: it accepts only what the schema does, output and all. */
function agrees(value: unknown): boolean {
  const fast = fastContractJson(value);
  if (fast === null) return false;
  const zod = contractSchema().safeParse(value);
  assert.ok(zod.success, `the fast path accepted what the schema refuses: ${JSON.stringify(value)}`);
  assert.deepStrictEqual(fast, zod.data, JSON.stringify(value));
  return true;
}

function withField(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  if (value === undefined) delete out[key];
  else if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true });
  else out[key] = value;
  return out;
}

describe("fastContractJson", () => {
  it("accepts every valid shape, with the schema's output", () => {
    for (const v of VALID) assert.ok(agrees(v), JSON.stringify(v));
  });

  it("accepts nothing the schema refuses, each field set to every odd value", () => {
    let accepted = 0;
    for (const base of VALID) {
      for (const key of KEYS) for (const value of ODD) if (agrees(withField(base, key, value))) accepted++;
    }
    assert.ok(accepted > 100, `the fast path took only ${accepted} of the variants`);
  });

  it("accepts nothing the schema refuses, in each field of a sibling and of a guard", () => {
    for (const key of ["name", "command", "metric", "seed_env", "gpus", "direction", "tolerance", "summary", "x"]) {
      for (const value of ODD) {
        agrees({ ...VALID[0], siblings: [withField(SIB, key, value)] });
        agrees({ ...VALID[0], guards: [withField({ metric: "size", direction: "maximize" }, key, value)] });
      }
    }
  });

  it("accepts nothing the schema refuses, across the fields the schema checks together", () => {
    for (const pairing of ["separate", "same-job", "duet"]) {
      for (const baseline of ["cached", "measure"]) {
        for (const gpus of [0, 1]) {
          for (const [repeats, max_repeats] of [[1, undefined], [2, 1], [2, 2], [1, 3], [0, 1]]) {
            const c = { ...VALID[0], pairing, baseline, gpus, repeats, max_repeats };
            agrees(JSON.parse(JSON.stringify(c)));
            agrees({ ...VALID[0], pairing, siblings: [{ ...SIB, gpus }] });
          }
        }
      }
    }
  });

  it("refuses what is not an object", () => {
    for (const v of [null, [], "x", 1, undefined]) assert.equal(fastContractJson(v), null);
  });
});
