import { REFERENCE_CACHE_KEYS } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  baselineCachePath,
  type BaselineDeterminants,
  readBaselineCache,
  writeBaselineCache,
} from "../../src/measure/baseline_cache.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";

// Vectors from the reference's read_baseline_cache / write_baseline_cache
// (scripts/identity_vectors.py).
type PyWant = { image?: string; command?: string; metric?: string; seed_env?: string; gpus?: number };
type PyResult =
  | { kind: "entry"; value_repr: string; data: Record<string, unknown> | null }
  | { kind: "none" }
  | { kind: "raises"; error: string };
interface ReadVector {
  why: string;
  file_hex: string | null;
  want: PyWant;
  result: PyResult;
}
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/identity_vectors.json", import.meta.url), "utf8"),
) as {
  baseline_reads: ReadVector[];
  python_written_cache: {
    benchmark: string;
    base_sha: string;
    file_hex: string;
    args: Record<string, string | number>;
  };
};

const SHA = "0123456789abcdef0123456789abcdef01234567";
const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const vectorsScript = join(root, "scripts", "identity_vectors.py");

function toWant(w: PyWant): BaselineDeterminants {
  const { seed_env, ...rest } = w;
  return seed_env === undefined ? rest : { ...rest, seedEnv: seed_env };
}

/** Python's repr of a float, as a number. */
function fromRepr(repr: string): number {
  return repr === "nan" ? NaN : repr === "inf" ? Infinity : repr === "-inf" ? -Infinity : Number(repr);
}

function pythonReaderProblem(): string | null {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
  } catch {
    return "python3 is not on PATH";
  }
  const ref = process.env["OUTERLOOP_REFERENCE"] ?? "/work/shared/reference/outerloop";
  return existsSync(join(ref, "measure.py")) ? null : `the Python reference is not at ${ref}`;
}
const noPython = pythonReaderProblem();
if (noPython) console.warn(`SKIPPING the cross-reads by the Python reference: ${noPython}`);

describe("readBaselineCache() agrees with the reference's read_baseline_cache", () => {
  for (const [i, v] of fixture.baseline_reads.entries()) {
    const expected = v.result.kind === "entry" ? `value ${v.result.value_repr}` : "no entry";
    it(`reads ${v.why} as ${expected}${v.result.kind === "raises" ? " where the reference crashes" : ""}`, () => {
      const dir = tempDir("ol-bc-");
      const bench = `b${i}`;
      if (v.file_hex !== null) writeFileSync(baselineCachePath(dir, bench, SHA), Buffer.from(v.file_hex, "hex"));
      const got = readBaselineCache(dir, bench, SHA, toWant(v.want));
      if (v.result.kind !== "entry") {
        // "raises": the reference crashes (int("1.0") on gpus, int(nan));
        // we read the entry as stale instead, which costs only a re-measure
        assert.equal(got, null);
        return;
      }
      assert.ok(got !== null, "expected an entry");
      assert.ok(Object.is(got.value, fromRepr(v.result.value_repr)), `value ${got.value} vs ${v.result.value_repr}`);
      if (v.result.data !== null) assert.deepEqual({ ...got.data }, v.result.data);
    });
  }

  it("reads a NaN token the reference's writer could emit as no entry (a documented divergence)", () => {
    const dir = tempDir("ol-bc-");
    writeFileSync(baselineCachePath(dir, "b", SHA), '{"value": NaN}');
    assert.equal(readBaselineCache(dir, "b", SHA), null);
  });

  it("reads a file written by the reference's write_baseline_cache", () => {
    const w = fixture.python_written_cache;
    const dir = tempDir("ol-bc-");
    writeFileSync(baselineCachePath(dir, w.benchmark, w.base_sha), Buffer.from(w.file_hex, "hex"));
    const got = readBaselineCache(dir, w.benchmark, w.base_sha, {
      image: String(w.args["image"]),
      command: String(w.args["command"]),
      metric: String(w.args["metric"]),
      seedEnv: String(w.args["seed_env"]),
      gpus: Number(w.args["gpus"]),
    });
    assert.ok(got !== null);
    assert.equal(got.value, w.args["value"]);
    assert.equal(got.data["run"], w.args["run_tag"]);
    assert.equal(got.data["seed"], w.args["seed"]);
    assert.equal(got.data["base_sha"], w.base_sha);
  });
});

describe("writeBaselineCache()", () => {
  const rec = {
    value: 0.5,
    seed: 11,
    runTag: "run-é😀",
    image: "img😀",
    command: "c m",
    metric: "score",
    seedEnv: "SEED",
    gpus: 1,
  };

  it("creates the directory and writes the reference's keys in order, ASCII only", () => {
    const dir = join(tempDir("ol-bc-"), "nested", "baselines");
    writeBaselineCache(dir, "tsp", SHA, rec);
    const path = join(dir, `tsp@${SHA}.json`);
    assert.equal(baselineCachePath(dir, "tsp", SHA), path);
    const text = readFileSync(path, "utf8");
    // deno-lint-ignore no-control-regex -- control characters are what this checks
    assert.match(text, /^[\x00-\x7f]*$/);
    const data = JSON.parse(text);
    assert.deepEqual(Object.keys(data), REFERENCE_CACHE_KEYS);
    assert.deepEqual(data, {
      value: 0.5,
      seed: 11,
      run: "run-é😀",
      base_sha: SHA,
      image: "img😀",
      command: "c m",
      metric: "score",
      seed_env: "SEED",
      gpus: 1,
    });
  });

  it("writes an entry that reads back only under the same determinants", () => {
    const dir = tempDir("ol-bc-");
    writeBaselineCache(dir, "tsp", SHA, rec);
    const same = { image: rec.image, command: rec.command, metric: rec.metric, seedEnv: rec.seedEnv, gpus: rec.gpus };
    assert.equal(readBaselineCache(dir, "tsp", SHA, same)?.value, 0.5);
    assert.equal(readBaselineCache(dir, "tsp", SHA, { ...same, gpus: 0 }), null);
    assert.equal(readBaselineCache(dir, "tsp", SHA, { ...same, image: "img" }), null);
    assert.equal(readBaselineCache(dir, "tsp", "f".repeat(40), same), null);
  });

  it("refuses a value that JSON cannot carry", () => {
    const dir = tempDir("ol-bc-");
    assert.throws(() => writeBaselineCache(dir, "tsp", SHA, { ...rec, value: NaN }), /finite number, got NaN/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("writes a file the reference's read_baseline_cache accepts", { skip: noPython ?? false }, () => {
    const dir = tempDir("ol-bc-");
    writeBaselineCache(dir, "tsp", SHA, rec);
    const want = { image: rec.image, command: rec.command, metric: rec.metric, seed_env: rec.seedEnv, gpus: rec.gpus };
    const out = execFileSync("python3", [vectorsScript, "--read", dir, "tsp", SHA, JSON.stringify(want)], {
      encoding: "utf8",
    });
    const got = JSON.parse(out) as PyResult;
    assert.equal(got.kind, "entry");
    if (got.kind !== "entry") return;
    assert.equal(got.value_repr, "0.5");
    assert.equal(got.data?.["run"], "run-é😀");
    const stale = execFileSync("python3", [
      vectorsScript,
      "--read",
      dir,
      "tsp",
      SHA,
      JSON.stringify({ ...want, gpus: 2 }),
    ], {
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(stale), { kind: "none" });
  });

  it("leaves one whole file and no temporary files when processes write concurrently", async () => {
    const dir = tempDir("ol-bc-");
    const work = tempDir("ol-bc-writer-");
    const writer = join(work, "writer.ts");
    const mod = pathToFileURL(join(root, "src", "measure", "baseline_cache.ts")).href;
    writeFileSync(
      writer,
      `import { writeBaselineCache } from ${JSON.stringify(mod)};\n` +
        `const [dir, id] = process.argv.slice(-2);\n` +
        `for (let i = 0; i < 40; i++) writeBaselineCache(dir, "tsp", ${JSON.stringify(SHA)}, ` +
        `{ value: Number(id) * 1000 + i, seed: 1, runTag: "w" + id, command: "c".repeat(200_000) });\n`,
    );
    const run = promisify(execFile);
    const writers = [1, 2, 3, 4].map((id) => {
      const [cmd, ...args] = selfRunArgv(writer);
      return run(cmd!, [...args, dir, String(id)]);
    });
    let done = false;
    const all = Promise.all(writers).finally(() => {
      done = true;
    });
    // read while the writers run: every read sees no file or a whole one
    let wholeReads = 0;
    while (!done) {
      // once the file exists it is only ever replaced whole, never removed
      const existed = existsSync(baselineCachePath(dir, "tsp", SHA));
      const got = readBaselineCache(dir, "tsp", SHA, { command: "c".repeat(200_000) });
      if (existed) assert.ok(got !== null, "a reader saw a partial file");
      if (got !== null) wholeReads++;
      await new Promise((r) => setImmediate(r));
    }
    await all;
    const got = readBaselineCache(dir, "tsp", SHA, { command: "c".repeat(200_000) });
    assert.ok(got !== null);
    const id = Math.floor(got.value / 1000);
    assert.ok([1, 2, 3, 4].includes(id) && got.value % 1000 === 39, `last value ${got.value}`);
    assert.equal(got.data["run"], `w${id}`);
    assert.deepEqual(readdirSync(dir), [`tsp@${SHA}.json`]);
    console.log(`concurrent writers: ${wholeReads} whole reads while 4 processes wrote 160 times`);
  });
});
