import { measureArgv } from "../helpers/measure_argv.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";

/** A benchmark whose score is the content of `score`. */
const bench = (score: string) => ({ "bench.sh": 'printf \'{"score": %s}\\n\' "$(cat score)"\n', score });

/**
 * Watching a climb from the outside: the compiled binary on the local
 * backend — a climb of four `measure` runs (accept, reject, a crash,
 * `measure --wait`), then `runs`, `report`, `wait`, `show` and `cancel` on it.
 */
describe("watching a climb (compiled binary, local backend)", () => {
  let binary = "";
  let climb = "";
  const home = tempDir("e2e-watch-home-");
  const env = { PATH: "/usr/bin:/bin", HOME: home };
  const run = (...args: string[]) => spawn({ argv: [binary, ...args], env, timeoutMs: 60_000 });
  const exits: number[] = [];

  before(async () => {
    binary = await ensureBinary();
    const { repo, shas } = makeRepo([
      bench("10"),
      bench("12"),
      bench("11"),
      { "bench.sh": "echo 'Traceback: boom' >&2\nexit 1\n" },
      bench("13"),
    ]);
    const contract = join(tempDir("e2e-watch-contract-"), "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 1 }),
    );
    climb = join(tempDir("e2e-watch-"), "climb");
    const pairs: [number, number, string[]][] = [[0, 1, []], [1, 2, []], [1, 3, []], [1, 4, ["--wait", "--json"]]];
    for (const [i, [base, cand, more]] of pairs.entries()) {
      const runDir = join(climb, `r${i + 1}`);
      const r = await run(
        ...measureArgv(
          { compute: "local", repo, base: shas[base]!, candidate: shas[cand]!, contract, runDir },
          ...more,
        ),
      );
      exits.push(r.exitCode ?? -1);
      if (i === 3) assert.equal(JSON.parse(r.stdout).verdict, "accept", "measure --wait --json prints the decision");
    }
  });

  it("measures the climb: accept, reject, a crashed candidate, and measure --wait returning the verdict at once", () => {
    assert.deepEqual(exits, [0, 10, 12, 0]);
  });

  it("runs: one line per run, oldest first, with state, verdict, difference, improvement and wall time", async () => {
    const r = await run("runs", climb);
    assert.equal(r.exitCode, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 6, r.stdout); // header, four runs, the crashed run's measure and job under it
    // each run's label: its candidate commit's subject (makeRepo's "commit N"), as measure gave no --label
    assert.match(lines[0]!, /\simprovement interval\s+relative\s+n\s+wall\s+label$/);
    assert.match(lines[1]!, /^r1 .* decided\s+accept\s+\+2\s+\+2\s+\+20\.0%\s+1\s+\d+s\s+commit \d$/);
    assert.match(lines[2]!, /^r2 .* decided\s+reject\s+-1\s+-1\s+-8\.3%\s+1\s+\d+s\s+commit \d$/);
    assert.match(lines[3]!, /^r3 .* decided\s+crashed: eval command exited with code 1\s+.*\d+s\s+commit \d$/);
    assert.match(lines[4]!, /^ {2}crashed: measure candidate in job \d+$/);
    assert.match(lines[5]!, /^r4 .* decided\s+accept\s+\+1\s+\+1\s+\+8\.3%\s+1\s+\d+s\s+commit \d$/);
    const json = JSON.parse((await run("runs", climb, "--json")).stdout);
    assert.deepEqual(json.runs.map((x: { verdict: string | null }) => x.verdict), [
      "accept",
      "reject",
      "crashed",
      "accept",
    ]);
  });

  it("report: Markdown on stdout and a self-contained HTML file", async () => {
    const md = await run("report", climb, "--md");
    assert.equal(md.exitCode, 0, md.stderr);
    assert.match(md.stdout, /^### Climb of `toy`: 4 runs \(2 accept, 1 reject, 1 crashed\)/);
    const file = join(tempDir("e2e-watch-report-"), "climb.html");
    const html = await run("report", climb, "--html", file);
    assert.equal(html.exitCode, 0, html.stderr);
    assert.match(readFileSync(file, "utf8"), /^<!DOCTYPE html>/i);
  });

  it("wait: a decided run answers at once with its verdict; a crashed candidate with exit 12", async () => {
    const accepted = await run("wait", join(climb, "r1"), "--json");
    assert.equal(accepted.exitCode, 0, accepted.stderr);
    assert.equal(JSON.parse(accepted.stdout).verdict, "accept");
    assert.equal((await run("wait", join(climb, "r2"))).exitCode, 10);
    // a crashed candidate is a verdict of its own: exit 12, the crash named
    const crashed = await run("wait", join(climb, "r3"), "--json");
    assert.equal(crashed.exitCode, 12);
    assert.equal(JSON.parse(crashed.stdout).crash.measure, "candidate");
  });

  it("show: the local backend's resource use (how long each measure ran, of its walltime) kept in decision.json", async () => {
    const d = JSON.parse(readFileSync(join(climb, "r1", "decision.json"), "utf8"));
    assert.deepEqual(Object.keys(d.usage), ["baseline", "candidate"]);
    assert.equal(d.usage.baseline.timelimit_s, 60);
    assert.equal(typeof d.usage.baseline.elapsed_s, "number");
    const r = await run("show", join(climb, "r1"));
    assert.match(r.stdout, /^resource use:$/m);
    assert.match(r.stdout, /^baseline\s+\d+\s+\d+s\s+1m00s$/m);
  });

  it("cancel: a decided run (a crashed one too) is left as it is", async () => {
    const decided = await run("cancel", join(climb, "r1"));
    assert.equal(decided.exitCode, 0, decided.stderr);
    assert.match(decided.stdout, /was decided \(accept\) on .*: nothing to cancel/);
    assert.equal(existsSync(join(climb, "r1", "cancelled.json")), false);
    const crashed = await run("cancel", join(climb, "r3"));
    assert.equal(crashed.exitCode, 0, crashed.stderr);
    assert.match(crashed.stdout, /was decided \(crashed\) on .*: nothing to cancel/);
    assert.equal(existsSync(join(climb, "r3", "cancelled.json")), false);
    assert.equal(JSON.parse((await run("runs", climb, "--json")).stdout).runs[2].verdict, "crashed");
  });
});
