import { hostname } from "node:os";
import { measureArgv } from "../helpers/measure_argv.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";

/** A benchmark whose score is the content of `score`; `fail` makes it exit 1 after printing. */
const bench = (score: string) => ({
  "bench.sh": 'echo "working on $(cat score)"\nprintf \'{"score": %s}\\n\' "$(cat score)"\n',
  score,
});

describe("outerloop measure (compiled binary, local backend)", () => {
  let binary = "";
  let repo = "";
  let shas: string[] = [];
  const home = tempDir("e2e-home-");

  before(async () => {
    binary = await ensureBinary();
    ({ repo, shas } = await makeRepo([
      bench("10"), // 0: base
      bench("12"), // 1: better
      bench("9"), // 2: worse
      { "bench.sh": 'echo "loading data"\necho "Traceback: boom in layer 3" >&2\nexit 1\n' }, // 3: crashes
      { "bench.sh": "echo '{\"accuracy\": 0.9}'\n" }, // 4: wrong key
      { "bench.sh": 'echo \'{"score": "fast"}\'\n' }, // 5: not a number
      bench("13"), // 6: better again
    ]));
  });

  function contract(extra: Record<string, unknown> = {}): string {
    const file = join(tempDir("contract-"), "contract.json");
    writeFileSync(
      file,
      JSON.stringify({
        name: "toy",
        command: "sh bench.sh",
        metric: "score",
        direction: "maximize",
        eval_minutes: 1,
        ...extra,
      }),
    );
    return file;
  }

  async function measure(base: number, cand: number, runDir: string, contractFile = contract(), ...more: string[]) {
    return await spawn({
      argv: [
        binary,
        ...measureArgv(
          { compute: "local", repo, base: shas[base]!, candidate: shas[cand]!, contract: contractFile, runDir },
          ...more,
        ),
      ],
      env: { PATH: "/usr/bin:/bin", HOME: home },
      timeoutMs: 60_000,
    });
  }
  const runDir = () => join(tempDir("e2e-runs-"), "run");

  it("accepts a better candidate: exit 0, a table, and decision.json", async () => {
    const dir = runDir();
    const r = await measure(0, 1, dir);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /verdict: accept/);
    const d = JSON.parse(readFileSync(join(dir, "decision.json"), "utf8"));
    assert.equal(d.verdict, "accept");
    assert.deepEqual(d.values, { baseline: 10, candidate: 12 });
    assert.deepEqual(d.deltas, { candidate: 2 });
    assert.equal(d.base_sha, shas[0]);
  });

  it("shows a decided run: every measure done with its value, and the verdict", async () => {
    const dir = runDir();
    await measure(0, 1, dir);
    const r = await spawn({ argv: [binary, "show", dir, "--json"], env: { PATH: "/usr/bin:/bin", HOME: home } });
    assert.equal(r.exitCode, 0, r.stderr);
    const shown = JSON.parse(r.stdout);
    assert.deepEqual(
      shown.measures.map((m: { name: string; state: string; value: number }) => [m.name, m.state, m.value]),
      [
        ["baseline", "done", 10],
        ["candidate", "done", 12],
      ],
    );
    assert.equal(shown.verdict, "accept");
    const text = await spawn({ argv: [binary, "show", dir], env: { PATH: "/usr/bin:/bin", HOME: home } });
    assert.match(text.stdout, /baseline\s+done\s+10/);
    assert.match(text.stdout, /verdict: accept/);
  });

  it("shows a crashed measure with why", async () => {
    const dir = runDir();
    const failed = await measure(0, 3, dir);
    assert.equal(failed.exitCode, 12, failed.stderr);
    const r = await spawn({ argv: [binary, "show", dir, "--json"], env: { PATH: "/usr/bin:/bin", HOME: home } });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).measures[0], {
      name: "baseline",
      state: "done",
      value: 10,
      job_id: JSON.parse(r.stdout).measures[0].job_id,
      reason: null,
      why: null,
      // a crashed run is decided: what its jobs used is kept in decision.json
      usage: JSON.parse(r.stdout).measures[0].usage,
      provenance: JSON.parse(r.stdout).measures[0].provenance,
      samples: null,
      attempts: [],
    });
    assert.equal(JSON.parse(r.stdout).measures[0].provenance.host, hostname(), "where the baseline ran");
    const cand = JSON.parse(r.stdout).measures[1];
    assert.equal(cand.state, "crashed", "a candidate's failure is its crash, not the run's");
    assert.match(cand.why, /exited with code 1/);
    assert.equal(JSON.parse(r.stdout).verdict, "crashed");
    assert.equal(JSON.parse(r.stdout).crash.measure, "candidate");
  });

  it("rejects a worse candidate with exit 10 and says why in JSON", async () => {
    const r = await measure(0, 2, runDir(), contract(), "--json");
    assert.equal(r.exitCode, 10, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.verdict, "reject");
    assert.deepEqual(out.values, { baseline: 10, candidate: 9 });
    assert.deepEqual(out.deltas, { candidate: -1 });
    assert.deepEqual(out.reasons, [
      "The candidate did not improve on the baseline: score 10 -> 9, delta -1, higher is better.",
    ]);
  });

  it("decides a crashing candidate 'crashed' with exit 12, showing the tail of its output", async () => {
    const r = await measure(0, 3, runDir());
    assert.equal(r.exitCode, 12, r.stderr);
    assert.match(r.stdout, /^verdict: crashed$/m);
    assert.match(r.stderr, /measure candidate: Eval command exited with code 1/);
    assert.match(r.stderr, /Traceback: boom in layer 3/);
  });

  it("decides a candidate with a missing metric 'crashed' (exit 12), naming the keys found", async () => {
    const r = await measure(0, 4, runDir());
    assert.equal(r.exitCode, 12);
    assert.match(r.stderr, /no metric "score".*keys present are "accuracy"/);
  });

  it("decides a candidate with a non-numeric metric 'crashed' (exit 12), quoting the value", async () => {
    const r = await measure(0, 5, runDir());
    assert.equal(r.exitCode, 12);
    assert.match(r.stderr, /is the string "fast"/);
  });

  it("reuses a cached baseline for a second candidate without running its job again", async () => {
    const parent = tempDir("e2e-cache-");
    const cached = contract({ baseline: "cached" });
    const first = await measure(0, 1, join(parent, "a"), cached);
    assert.equal(first.exitCode, 0, first.stderr);
    assert.ok(existsSync(join(parent, "baselines", `toy@${shas[0]}.json`)));
    const second = await measure(0, 6, join(parent, "b"), cached, "--json");
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout).baseline_source, "cached");
    assert.deepEqual(JSON.parse(second.stdout).values, { baseline: 10, candidate: 13 });
    assert.deepEqual(readdirSync(join(parent, "b")).filter((f) => f.startsWith("eval-baseline-")), []);
  });

  it("prints the same decision on resume of a decided run and changes nothing", async () => {
    const dir = runDir();
    const first = await measure(0, 1, dir);
    const before = readFileSync(join(dir, "decision.json"), "utf8");
    const files = readdirSync(dir).sort();
    const again = await spawn({ argv: [binary, "resume", dir], env: { PATH: "/usr/bin:/bin", HOME: home } });
    assert.equal(again.exitCode, 0, again.stderr);
    assert.equal(again.stdout, first.stdout);
    assert.equal(readFileSync(join(dir, "decision.json"), "utf8"), before);
    assert.deepEqual(readdirSync(dir).sort(), files);
  });

  it("prints the plan on a dry run and writes nothing", async () => {
    const dir = runDir();
    const r = await measure(0, 1, dir, contract({ seed_env: "SEED" }), "--dry-run", "--json", "--seed", "5");
    assert.equal(r.exitCode, 0, r.stderr);
    const plan = JSON.parse(r.stdout);
    assert.deepEqual(plan.measures.map((m: { name: string }) => m.name), ["baseline", "candidate"]);
    assert.equal(plan.measures[1].tree_sha, shas[1]);
    assert.deepEqual(plan.measures[0].env, { SEED: "5" });
    assert.match(plan.measures[0].slot, new RegExp(`^baseline-${shas[0]}-[0-9a-f]{40}$`));
    assert.match(plan.measures[0].job_name, /^eval-run-baseline-[0-9a-f]{16}$/);
    assert.equal(existsSync(dir), false);
  });

  it("refuses a bad contract with exit 2 naming the file and the field", async () => {
    const file = contract({ direction: "up" });
    const r = await measure(0, 1, runDir(), file);
    assert.equal(r.exitCode, 2);
    assert.ok(r.stderr.includes(file), r.stderr);
    assert.match(r.stderr, /direction/);
  });

  it("refuses a damaged run.json with exit 2 and leaves it as it was", async () => {
    const dir = tempDir("e2e-damaged-");
    const damaged = '{"format": 1, "repo": ';
    writeFileSync(join(dir, "run.json"), damaged);
    const r = await spawn({ argv: [binary, "resume", dir], env: { PATH: "/usr/bin:/bin", HOME: home } });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /run\.json.*damaged/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.equal(readFileSync(join(dir, "run.json"), "utf8"), damaged);
    assert.deepEqual(readdirSync(dir), ["run.json"]);
  });
});
