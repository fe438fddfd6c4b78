import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ContractError, contractToJson, loadContract, parseContract } from "../../src/contract/contract.ts";

const MINIMAL = { name: "bench", command: "python eval.py", metric: "acc", direction: "maximize" };
const SIB = { name: "lat", command: "python lat.py", metric: "ms", direction: "maximize" };

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
    if (at !== null) assert.ok(new RegExp(`[:;] ${at.replace(/[.[\]]/g, "\\$&")}: `).test(err.message), err.message);
    assert.match(err.message, expected);
    return true;
  });
}

describe("loadContract() defaults", () => {
  it("fills every optional field of a contract that gives only name, command, metric and direction", () => {
    assert.deepEqual(loadContract(contractFile(MINIMAL)), {
      ...MINIMAL,
      unit: null,
      summary: "median",
      seedEnv: "",
      gpus: 0,
      evalMinutes: 60,
      evalMem: "2G",
      evalCpus: 1,
      baseline: "measure",
      minEffect: 0,
      minEffectScale: "absolute",
      noise: null,
      siblings: [],
      guards: [],
      repeats: 1,
      maxRepeats: 1,
      confidence: 0.95,
      pairing: "separate",
    });
  });

  it("fills every optional field of a sibling", () => {
    const c = loadContract(contractFile({ ...MINIMAL, siblings: [SIB] }));
    assert.deepEqual(c.siblings, [
      { ...SIB, seedEnv: "", gpus: 0, tolerance: 0, toleranceScale: "absolute", summary: "median" },
    ]);
  });

  it("keeps every field it is given", () => {
    const full = {
      ...MINIMAL,
      direction: "minimize",
      seed_env: "SEED",
      gpus: 2,
      eval_minutes: 15,
      eval_mem: "16G",
      eval_cpus: 4,
      baseline: "cached",
      min_effect: 0.5,
      siblings: [{ ...SIB, seed_env: "LAT_SEED", gpus: 1, direction: "minimize", tolerance: 3 }],
    };
    const c = loadContract(contractFile(full));
    assert.equal(c.seedEnv, "SEED");
    assert.equal(c.evalMinutes, 15);
    assert.deepEqual([c.evalMem, c.evalCpus], ["16G", 4]);
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
    const explicit = parseContract(
      { ...MINIMAL, eval_mem: "2G", eval_cpus: 1, repeats: 1, max_repeats: 1, confidence: 0.95, summary: "median" },
      "x",
    );
    assert.equal(JSON.stringify(contractToJson(explicit)), JSON.stringify(contractToJson(plain)));
    const fixed = contractToJson(parseContract({ ...MINIMAL, repeats: 3, max_repeats: 3 }, "x"));
    assert.deepEqual([fixed.repeats, fixed.max_repeats, fixed.confidence], [3, undefined, undefined]);
    const seq = contractToJson(parseContract({ ...MINIMAL, max_repeats: 6, confidence: 0.9 }, "x"));
    assert.deepEqual([seq.repeats, seq.max_repeats, seq.confidence], [undefined, 6, 0.9]);
  });

  it("reads summary for the benchmark and each sibling, and writes it back only when it is not the median", () => {
    const other = { ...SIB, name: "mem" };
    const c = parseContract({ ...MINIMAL, summary: "min", siblings: [{ ...SIB, summary: "mean" }, other] }, "x");
    assert.deepEqual([c.summary, c.siblings.map((s) => s.summary)], ["min", ["mean", "median"]]);
    const json = contractToJson(c);
    assert.equal(json.summary, "min");
    assert.deepEqual(json.siblings?.map((s) => s.summary), ["mean", undefined]);
    const median = contractToJson(parseContract({ ...MINIMAL, summary: "median", siblings: [SIB] }, "x"));
    assert.equal(Object.hasOwn(median, "summary"), false);
    assert.equal(Object.hasOwn(median.siblings![0]!, "summary"), false);
  });

  it("round-trips every combination through contractToJson() and back", () => {
    const combinations = [
      {},
      { repeats: 3 },
      { repeats: 4, max_repeats: 12 },
      { max_repeats: 5, confidence: 0.9 },
      { eval_mem: "500M", eval_cpus: 2 },
      { summary: "min" },
      { summary: "mean", siblings: [{ ...SIB, summary: "min" }] },
    ];
    for (const extra of combinations) {
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
    // one reason, not two ("a non-empty string; … got only white space")
    ["an empty command", { ...MINIMAL, command: "" }, "command", /: command: expected a command, got an empty string$/],
    [
      "a sibling's empty command",
      { ...MINIMAL, siblings: [{ ...SIB, command: "" }] },
      "siblings[0].command",
      /: siblings\[0\]\.command: expected a command, got an empty string$/,
    ],
    ["a numeric metric", { ...MINIMAL, metric: 3 }, "metric", /expected string, received number/],
    ["an unknown direction", { ...MINIMAL, direction: "up" }, "direction", /"maximize"\|"minimize"/],
    ["a non-string seed_env", { ...MINIMAL, seed_env: 1 }, "seed_env", /expected string/],
    ["negative gpus", { ...MINIMAL, gpus: -1 }, "gpus", /expected a whole number >= 0/],
    ["fractional gpus", { ...MINIMAL, gpus: 1.5 }, "gpus", /expected a whole number/],
    ["zero eval_minutes", { ...MINIMAL, eval_minutes: 0 }, "eval_minutes", /expected a whole number >= 1/],
    [
      "eval_mem without a size",
      { ...MINIMAL, eval_mem: "lots" },
      "eval_mem",
      /expected a Slurm memory size such as 2G/,
    ],
    ["eval_mem in GB", { ...MINIMAL, eval_mem: "16GB" }, "eval_mem", /expected a Slurm memory size/],
    ["eval_mem as a number", { ...MINIMAL, eval_mem: 16 }, "eval_mem", /expected string, received number/],
    ["zero eval_cpus", { ...MINIMAL, eval_cpus: 0 }, "eval_cpus", /expected a whole number >= 1/],
    ["fractional eval_cpus", { ...MINIMAL, eval_cpus: 1.5 }, "eval_cpus", /expected a whole number/],
    ["an unknown baseline mode", { ...MINIMAL, baseline: "fresh" }, "baseline", /"cached"\|"measure"/],
    ["an unknown summary", { ...MINIMAL, summary: "max" }, "summary", /"median"\|"min"\|"mean"/],
    [
      "an unknown sibling summary",
      { ...MINIMAL, siblings: [{ ...SIB, summary: "p90" }] },
      "siblings[0].summary",
      /"median"\|"min"\|"mean"/,
    ],
    ["a negative min_effect", { ...MINIMAL, min_effect: -0.1 }, "min_effect", /expected a number >= 0/],
    [
      "a string min_effect that is not a percentage",
      { ...MINIMAL, min_effect: "1" },
      "min_effect",
      /or a percentage such as "2%"/,
    ],
    ["a negative percentage", { ...MINIMAL, min_effect: "-2%" }, "min_effect", /or a percentage such as "2%"/],
    ["a percentage with a space", { ...MINIMAL, min_effect: "2 %" }, "min_effect", /or a percentage such as "2%"/],
    [
      "a sibling tolerance that is neither",
      { ...MINIMAL, siblings: [{ ...SIB, tolerance: "1pc" }] },
      "siblings[0].tolerance",
      /or a percentage such as "2%"/,
    ],
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
    assertRefused({ ...MINIMAL, gpus: -1, direction: "up" }, "gpus", /[:;] direction: /);
  });
});

describe("loadContract() refuses a seed_env the eval job could not set as given", () => {
  const notAName = /expected a variable name \(letters, digits and "_", not starting with a digit\)/;
  const cases: [string, string, RegExp][] = [
    ["a name with a space", "A B", notAName],
    ["a name starting with a digit", "1SEED", notAName],
    ["a name with a dash", "MY-SEED", notAName],
    ["a name with =", "SEED=1", notAName],
    ["a name with a newline", "SEED\n", notAName],
    ["a non-ASCII name", "SÉED", notAName],
    ["OUTERLOOP_RESULT, which names the result file", "OUTERLOOP_RESULT", /"OUTERLOOP_RESULT" is set by the eval job/],
    ["OUTERLOOP_PAIR, kept for paired repeats", "OUTERLOOP_PAIR", /"OUTERLOOP_PAIR" is set by the eval job itself/],
    ["PATH, which the job passes on", "PATH", /"PATH" is passed to the eval job from its environment/],
    ["HOME", "HOME", /"HOME" is passed to the eval job/],
    ["CUDA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", /"CUDA_VISIBLE_DEVICES" is passed to the eval job/],
    ...["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "GLIBC_TUNABLES", "GCONV_PATH"].map((
      name,
    ): [string, string, RegExp] => [
      `the loader variable ${name}`,
      name,
      new RegExp(
        `"${name}" is read by the dynamic loader.*: the seed exported under it would change how every program ` +
          "of the eval job loads; name the seed variable otherwise \\(such as BENCH_SEED\\)",
      ),
    ]),
    ...["IFS", "BASH_ENV", "ENV", "PS4", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "CDPATH", "GLOBIGNORE"].map((
      name,
    ): [string, string, RegExp] => [
      `the shell variable ${name}`,
      name,
      new RegExp(`"${name}" is read by the shell that runs the command: .*; name the seed variable otherwise`),
    ]),
    ...["PYTHONPATH", "PYTHONHOME", "PERL5OPT", "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "LUA_INIT"].map((
      name,
    ): [string, string, RegExp] => [
      `the interpreter hook ${name}`,
      name,
      new RegExp(`"${name}" tells an interpreter which code to load before the benchmark's: .*; name the seed`),
    ]),
  ];
  for (const [what, name, expected] of cases) {
    it(`refuses ${what}, for the benchmark and a sibling`, () => {
      assertRefused({ ...MINIMAL, seed_env: name }, "seed_env", expected);
      assertRefused({ ...MINIMAL, siblings: [{ ...SIB, seed_env: name }] }, "siblings[0].seed_env", expected);
    });
  }

  it("takes a shell identifier, and none", () => {
    for (
      const name of ["SEED", "_seed", "bench_seed_2", "OUTERLOOP_SEED", "PYTHONHASHSEED", "ld_preload", "LDSEED", ""]
    ) {
      assert.equal(loadContract(contractFile({ ...MINIMAL, seed_env: name })).seedEnv, name);
    }
  });
});

describe("loadContract() refuses strings no command line, file or identity can hold", () => {
  const surrogate = /contains a lone surrogate \(such as \\ud800\), which has no UTF-8 encoding; remove it/;
  const nul = /contains a NUL character \(\\u0000\), which no command line or environment can carry; remove it/;
  // JSON.stringify writes a lone surrogate as the escape "\ud800": the file holds what a user's would
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["a lone surrogate in command", { ...MINIMAL, command: "run \ud800" }, "command", surrogate],
    ["a lone low surrogate in metric", { ...MINIMAL, metric: "acc\udc00" }, "metric", surrogate],
    ["a lone surrogate in seed_env", { ...MINIMAL, seed_env: "\ud800" }, "seed_env", surrogate],
    ["a lone surrogate in name", { ...MINIMAL, name: "b\ud800" }, "name", /lone surrogate/],
    [
      "a lone surrogate in a sibling's command",
      { ...MINIMAL, siblings: [{ ...SIB, command: "\ud800" }] },
      "siblings[0].command",
      surrogate,
    ],
    [
      "a lone surrogate in a sibling's metric",
      { ...MINIMAL, siblings: [{ ...SIB, metric: "\udfff" }] },
      "siblings[0].metric",
      surrogate,
    ],
    [
      "a lone surrogate in a sibling's name",
      { ...MINIMAL, siblings: [{ ...SIB, name: "\ud800" }] },
      "siblings[0].name",
      /lone surrogate/,
    ],
    ["a NUL in command", { ...MINIMAL, command: "sh b.sh\u0000x" }, "command", nul],
    ["a NUL in metric", { ...MINIMAL, metric: "a\u0000b" }, "metric", nul],
    [
      "a NUL in a sibling's command",
      { ...MINIMAL, siblings: [{ ...SIB, command: "x\u0000" }] },
      "siblings[0].command",
      nul,
    ],
    [
      "a command of blanks only",
      { ...MINIMAL, command: " \n\t" },
      "command",
      /expected a command, got only white space/,
    ],
    [
      "a sibling's command of blanks",
      { ...MINIMAL, siblings: [{ ...SIB, command: "  " }] },
      "siblings[0].command",
      /only white space/,
    ],
  ];
  for (const [what, json, at, expected] of cases) {
    it(`refuses ${what} at ${at}`, () => assertRefused(json, at, expected));
  }

  it("keeps astral characters (a well-formed surrogate pair) and multi-line commands", () => {
    const c = loadContract(contractFile({ ...MINIMAL, command: "echo 𝔘\nsh b.sh", metric: "µ𝔘" }));
    assert.deepEqual([c.command, c.metric], ["echo 𝔘\nsh b.sh", "µ𝔘"]);
  });
});

describe("loadContract() refuses unknown keys, naming them", () => {
  it("refuses a misspelt top-level key such as min_efect", () => {
    assertRefused({ ...MINIMAL, min_efect: 0.5 }, null, /Unknown key "min_efect": did you mean "min_effect"\?/);
  });

  it("names the one key meant, not the list of every key", () => {
    const path = contractFile({ ...MINIMAL, max_repeat: 6 });
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.match(err.message, /Unknown key "max_repeat": did you mean "max_repeats"\?/);
      assert.doesNotMatch(err.message, /eval_minutes/);
      return true;
    });
  });

  it("names a key no known key is close to alone, with where the keys are listed", () => {
    assertRefused({ ...MINIMAL, colour: "red" }, null, /Unknown key "colour"; remove it \(the README's contract table/);
  });

  it("suggests a guard's key inside a guard", () => {
    assertRefused(
      { ...MINIMAL, guards: [{ metric: "size", direction: "minimize", tolerence: "1%" }] },
      "guards[0]",
      /Unknown key "tolerence": did you mean "tolerance"\?/,
    );
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

  it("names the line and column where a file stops being JSON, the same in every runtime", () => {
    const path = contractFile(null, '{\n  "name": "b",\n  "metric": "t",\n}\n');
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.equal(
        err.message,
        `Contract ${JSON.stringify(path)} is not JSON: line 4, column 1: expected a key in double quotes, found "}" ` +
          "(JSON allows no comma before }); fix it there",
      );
      return true;
    });
  });

  it("names the value a misspelt choice most likely meant, in one line", () => {
    const path = contractFile({ ...MINIMAL, direction: "minimise", pairing: "same_job" });
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.equal(
        err.message,
        `Invalid contract ${JSON.stringify(path)}: direction: Invalid option "minimise": expected one of ` +
          '"maximize"|"minimize"; did you mean "minimize"?; pairing: Invalid option "same_job": expected one of ' +
          '"separate"|"same-job"|"duet"; did you mean "same-job"?',
      );
      return true;
    });
  });

  it("names a file that is not JSON in one line, the parser's quoted newlines escaped", () => {
    const path = contractFile(null, '{\n"name": x,\n"command": 1\n}');
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.ok(err.message.startsWith(`Contract ${JSON.stringify(path)} is not JSON: `), err.message);
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
  });

  /** Asserts loading `path` fails with exactly `Cannot read contract "<path>": <rest>`. */
  function assertUnreadable(path: string, rest: string | RegExp): void {
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError, String(err));
      const prefix = `Cannot read contract ${JSON.stringify(path)}: `;
      assert.ok(err.message.startsWith(prefix), err.message);
      if (typeof rest === "string") assert.equal(err.message.slice(prefix.length), rest);
      else assert.match(err.message.slice(prefix.length), rest);
      return true;
    });
  }

  it("refuses a directory, a device and a FIFO by kind, without reading (or blocking on) them", () => {
    const dir = tempDir("ol-contract-");
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    const fix = "not a regular file; write the contract to a file and pass its path to --contract";
    assertUnreadable(dir, `it is a directory, ${fix}`);
    assertUnreadable("/dev/zero", `it is a character device, ${fix}`);
    assertUnreadable("/dev/null", `it is a character device, ${fix}`);
    assertUnreadable(fifo, `it is a FIFO (named pipe), ${fix}`); // a read would wait for a writer forever
    const link = join(dir, "link.json");
    symlinkSync("/dev/zero", link);
    assertUnreadable(link, `it is a character device, ${fix}`);
  });

  it("refuses a file over 1 MiB, and takes one of exactly 1 MiB", () => {
    const json = JSON.stringify(MINIMAL);
    const exact = contractFile(null, json + " ".repeat(1024 * 1024 - json.length));
    assert.equal(loadContract(exact).name, "bench");
    const over = contractFile(null, json + " ".repeat(1024 * 1024 - json.length + 1));
    assertUnreadable(
      over,
      "it is 1048577 bytes, more than the 1 MiB allowed; a contract is a small JSON file: check the --contract path",
    );
  });

  it("refuses a UTF-8 byte-order mark, naming it", () => {
    assertUnreadable(
      contractFile(null, "\uFEFF" + JSON.stringify(MINIMAL)),
      "it starts with a UTF-8 byte-order mark (EF BB BF); remove the byte-order mark (save the file as UTF-8 without BOM)",
    );
  });

  it("refuses bytes that are not UTF-8, naming the first one and its line", () => {
    const path = join(tempDir("ol-contract-"), "c.json");
    writeFileSync(path, Buffer.from('{"name": "bench",\n"command": "r\u00e9sum\u00e9", "metric": "m"}', "latin1"));
    assertUnreadable(
      path,
      "it is not UTF-8 text: byte 0xE9 at offset 31 (line 2) is not valid UTF-8; save the file as UTF-8",
    );
    // a surrogate encoded on its own (CESU-8) is not UTF-8 either
    writeFileSync(path, Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]));
    assertUnreadable(path, /^it is not UTF-8 text: byte 0xED at offset 10 \(line 1\)/);
  });

  it("takes UTF-8 that holds U+FFFD itself, and refuses a bad byte after it at the right offset", () => {
    assert.equal(loadContract(contractFile({ ...MINIMAL, metric: "\uFFFD\uFFFD" })).metric, "\uFFFD\uFFFD");
    const path = join(tempDir("ol-contract-"), "c.json");
    // "\uFFFD" is 3 bytes: the bad byte comes after 1 + 3 + 3 = 7 bytes
    writeFileSync(path, Buffer.concat([Buffer.from("[\uFFFD\uFFFD"), Buffer.from([0xff]), Buffer.from("]")]));
    assertUnreadable(path, /^it is not UTF-8 text: byte 0xFF at offset 7 \(line 1\)/);
  });

  it("refuses JSON that is not an object", () => {
    assertRefused([MINIMAL], null, /expected object, received array/);
  });

  it("parseContract() names the source it is given", () => {
    assert.throws(() => parseContract({}, "inline contract"), /^ContractError: Invalid contract "inline contract":/);
  });
});

describe("the contract's pairing", () => {
  it("is separate by default and left out of the run record then", () => {
    const c = loadContract(contractFile(MINIMAL));
    assert.equal(c.pairing, "separate");
    assert.equal("pairing" in contractToJson(c), false);
    assert.equal(contractToJson({ ...c, pairing: "same-job" }).pairing, "same-job");
  });

  it("refuses a cached baseline with a pair job, naming the field", () => {
    assert.throws(
      () => loadContract(contractFile({ ...MINIMAL, pairing: "same-job", baseline: "cached" })),
      (e: unknown) => e instanceof ContractError && /baseline/.test(e.message) && /measures its own/.test(e.message),
    );
  });

  it("refuses a duet of a benchmark or sibling with GPUs", () => {
    for (const c of [{ ...MINIMAL, gpus: 1 }, { ...MINIMAL, siblings: [{ ...SIB, gpus: 2 }] }]) {
      assert.throws(
        () => loadContract(contractFile({ ...c, pairing: "duet" })),
        (e: unknown) => e instanceof ContractError && /same-job/.test(e.message),
      );
    }
    assert.equal(loadContract(contractFile({ ...MINIMAL, gpus: 1, pairing: "same-job" })).pairing, "same-job");
  });

  it("refuses an unknown pairing", () => {
    assert.throws(() => loadContract(contractFile({ ...MINIMAL, pairing: "paired" })), ContractError);
  });
});

describe("direction is required", () => {
  const { direction: _, ...noDirection } = MINIMAL;

  it("refuses a contract without it, naming the file, the key, both values and what each means (exit 2)", () => {
    const path = contractFile(noDirection);
    assert.throws(() => loadContract(path), (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.equal(err.exit, "bad-input");
      assert.ok(err.message.includes(JSON.stringify(path)), err.message);
      assert.match(err.message, /"direction" is missing; add "direction": "minimize" \(lower is better: a time/);
      assert.match(err.message, /"direction": "maximize" \(higher is better: a rate/);
      assert.match(err.message, /[:;] direction: /);
      return true;
    });
  });

  it("refuses a sibling and a guard without it, at their paths", () => {
    const { direction: _s, ...sib } = SIB;
    assertRefused({ ...MINIMAL, siblings: [sib] }, "siblings[0].direction", /"direction" is missing/);
    assertRefused({ ...MINIMAL, guards: [{ metric: "size" }] }, "guards[0].direction", /"direction" is missing/);
  });
});

describe("relative min_effect and tolerance", () => {
  it("reads a percentage as a relative fraction, a number as absolute", () => {
    const c = parseContract({ ...MINIMAL, min_effect: "2%", siblings: [{ ...SIB, tolerance: "0.5%" }] }, "x");
    assert.deepEqual([c.minEffect, c.minEffectScale], [0.02, "relative"]);
    assert.deepEqual([c.siblings[0]!.tolerance, c.siblings[0]!.toleranceScale], [0.005, "relative"]);
    const a = parseContract({ ...MINIMAL, min_effect: 0.5 }, "x");
    assert.deepEqual([a.minEffect, a.minEffectScale], [0.5, "absolute"]);
  });

  it("writes a relative threshold back as written, and round-trips", () => {
    for (const t of ["2%", "0.5%", "12.5%", "0%", "100%"]) {
      const c = parseContract({
        ...MINIMAL,
        min_effect: t,
        guards: [{ metric: "size", direction: "minimize", tolerance: t }],
      }, "x");
      const json = contractToJson(c);
      assert.equal(json.min_effect, t);
      assert.equal(json.guards![0]!.tolerance, t);
      assert.deepEqual(parseContract(JSON.parse(JSON.stringify(json)), "x"), c);
    }
  });
});

describe("guards", () => {
  it("reads guards with their defaults, and writes them only when there are some", () => {
    const c = parseContract(
      {
        ...MINIMAL,
        guards: [{ metric: "size", direction: "minimize", tolerance: "1%" }, { metric: "ok", direction: "maximize" }],
      },
      "x",
    );
    assert.deepEqual(c.guards, [
      { metric: "size", direction: "minimize", tolerance: 0.01, toleranceScale: "relative", summary: "median" },
      { metric: "ok", direction: "maximize", tolerance: 0, toleranceScale: "absolute", summary: "median" },
    ]);
    assert.equal(Object.hasOwn(contractToJson(parseContract(MINIMAL, "x")), "guards"), false);
    assert.deepEqual(parseContract(JSON.parse(JSON.stringify(contractToJson(c))), "x"), c);
  });

  it("refuses a guard on the benchmark's own metric, a guard listed twice and a bad tolerance", () => {
    const g = { metric: "size", direction: "minimize" };
    assertRefused(
      { ...MINIMAL, guards: [{ ...g, metric: "acc" }] },
      "guards[0].metric",
      /is the benchmark's own metric/,
    );
    assertRefused({ ...MINIMAL, guards: [g, g] }, "guards[1].metric", /is listed twice/);
    assertRefused({ ...MINIMAL, guards: [{ ...g, tolerance: -1 }] }, "guards[0].tolerance", /a number >= 0/);
    assertRefused({ ...MINIMAL, guards: [{ ...g, metric: "" }] }, "guards[0].metric", /non-empty/);
  });
});

describe("the metric's unit, and $schema", () => {
  it("takes an optional unit and freezes it only when given, so a run of a contract without one is unchanged", () => {
    assert.equal(loadContract(contractFile(MINIMAL)).unit, null);
    assert.equal("unit" in contractToJson(loadContract(contractFile(MINIMAL))), false);
    const c = loadContract(contractFile({ ...MINIMAL, unit: "ms" }));
    assert.equal(c.unit, "ms");
    assert.equal(contractToJson(c).unit, "ms");
  });

  it("refuses a unit that is empty, long, or has spaces at its ends or control characters", () => {
    assertRefused({ ...MINIMAL, unit: "" }, "unit", /expected a unit such as "s", "ms", "bpb" or "MB"/);
    assertRefused({ ...MINIMAL, unit: "x".repeat(17) }, "unit", /at most 16 characters/);
    assertRefused({ ...MINIMAL, unit: " ms" }, "unit", /without control characters or spaces at its ends/);
    assertRefused({ ...MINIMAL, unit: "m\ns" }, "unit", /without control characters/);
    assertRefused({ ...MINIMAL, unit: 3 }, "unit", /expected string/);
  });

  it("accepts $schema (an editor's, never read nor frozen) and still refuses any other unknown key", () => {
    const c = loadContract(contractFile({ $schema: "./contract.schema.json", ...MINIMAL }));
    assert.equal("$schema" in contractToJson(c), false, "not part of the run's identity");
    assert.deepEqual(contractToJson(c), contractToJson(loadContract(contractFile(MINIMAL))));
    assertRefused({ $schema: "x", ...MINIMAL, schema: "x" }, null, /Unknown key "schema": did you mean "\$schema"\?/);
  });
});

describe("noise (a calibration's scale)", () => {
  it("reads the sd of a pair's improvement and the A/A pairs it rests on, and writes it only when given", () => {
    const c = parseContract({ ...MINIMAL, min_effect: 0.2, noise: { sd: 0.71, pairs: 20 } }, "x");
    assert.deepEqual(c.noise, { sd: 0.71, pairs: 20 });
    assert.deepEqual(parseContract(JSON.parse(JSON.stringify(contractToJson(c))), "x"), c);
    assert.equal(parseContract(MINIMAL, "x").noise, null);
    assert.equal(Object.hasOwn(contractToJson(parseContract(MINIMAL, "x")), "noise"), false);
  });

  it("refuses an sd that is not above 0, fewer than 2 pairs and an unknown key, at their paths", () => {
    assertRefused({ ...MINIMAL, noise: { sd: 0, pairs: 20 } }, "noise.sd", /a number above 0/);
    assertRefused({ ...MINIMAL, noise: { sd: 0.5, pairs: 1 } }, "noise.pairs", /whole number >= 2/);
    assertRefused({ ...MINIMAL, noise: { sd: 0.5 } }, "noise.pairs", /number/);
    assertRefused({ ...MINIMAL, noise: { sd: 0.5, pairs: 20, n: 3 } }, "noise", /Unknown key "n"/);
  });

  it("refuses noise beside a relative min_effect: they are on different scales", () => {
    assertRefused(
      { ...MINIMAL, min_effect: "2%", noise: { sd: 0.5, pairs: 20 } },
      "noise",
      /a relative min_effect \("2%"\) is judged on the log ratio/,
    );
  });
});
