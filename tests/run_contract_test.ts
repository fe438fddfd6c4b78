import { tempDir } from "./helpers/temp.ts";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ContractError, contractToJson, loadContract, parseContract } from "../src/run/contract.ts";

const MINIMAL = { name: "bench", command: "python eval.py", metric: "acc" };
const SIB = { name: "lat", command: "python lat.py", metric: "ms" };

/** Writes `json` (or raw text) to a fresh contract file and returns its path. */
function contractFile(json: unknown, raw?: string): string {
  const path = join(tempDir("ol-contract-"), "contract.json");
  writeFileSync(path, raw ?? JSON.stringify(json));
  return path;
}

/** Asserts loading `json` fails with a ContractError naming the file, `at <path>` and `expected`. */
function assertRefused(json: unknown, at: string | null, expected: RegExp): void {
  const path = contractFile(json);
  assert.throws(() => loadContract(path), (err: unknown) => {
    assert.ok(err instanceof ContractError, String(err));
    assert.equal(err.name, "ContractError");
    assert.equal(err.source, path);
    assert.ok(err.message.includes(JSON.stringify(path)), err.message);
    if (at !== null) assert.ok(err.message.includes(`→ at ${at}\n`) || err.message.endsWith(`→ at ${at}`), err.message);
    assert.match(err.message, expected);
    return true;
  });
}

describe("loadContract() defaults", () => {
  it("fills every optional field of a contract that gives only name, command and metric", () => {
    assert.deepEqual(loadContract(contractFile(MINIMAL)), {
      ...MINIMAL,
      direction: "maximize",
      seedEnv: "",
      gpus: 0,
      evalMinutes: 60,
      baseline: "measure",
      minEffect: 0,
      siblings: [],
      repeats: 1,
      maxRepeats: 1,
      confidence: 0.95,
    });
  });

  it("fills every optional field of a sibling", () => {
    const c = loadContract(contractFile({ ...MINIMAL, siblings: [SIB] }));
    assert.deepEqual(c.siblings, [{ ...SIB, seedEnv: "", gpus: 0, direction: "maximize", tolerance: 0 }]);
  });

  it("keeps every field it is given", () => {
    const full = {
      ...MINIMAL,
      direction: "minimize",
      seed_env: "SEED",
      gpus: 2,
      eval_minutes: 15,
      baseline: "cached",
      min_effect: 0.5,
      siblings: [{ ...SIB, seed_env: "LAT_SEED", gpus: 1, direction: "minimize", tolerance: 3 }],
    };
    const c = loadContract(contractFile(full));
    assert.equal(c.seedEnv, "SEED");
    assert.equal(c.evalMinutes, 15);
    assert.equal(c.minEffect, 0.5);
    assert.deepEqual(contractToJson(c), full);
  });

  it("contractToJson() gives the snake_case form that parses back to the same contract", () => {
    const c = parseContract({ ...MINIMAL, siblings: [SIB] }, "x");
    const json = contractToJson(c);
    assert.deepEqual(Object.keys(json).sort(), [
      "baseline",
      "command",
      "direction",
      "eval_minutes",
      "gpus",
      "metric",
      "min_effect",
      "name",
      "seed_env",
      "siblings",
    ]);
    assert.deepEqual(parseContract(JSON.parse(JSON.stringify(json)), "x"), c);
  });
});

describe("loadContract() paired repeats", () => {
  it("keeps repeats, max_repeats and confidence when given", () => {
    const c = loadContract(contractFile({ ...MINIMAL, repeats: 4, max_repeats: 12, confidence: 0.99 }));
    assert.deepEqual([c.repeats, c.maxRepeats, c.confidence], [4, 12, 0.99]);
  });

  it("defaults max_repeats to repeats: a fixed number of pairs", () => {
    const c = loadContract(contractFile({ ...MINIMAL, repeats: 5 }));
    assert.deepEqual([c.repeats, c.maxRepeats, c.confidence], [5, 5, 0.95]);
  });

  it("contractToJson() writes them only when they differ from their defaults, so old run records stay byte-identical", () => {
    const plain = parseContract(MINIMAL, "x");
    assert.equal(
      JSON.stringify(contractToJson(plain)),
      '{"name":"bench","command":"python eval.py","metric":"acc","direction":"maximize","seed_env":"","gpus":0,' +
        '"eval_minutes":60,"baseline":"measure","min_effect":0,"siblings":[]}',
    );
    // explicit defaults are the same contract, so they write the same bytes
    const explicit = parseContract({ ...MINIMAL, repeats: 1, max_repeats: 1, confidence: 0.95 }, "x");
    assert.equal(JSON.stringify(contractToJson(explicit)), JSON.stringify(contractToJson(plain)));
    const fixed = contractToJson(parseContract({ ...MINIMAL, repeats: 3, max_repeats: 3 }, "x"));
    assert.deepEqual([fixed.repeats, fixed.max_repeats, fixed.confidence], [3, undefined, undefined]);
    const seq = contractToJson(parseContract({ ...MINIMAL, max_repeats: 6, confidence: 0.9 }, "x"));
    assert.deepEqual([seq.repeats, seq.max_repeats, seq.confidence], [undefined, 6, 0.9]);
  });

  it("round-trips every combination through contractToJson() and back", () => {
    for (const extra of [{}, { repeats: 3 }, { repeats: 4, max_repeats: 12 }, { max_repeats: 5, confidence: 0.9 }]) {
      const c = parseContract({ ...MINIMAL, ...extra }, "x");
      assert.deepEqual(parseContract(JSON.parse(JSON.stringify(contractToJson(c))), "x"), c);
    }
  });
});

describe("loadContract() refuses a bad field, naming the file and the field's path", () => {
  const cases: [string, Record<string, unknown>, string | null, RegExp][] = [
    ["a missing name", { command: "c", metric: "m" }, "name", /expected string, received undefined/],
    ["an empty name", { ...MINIMAL, name: "" }, "name", /Invalid benchmark name "": it is empty/],
    ["a name with a slash", { ...MINIMAL, name: "a/b" }, "name", /contains "\/"/],
    ["a name starting with a dash", { ...MINIMAL, name: "-x" }, "name", /reads as an option/],
    ["a missing command", { name: "b", metric: "m" }, "command", /expected string/],
    ["an empty command", { ...MINIMAL, command: "" }, "command", /expected a non-empty string/],
    ["a numeric metric", { ...MINIMAL, metric: 3 }, "metric", /expected string, received number/],
    ["an unknown direction", { ...MINIMAL, direction: "up" }, "direction", /"maximize"\|"minimize"/],
    ["a non-string seed_env", { ...MINIMAL, seed_env: 1 }, "seed_env", /expected string/],
    ["negative gpus", { ...MINIMAL, gpus: -1 }, "gpus", /expected a whole number >= 0/],
    ["fractional gpus", { ...MINIMAL, gpus: 1.5 }, "gpus", /expected a whole number/],
    ["zero eval_minutes", { ...MINIMAL, eval_minutes: 0 }, "eval_minutes", /expected a whole number >= 1/],
    ["an unknown baseline mode", { ...MINIMAL, baseline: "fresh" }, "baseline", /"cached"\|"measure"/],
    ["a negative min_effect", { ...MINIMAL, min_effect: -0.1 }, "min_effect", /expected a number >= 0/],
    ["a string min_effect", { ...MINIMAL, min_effect: "1" }, "min_effect", /expected number, received string/],
    ["siblings that are not a list", { ...MINIMAL, siblings: {} }, "siblings", /expected array/],
    [
      "a bad sibling name",
      { ...MINIMAL, siblings: [{ ...SIB, name: "a|b" }] },
      "siblings[0].name",
      /Invalid sibling name/,
    ],
    [
      "a sibling without a command",
      { ...MINIMAL, siblings: [{ name: "s", metric: "m" }] },
      "siblings[0].command",
      /expected string/,
    ],
    [
      "a sibling with an empty metric",
      { ...MINIMAL, siblings: [{ ...SIB, metric: "" }] },
      "siblings[0].metric",
      /non-empty/,
    ],
    [
      "a sibling's numeric seed_env",
      { ...MINIMAL, siblings: [{ ...SIB, seed_env: 3 }] },
      "siblings[0].seed_env",
      /expected string/,
    ],
    ["a sibling's negative gpus", { ...MINIMAL, siblings: [{ ...SIB, gpus: -1 }] }, "siblings[0].gpus", />= 0/],
    [
      "a sibling's unknown direction",
      { ...MINIMAL, siblings: [{ ...SIB, direction: "down" }] },
      "siblings[0].direction",
      /"minimize"/,
    ],
    [
      "a sibling's negative tolerance",
      { ...MINIMAL, siblings: [{ ...SIB, tolerance: -1 }] },
      "siblings[0].tolerance",
      />= 0/,
    ],
    ["zero repeats", { ...MINIMAL, repeats: 0 }, "repeats", /expected a whole number >= 1/],
    ["fractional repeats", { ...MINIMAL, repeats: 2.5 }, "repeats", /expected a whole number/],
    ["a string repeats", { ...MINIMAL, repeats: "3" }, "repeats", /expected number, received string/],
    ["zero max_repeats", { ...MINIMAL, max_repeats: 0 }, "max_repeats", /expected a whole number >= 1/],
    [
      "max_repeats below repeats",
      { ...MINIMAL, repeats: 4, max_repeats: 3 },
      "max_repeats",
      /expected a whole number >= repeats \(4\)/,
    ],
    ["a confidence of 0.5", { ...MINIMAL, confidence: 0.5 }, "confidence", /expected a number above 0.5 and below 1/],
    ["a confidence of 1", { ...MINIMAL, confidence: 1 }, "confidence", /above 0.5 and below 1/],
    ["a percentage confidence", { ...MINIMAL, confidence: 95 }, "confidence", /above 0.5 and below 1/],
    [
      "a sibling listed twice",
      { ...MINIMAL, siblings: [SIB, SIB] },
      "siblings[1].name",
      /Sibling name "lat" is listed twice/,
    ],
  ];
  for (const [what, json, at, expected] of cases) {
    it(`refuses ${what} at ${at}`, () => assertRefused(json, at, expected));
  }

  it("reports every bad field at once", () => {
    assertRefused({ ...MINIMAL, gpus: -1, direction: "up" }, "gpus", /→ at direction/);
  });
});

describe("loadContract() refuses unknown keys, naming them", () => {
  it("refuses a misspelt top-level key such as min_efect", () => {
    assertRefused({ ...MINIMAL, min_efect: 0.5 }, null, /Unknown key "min_efect"; the known keys are .*min_effect/);
  });

  it("refuses a misspelt sibling key, at the sibling's path", () => {
    assertRefused({ ...MINIMAL, siblings: [{ ...SIB, tolerence: 1 }] }, "siblings[0]", /Unknown key "tolerence"/);
  });
});

describe("loadContract() on a file it cannot use", () => {
  it("names a missing file and the flag to fix", () => {
    const path = join(tempDir("ol-contract-"), "nope.json");
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.equal(
        err.message,
        `Cannot read contract ${JSON.stringify(path)}: no such file; check the --contract path`,
      );
      return true;
    });
  });

  it("names a file that is not JSON", () => {
    const path = contractFile(null, '{"name": "b",');
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.ok(err.message.startsWith(`Contract ${JSON.stringify(path)} is not JSON: `), err.message);
      return true;
    });
  });

  it("refuses JSON that is not an object", () => {
    assertRefused([MINIMAL], null, /expected object, received array/);
  });

  it("parseContract() names the source it is given", () => {
    assert.throws(() => parseContract({}, "inline contract"), /^ContractError: Invalid contract "inline contract":/);
  });
});
