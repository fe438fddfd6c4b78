import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * The compiled binary on inputs whose harm shows only from outside: a
 * contract that is an endless device or a FIFO (memory grew without bound,
 * or the read blocked), and metric values whose difference overflows through
 * a real local run (exit 1 with a stack at every resume).
 */
describe("outerloop measure refuses hostile input (compiled binary, local backend)", () => {
  let binary = "";
  let repo = "";
  let shas: string[] = [];
  const home = tempDir("e2e-input-home-");
  const contract = join(tempDir("e2e-input-contract-"), "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 1 }),
  );
  const bench = (score: string) => ({ "bench.sh": `printf '{"score": %s}\\n' "${score}"\n` });

  before(async () => {
    binary = await ensureBinary();
    ({ repo, shas } = makeRepo([bench("1.7e308"), bench("-1.7e308")]));
  });

  const env = () => ({ PATH: "/usr/bin:/bin", HOME: home });
  const measure = (runDir: string, contractFile: string) =>
    spawn({
      argv: [binary, "measure", "--compute", "local", "--repo", repo, "--base", shas[0]!, "--candidate", shas[1]!]
        .concat(["--contract", contractFile, "--run-dir", runDir]),
      env: env(),
      timeoutMs: 60_000,
    });

  it("refuses a contract that is a device or a FIFO at once, in one line, writing nothing", async () => {
    const fifo = join(tempDir("e2e-input-fifo-"), "contract.json");
    execFileSync("mkfifo", [fifo]);
    for (const [file, kind] of [["/dev/zero", "a character device"], [fifo, "a FIFO \\(named pipe\\)"]]) {
      const dir = join(tempDir("e2e-input-runs-"), "run");
      const r = await measure(dir, file!);
      assert.equal(r.exitCode, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        new RegExp(`^outerloop: error: Cannot read contract "${file}": it is ${kind}, not a regular`),
      );
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.ok(r.durationMs < 10_000, `took ${r.durationMs} ms`);
      assert.equal(existsSync(dir), false);
    }
  });

  it("fails a run whose values' difference overflows with exit 3 naming both, and again on resume", async () => {
    const dir = join(tempDir("e2e-input-runs-"), "run");
    const r = await measure(dir, contract);
    assert.equal(r.exitCode, 3, r.stderr);
    const line = 'outerloop: error: Cannot decide: the difference of measures "candidate" (-1.7e+308) and "baseline" ' +
      '(1.7e+308) overflows to -Infinity; check what the benchmark reports as "score"';
    assert.equal(r.stderr.trimEnd().split("\n").at(-1), line);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "a stack trace");
    const again = await spawn({ argv: [binary, "resume", dir], env: env(), timeoutMs: 60_000 });
    assert.equal(again.exitCode, 3, again.stderr);
    assert.equal(again.stderr.trimEnd(), line);
  });
});
