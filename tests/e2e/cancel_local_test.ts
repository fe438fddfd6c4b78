/**
 * `cancel RUN_DIR` of a local run, from another process while `measure`
 * runs its evals as subprocesses: the running eval's processes are stopped
 * within seconds, `measure` exits 3 saying the run was cancelled (not that an
 * eval failed), nothing more is dispatched, no verdict is written, and
 * `show` / `runs` say cancelled. Run on the compiled binary and on the
 * runtime running this test (`deno run` / `bun run` of src/main.ts).
 */
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn as spawnChild } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { alive } from "../helpers/proc.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** A slow benchmark: says it runs (its pid in `<flag>.<score>`), sleeps a minute, then reports `score`. */
const bench = (score: string, flag: string) => ({
  "bench.sh": `echo $$ > ${flag}.${score}\nsleep 60\nprintf '{"score": %s}\\n' ${score}\n`,
});

async function scenario(how: "binary" | "runtime") {
  const work = tempDir("cancel-local-");
  const tmp = join(work, "tmp");
  const flag = join(work, "running");
  const { repo, shas } = makeRepo([bench("10", flag), bench("12", flag)], join(work, "repo"));
  const contract = join(work, "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 5 }),
  );
  const climb = join(work, "runs");
  const runDir = join(climb, "run");
  const argv = how === "binary" ? [await ensureBinary()] : selfRunArgv(MAIN);
  mkdirSync(tmp);
  const env = { PATH: "/usr/bin:/bin", HOME: work, TMPDIR: tmp };
  const args = ["measure", "--compute", "local", "--repo", repo, "--base", shas[0]!, "--candidate", shas[1]!];
  const measure = spawnChild(argv[0]!, [...argv.slice(1), ...args, "--contract", contract, "--run-dir", runDir], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  measure.stderr!.on("data", (d) => (stderr += String(d)));
  const ended = new Promise<string | number | null>((r) => measure.on("exit", (code, sig) => r(sig ?? code)));
  let exitedAt = 0;
  void ended.then(() => (exitedAt = Date.now()));

  // the baseline runs first; cancel the run from another process mid-measure
  const benchPid = Number(
    await waitFor(
      "the baseline's benchmark to be running",
      () => existsSync(`${flag}.10`) ? readFileSync(`${flag}.10`, "utf8").trim() : "",
      (t) => t !== "",
      30_000,
    ),
  );
  const cancelAt = Date.now();
  const cancel = await spawn({ argv: [...argv, "cancel", runDir], env, timeoutMs: 60_000 });
  assert.equal(cancel.exitCode, 0, cancel.stderr);
  assert.match(
    cancel.stdout,
    /^cancelled run .* on \S+: stopped the eval process group \d+ of the local measure \(pid \d+\) \(nothing of an unfinished eval is kept\); it stopped \(exit 3\)\n$/,
  );
  assert.equal(await ended, 3, stderr);
  assert.ok(exitedAt - cancelAt < 10_000, `measure exited ${exitedAt - cancelAt} ms after the cancel`);
  assert.match(
    stderr,
    /outerloop: error: Run ".*" was cancelled by user on \S+(, which stopped this pass| while this pass measured it): nothing more is dispatched or decided/,
  );
  assert.doesNotMatch(stderr, /eval failed|killed by a signal|without a result/i);
  await waitFor("the benchmark to be stopped", () => alive(benchPid), (a) => !a, 10_000);
  await waitFor("TMPDIR to be clean", () => readdirSync(tmp), (d) => d.length === 0, 10_000);

  assert.equal(existsSync(`${flag}.12`), false, "the candidate was never started");
  assert.equal(existsSync(join(runDir, "decision.json")), false);
  assert.equal(existsSync(join(runDir, "failure.json")), false, "a cancelled eval is not a failed one");
  assert.equal(existsSync(join(runDir, "lock")), false);
  const evalDirs = readdirSync(runDir).filter((d) => d.startsWith("eval-"));
  assert.equal(evalDirs.length, 1);
  assert.equal(existsSync(join(runDir, evalDirs[0]!, EVAL_FILES.exitCode)), false, "the stopped eval recorded nothing");

  const show = await spawn({ argv: [...argv, "show", runDir], env, timeoutMs: 60_000 });
  assert.equal(show.exitCode, 0, show.stderr);
  assert.match(show.stdout, /\ncancelled by user on \S+: no verdict\n$/);
  const runs = await spawn({ argv: [...argv, "runs", climb, "--json"], env, timeoutMs: 60_000 });
  assert.equal(runs.exitCode, 0, runs.stderr);
  assert.deepEqual(JSON.parse(runs.stdout).runs.map((r: { state: string }) => r.state), ["cancelled"]);
  const again = await spawn({ argv: [...argv, "cancel", runDir, "--json"], env, timeoutMs: 60_000 });
  assert.deepEqual(
    [again.exitCode, JSON.parse(again.stdout).already, JSON.parse(again.stdout).processes],
    [0, true, []],
    "a second cancel finds nothing running",
  );
  const resume = await spawn({ argv: [...argv, "resume", runDir], env, timeoutMs: 60_000 });
  assert.equal(resume.exitCode, 3, "resume refuses a cancelled run");
}

describe("cancel RUN_DIR of a local run", () => {
  it("(from source) stops its running eval, and measure exits 3 saying the run was cancelled", {
    timeout: 120_000,
  }, async () => {
    await scenario("runtime");
  });

  it("(binary) stops its running eval, and measure exits 3 saying the run was cancelled", {
    timeout: 300_000,
  }, async () => {
    await scenario("binary");
  });
});
