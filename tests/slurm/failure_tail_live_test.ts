/**
 * A failed eval on the real testbed: the baseline's benchmark prints lines and exits 1 (a run failure: a
 * candidate's would be its crash);
 * the wake job meets the failure and records it in failure.json, and the tail
 * of the job's output reaches the user through `wait` and `show` (read from
 * that file), not only the wake's log.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, type SpawnResult } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { jobEnded, liveIt } from "../helpers/slurm_live.ts";
import { tempDir } from "../helpers/temp.ts";

const ok = { "bench.sh": `printf '{"score": 10}\\n'\n` };
const crash = {
  "bench.sh": "echo 'loading the data'\necho 'step 1 of 3'\necho 'Traceback: shape mismatch (3, 4) vs (4, 3)' >&2\n" +
    "exit 1\n",
};

async function cli(...args: string[]): Promise<SpawnResult> {
  return await spawn({ argv: [await ensureBinary(), ...args], timeoutMs: 240_000, output: "separate" });
}

liveIt(
  "a failed eval's output tail reaches failure.json, wait and show, not only the wake's log",
  240_000,
  async () => {
    const { repo, shas } = makeRepo([crash, ok]);
    const contract = join(tempDir("live-tail-contract-"), "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 2 }),
    );
    const runDir = join(tempDir("live-tail-"), "climb", "r1");
    const tag = `tail-${Date.now().toString(36)}`;
    const r = await cli(...testbedMeasureArgv({ repo, shas, contract, runDir }, "--run-tag", tag, "--json"));
    assert.equal(r.exitCode, 75, r.stderr);
    // the wake runs resume, meets the failure and records it; its pass ran, so the wake job itself ends well
    assert.equal(await jobEnded(JSON.parse(r.stdout).wake_job, 120_000), "COMPLETED", "a wake whose pass ran");
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), /the pass ended with exit 3; the wake job exits 0/);
    // stdout reaches output.log through tee, stderr directly: their lines may interleave either way
    const tailOf = (text: string): string[] => {
      const m = /^--- last (\d+) line\(s\) of .*output\.log ---\n/m.exec(text);
      assert.ok(m, `no output tail in ${JSON.stringify(text)}`);
      return text.slice(m.index + m[0].length).split("\n").slice(0, Number(m[1]));
    };
    const printed = ["loading the data", "step 1 of 3", "Traceback: shape mismatch (3, 4) vs (4, 3)"];
    const hasTail = (text: string) => assert.deepEqual(tailOf(text).sort(), [...printed].sort(), text);
    const crashLine = /^Traceback: shape mismatch \(3, 4\) vs \(4, 3\)$/m;
    assert.match(readFileSync(join(runDir, "wake.out"), "utf8"), crashLine);

    const failure = JSON.parse(readFileSync(join(runDir, "failure.json"), "utf8"));
    process.stderr.write(`live failure.json: ${JSON.stringify(failure)}\n`);
    assert.equal(failure.measure, "baseline");
    assert.match(failure.message, /^measure baseline \(job \d+\): Eval command exited with code 1\n/);
    hasTail(failure.message);

    const waited = await cli("wait", runDir);
    assert.equal(waited.exitCode, 3, waited.stderr);
    assert.match(waited.stderr, /measure baseline \(job \d+\): Eval command exited with code 1 \(the run failed on /);
    hasTail(waited.stderr);

    const shown = await cli("show", runDir);
    assert.equal(shown.exitCode, 0, shown.stderr);
    process.stderr.write(`live show of a failed run:\n${shown.stdout}`);
    assert.match(shown.stdout, /^failed on \S+: measure baseline \(job \d+\): Eval command exited with code 1$/m);
    hasTail(shown.stdout);
  },
);
