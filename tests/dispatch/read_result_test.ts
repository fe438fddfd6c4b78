import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { MAX_SAMPLES, readEvalReading, readEvalResult, TAIL } from "../../src/dispatch/read_result.ts";

/** A run dir with one finished eval dir holding exactly `files`; returns the run dir. */
function evalDirWith(files: Record<string, string>): string {
  const runDir = tempDir("dispatch-result-");
  const dir = join(runDir, "eval-slot");
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return runDir;
}

function evalError(runDir: string, metric: string): EvalError {
  try {
    readEvalResult(runDir, "slot", metric);
  } catch (err) {
    assert.ok(err instanceof EvalError, `expected an EvalError, got ${String(err)}`);
    assert.equal(err.name, "EvalError");
    return err;
  }
  assert.fail("readEvalResult() returned instead of throwing");
}

describe("readEvalResult()", () => {
  it("reads the metric from result.json, which wins over stdout", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "0",
      [EVAL_FILES.result]: `{"score": 12.5, "other": 1}`,
      [EVAL_FILES.stdout]: `{"score": 99}\n`,
    });
    assert.equal(readEvalResult(run, "slot", "score"), 12.5);
  });

  it("reads the metric from the last non-empty stdout line when there is no result.json", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "0\n",
      [EVAL_FILES.stdout]: `warming up\n{"score": -3e2}\n\n  \n`,
    });
    assert.equal(readEvalResult(run, "slot", "score"), -300);
  });

  it("says a job without an exit-code has not finished", () => {
    const run = evalDirWith({ [EVAL_FILES.stdout]: `{"score": 1}\n`, [EVAL_FILES.output]: "still going\n" });
    const e = evalError(run, "score");
    assert.match(e.message, /has not finished: no exit-code/);
    assert.match(e.message, /still going/);
  });

  it("reports a non-zero exit code with its value and the output's tail", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "143",
      [EVAL_FILES.result]: `{"score": 1}`,
      [EVAL_FILES.output]: lines.join("\n") + "\n",
    });
    const e = evalError(run, "score");
    assert.match(e.message, /^Eval command exited with code 143\n/);
    assert.match(e.message, new RegExp(`last ${TAIL.lines} line\\(s\\) of .*output\\.log`));
    assert.ok(e.message.endsWith(lines.slice(-TAIL.lines).join("\n")));
    assert.doesNotMatch(e.message, /line 10\n/);
  });

  it("names the missing metric and the keys that are present", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: `{"loss": 1, "acc": 2}` });
    assert.match(
      evalError(run, "score").message,
      /no metric "score" in .*result\.json.*: keys present are "loss", "acc"/,
    );
  });

  it("refuses a numeric string and says to write a JSON number", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.stdout]: `{"score": "12.5"}\n` });
    assert.match(
      evalError(run, "score").message,
      /"score" in the last line of stdout is the string "12\.5"; write the metric as a JSON number/,
    );
  });

  it("refuses values that are not finite numbers, quoting them", () => {
    for (
      const [json, shown] of [[`null`, "null"], [`true`, "true"], [`1e400`, "Infinity"], [
        `{"a": 1}`,
        `{"a":1}`,
      ]]
    ) {
      const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: `{"score": ${json}}` });
      const e = evalError(run, "score");
      assert.ok(e.message.includes(`is ${shown}, not a finite number`), e.message);
    }
  });

  it("explains the NaN that Python's json.dumps writes", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: `{"score": NaN}` });
    assert.match(
      evalError(run, "score").message,
      /result\.json" holds NaN, not a finite number: "\{\\"score\\": NaN\}"/,
    );
  });

  it("reports a result.json that is not JSON rather than falling back to stdout", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "0",
      [EVAL_FILES.result]: `score=3`,
      [EVAL_FILES.stdout]: `{"score": 3}\n`,
    });
    assert.match(evalError(run, "score").message, /result\.json" is not JSON \(.*\): "score=3"/);
  });

  it("reports JSON that is not an object", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.stdout]: `[1, 2]\n` });
    assert.match(evalError(run, "score").message, /last line of stdout is not a JSON object: "\[1, 2\]"/);
  });

  it("quotes the last stdout line when it is not JSON", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "0",
      [EVAL_FILES.stdout]: `{"score": 1}\ndone in 3s\n`,
      [EVAL_FILES.output]: "done in 3s\n",
    });
    const e = evalError(run, "score");
    assert.match(e.message, /no result\.json, and the last line of stdout is not JSON \(.*\): "done in 3s"/);
    assert.match(e.message, /--- last 1 line\(s\) of .*output\.log ---\ndone in 3s$/);
  });

  it("says when there is neither a result file nor any stdout", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.stdout]: "\n\n" });
    assert.match(evalError(run, "score").message, /no result\.json and nothing on stdout$/);
  });

  it("reports an unreadable exit code", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "", [EVAL_FILES.result]: `{"score": 1}` });
    assert.match(evalError(run, "score").message, /unreadable exit code ""/);
  });

  it("escapes control characters in the output's tail and in the quoted result, keeping newlines and tabs", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "1",
      [EVAL_FILES.output]: "ok\tstep 1\n\u001b[2J\u001b]0;pwned\u0007title\rover\bx\u009b31m\u202egnp.exe\n",
    });
    const e = evalError(run, "score");
    assert.ok(
      e.message.endsWith("ok\tstep 1\n\\x1b[2J\\x1b]0;pwned\\x07title\\rover\\bx\\x9b31m\\u202egnp.exe"),
      e.message,
    );
    // deno-lint-ignore no-control-regex -- control characters are what this checks
    assert.doesNotMatch(e.message, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    const quoted = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: `{"\u009b2J": 1}` });
    assert.match(evalError(quoted, "score").message, /keys present are "\\x9b2J"/);
  });

  it("caps a 50 MB single-line output to a short message that says what was cut", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "1",
      [EVAL_FILES.output]: "x".repeat(50 * 1024 * 1024) + "\nlast words\n",
    });
    const e = evalError(run, "score");
    assert.ok(e.message.length < TAIL.totalBytes + 500, `${e.message.length} characters`);
    assert.match(
      e.message,
      /\[49\.9 MB of earlier output not shown\]\nx{500}… \[63\.5 KB more of this line cut\]\nlast words$/,
    );
  });

  it("caps each line and the whole tail, saying how many lines were left out", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(1000, "y"));
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "2", [EVAL_FILES.output]: lines.join("\n") + "\n" });
    const e = evalError(run, "score");
    const tail = e.message.split("---\n")[1]!.split("\n");
    assert.match(tail[0]!, /^\[\d+ earlier lines not shown\]$/);
    assert.ok(tail.slice(1).every((l) => /^\d+y+… \[\d+ bytes more of this line cut\]$/.test(l)), tail.join("\n"));
    assert.ok(tail.slice(1).join("\n").length <= TAIL.totalBytes);
    assert.ok(tail.at(-1)!.startsWith("19y"));
  });
});

describe("readEvalReading() on a metric reported as samples", () => {
  const withResult = (json: string) => evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.result]: json });

  it("reads a plain number exactly as before, with no samples", () => {
    const run = withResult(`{"ms": 12.5}`);
    assert.deepEqual(readEvalReading(run, "slot", "ms"), { value: 12.5, samples: null, metrics: {} });
    assert.equal(readEvalResult(run, "slot", "ms", "min"), 12.5);
  });

  it("takes the median of the samples by default, and keeps their spread", () => {
    const run = withResult(`{"ms": [12.1, 11.9, 30.2]}`);
    assert.deepEqual(readEvalReading(run, "slot", "ms"), {
      value: 12.1,
      samples: { n: 3, min: 11.9, median: 12.1, max: 30.2 },
      metrics: {},
    });
    assert.equal(readEvalResult(run, "slot", "ms"), 12.1);
  });

  it("takes the minimum or the mean when the contract's summary says so", () => {
    const run = withResult(`{"ms": [4, 1, 2, 5]}`);
    assert.equal(readEvalResult(run, "slot", "ms", "min"), 1);
    assert.equal(readEvalResult(run, "slot", "ms", "mean"), 3);
    // an even count's median is the mean of the middle two
    assert.equal(readEvalResult(run, "slot", "ms", "median"), 3);
    assert.deepEqual(readEvalReading(run, "slot", "ms", "min").samples, { n: 4, min: 1, median: 3, max: 5 });
  });

  it("reads samples from the last stdout line too, and one sample is its own summary", () => {
    const run = evalDirWith({ [EVAL_FILES.exitCode]: "0", [EVAL_FILES.stdout]: `log\n{"ms": [0.1]}\n` });
    assert.deepEqual(readEvalReading(run, "slot", "ms", "mean"), {
      value: 0.1,
      samples: { n: 1, min: 0.1, median: 0.1, max: 0.1 },
      metrics: {},
    });
  });

  it("refuses an empty array, saying to report at least one sample", () => {
    const e = evalError(withResult(`{"score": []}`), "score");
    assert.match(e.message, /Eval metric "score" in ".*result\.json" is an empty array; report at least one sample/);
  });

  it("refuses an element that is not a finite number, naming its place and what it is", () => {
    const cases: [string, RegExp][] = [
      [`[1, "2", 3]`, /is an array of 3 samples, and sample 2 is the string "2"; write each sample as a JSON number/],
      [`[1, null]`, /is an array of 2 samples, and sample 2 is null, not a finite number/],
      [`[[1], 2]`, /is an array of 2 samples, and sample 1 is \[1\], not a finite number/],
      [`[1, 1e400]`, /is an array of 2 samples, and sample 2 is Infinity, not a finite number/],
    ];
    for (const [json, re] of cases) assert.match(evalError(withResult(`{"score": ${json}}`), "score").message, re);
  });

  it(`refuses more than ${MAX_SAMPLES} samples, saying how many it found`, () => {
    const many = JSON.stringify({ score: Array.from({ length: MAX_SAMPLES + 1 }, (_, i) => i) });
    assert.match(
      evalError(withResult(many), "score").message,
      new RegExp(`holds ${MAX_SAMPLES + 1} samples, more than the ${MAX_SAMPLES} one measure may report`),
    );
    const most = JSON.stringify({ score: Array.from({ length: MAX_SAMPLES }, (_, i) => i) });
    assert.deepEqual(readEvalReading(withResult(most), "slot", "score", "min").samples, {
      n: MAX_SAMPLES,
      min: 0,
      median: (MAX_SAMPLES - 1) / 2,
      max: MAX_SAMPLES - 1,
    });
  });
});

describe("readEvalReading()'s other metrics (what a guard reads)", () => {
  it("keeps every other top-level finite number by key, and nothing else", () => {
    const run = evalDirWith({
      [EVAL_FILES.exitCode]: "0",
      [EVAL_FILES.result]: `{"ms": 3, "mem_mb": 120.5, "name": "x", "n": [1, 2], "bad": null, "__proto__": 7}`,
    });
    const r = readEvalReading(run, "slot", "ms");
    assert.equal(r.value, 3);
    assert.deepEqual({ ...r.metrics }, { mem_mb: 120.5, ["__proto__"]: 7 });
    assert.equal(Object.getPrototypeOf(r.metrics), Object.prototype, "a __proto__ key stays a key");
  });
});
