/**
 * The loop examples (examples/loop/loop.py and loop.sh) climb the example
 * repository on the local backend, through the compiled binary, as
 * docs/loop.md runs them: the two better proposals kept, the no-change and
 * worse ones discarded, the crash noted, and a results.tsv whose rows are
 * `outerloop runs --tsv`'s.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { exampleRepo, EXAMPLES } from "../helpers/doc_sandbox.ts";
import { tempDir } from "../helpers/temp.ts";

/** What each of the six scripted proposals comes to: status and description, after the first baseline's row. */
const EXPECTED = [
  ["keep", "baseline"],
  ["keep", "Cache the parsed input"],
  ["discard", "Rename the loop variable"],
  ["crash", "Switch to the streaming parser (eval command exited with code 1)"],
  ["discard", "Unroll the inner loop"],
  ["keep", "Vectorise the hot loop"],
  ["discard", "Inline the helper"],
];

const rowsOf = (tsv: string) => tsv.trim().split("\n").map((line) => line.split("\t"));

describe("the loop examples, on the local backend", () => {
  for (const [name, interpreter] of [["loop.py", "python3"], ["loop.sh", "bash"]] as const) {
    it(`${name} keeps the better proposals, discards the rest, notes the crash, and writes runs --tsv's rows`, async () => {
      const binary = await ensureBinary();
      const work = tempDir("loop-example-");
      const repo = join(work, "proj");
      await exampleRepo(repo);
      const env = { PATH: `${dirname(binary)}:/usr/bin:/bin`, HOME: work, LANG: "C.UTF-8", TMPDIR: work };
      const r = await spawn({
        argv: [
          interpreter,
          join(EXAMPLES, name),
          repo,
          join(EXAMPLES, "bench.json"),
          join(work, "runs"),
          "--compute",
          "local",
        ],
        cwd: work,
        env,
        output: "separate",
        timeoutMs: 300_000,
      });
      assert.equal(r.exitCode, 0, `${name} exited ${r.exitCode}:\n${r.stdout}\n${r.stderr}`);

      const rows = rowsOf(readFileSync(join(work, "results.tsv"), "utf8"));
      assert.deepEqual(rows[0], ["commit", "time", "status", "description"]);
      assert.deepEqual(rows.slice(1).map(([, , status, description]) => [status, description]), EXPECTED);
      assert.equal(rows[4]![1], "0.000000", "a crash's metric, as autoresearch writes it");
      for (const i of [1, 2, 3, 5, 6, 7]) assert.ok(Number(rows[i]![1]) > 8, `row ${i}: a time, ${rows[i]![1]}`);

      // the same rows as outerloop's own results.tsv: commits, statuses and labels, the metric to its 6 digits
      const own = rowsOf(execFileSync(binary, ["runs", join(work, "runs"), "--tsv"], { encoding: "utf8", env }));
      assert.equal(own.length, rows.length);
      own.forEach((o, i) => {
        const mine = rows[i]!;
        assert.deepEqual([mine[0], mine[2], mine[3]], [o[0], o[2], o[3]], `row ${i}`);
        if (i > 0) assert.ok(Math.abs(Number(mine[1]) - Number(o[1])) <= 1e-5 * Math.abs(Number(o[1])), `row ${i}`);
      });

      // main is the last kept commit
      const main = execFileSync("git", ["-C", repo, "rev-parse", "main"], { encoding: "utf8" }).trim();
      assert.equal(main.slice(0, 7), rows[6]![0]);
    });
  }
});
