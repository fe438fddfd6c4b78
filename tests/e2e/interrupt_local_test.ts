/**
 * Ctrl-C or TERM during a local `measure`: an interrupt of outerloop itself
 * is not a result. outerloop says on stderr what it stopped and how to go on,
 * and dies of the signal. The running eval records no exit code, its checkout
 * is removed from TMPDIR, nothing of it keeps running, the run reads
 * `interrupted`, and the next `resume` measures it again and decides. Run on the compiled binary and on the
 * runtime running this test (`deno run` / `bun run` of src/main.ts).
 */
import { assertOutput } from "../helpers/output_schema.ts";
import { EVAL_FILES } from "../../src/dispatch/eval_files.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { spawn as spawnChild } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { alive } from "../helpers/proc.ts";
import { selfRunArgv } from "../helpers/self_runtime.ts";
import { waitFor } from "../helpers/wait.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** A benchmark that, while `flag` exists, says it runs (its pid in `flag.<score>`) and sleeps. */
const bench = (score: string, flag: string) => ({
  "bench.sh": `if [ -e ${flag} ]; then echo $$ > ${flag}.${score}; sleep 60; fi\nprintf '{"score": %s}\\n' ${score}\n`,
});

async function scenario(how: "binary" | "runtime", signal: "SIGTERM" | "SIGINT") {
  const work = tempDir("interrupt-");
  const tmp = join(work, "tmp");
  const flag = join(work, "slow");
  writeFileSync(flag, "");
  const { repo, shas } = makeRepo([bench("10", flag), bench("12", flag)], join(work, "repo"));
  const contract = join(work, "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 1 }),
  );
  const runDir = join(work, "runs", "run");
  const argv = how === "binary" ? [await ensureBinary()] : selfRunArgv(MAIN);
  mkdirSync(tmp);
  const env = { PATH: "/usr/bin:/bin", HOME: work, TMPDIR: tmp };
  const args = ["measure", "--compute", "local", "--repo", repo, "--base", shas[0]!, "--candidate", shas[1]!];
  const outerloop = spawnChild(
    argv[0]!,
    [...argv.slice(1), ...args, "--contract", contract, "--run-dir", runDir, "--json"],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  let stdout = "";
  outerloop.stderr!.on("data", (d) => (stderr += String(d)));
  outerloop.stdout!.on("data", (d) => (stdout += String(d)));
  const ended = new Promise<string | number | null>((r) => outerloop.on("exit", (code, sig) => r(sig ?? code)));

  // the baseline runs first; interrupt it mid-measure
  const benchPid = Number(
    await waitFor(
      "the baseline's benchmark to be running",
      () => existsSync(`${flag}.10`) ? readFileSync(`${flag}.10`, "utf8").trim() : "",
      (t) => t !== "",
      30_000,
    ),
  );
  assert.ok(readdirSync(tmp).some((d) => d.startsWith("outerloop-eval.")), "its checkout is in TMPDIR");
  outerloop.kill(signal);
  // it dies of the signal (a shell reports 130 for INT, 143 for TERM), having said what it stopped
  assert.equal(await ended, signal, stderr);
  const bySignal = signal === "SIGINT" ? "Ctrl-C \\(SIGINT\\)" : "SIGTERM";
  const said = stderr.split("\n").filter((l) => l.includes("interrupted by"));
  assert.equal(said.length, 1, stderr);
  assert.match(
    said[0]!,
    new RegExp(
      `^outerloop: interrupted by ${bySignal}: stopped measuring run ${runDir} \\(nothing of an unfinished eval is kept\\); ` +
        `"outerloop resume ${runDir}" goes on and measures again what the interrupt stopped$`,
    ),
  );

  // with --json, stdout holds one object that says so (a script gets an answer on every exit)
  const answer = assertOutput("measure", stdout, "an interrupted measure's --json");
  assert.equal(answer.status, "interrupted", stdout);
  assert.equal(answer.exit_code, signal === "SIGINT" ? 130 : 143);
  assert.equal(answer.run_dir, runDir);

  const evalDirs = readdirSync(runDir).filter((d) => d.startsWith("eval-"));
  assert.equal(evalDirs.length, 1, "the candidate was never started");
  const evalDir = join(runDir, evalDirs[0]!);
  assert.equal(existsSync(join(evalDir, EVAL_FILES.exitCode)), false, "an interrupt of outerloop is not a result");
  assert.equal(existsSync(join(evalDir, EVAL_FILES.submitted)), false);
  assert.match(readFileSync(join(evalDir, EVAL_FILES.output), "utf8"), /outerloop was interrupted: nothing recorded/);
  await waitFor("the benchmark to be stopped", () => alive(benchPid), (a) => !a, 10_000);
  await waitFor("TMPDIR to be clean", () => readdirSync(tmp), (d) => d.length === 0, 10_000);

  // where it stands, once its process is gone: interrupted
  const show = await spawn({ argv: [...argv, "show", runDir], env, timeoutMs: 60_000 });
  assert.match(show.stdout, /\ninterrupted: the process that measured it stopped before a verdict; "outerloop resume /);
  const runs = await spawn({ argv: [...argv, "runs", join(work, "runs"), "--json"], env, timeoutMs: 60_000 });
  assert.deepEqual(JSON.parse(runs.stdout).runs.map((r: { state: string }) => r.state), ["interrupted"]);

  // the next resume measures it again (fast now) and decides
  rmSync(flag);
  const resumed = await spawn({ argv: [...argv, "resume", runDir, "--json"], env, timeoutMs: 120_000 });
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.deepEqual(JSON.parse(resumed.stdout).values, { baseline: 10, candidate: 12 });
  assert.equal(readFileSync(join(evalDir, EVAL_FILES.exitCode), "utf8"), "0");
  assert.deepEqual(readdirSync(tmp), [], "nothing left in TMPDIR");
  assert.equal(existsSync(join(runDir, "lock")), false);
}

describe("an interrupted local measure", () => {
  it("(binary, TERM) records no result, leaves nothing behind, and the next resume measures again", {
    timeout: 300_000,
  }, async () => {
    await scenario("binary", "SIGTERM");
  });

  it("(binary, Ctrl-C) records no result, leaves nothing behind, and the next resume measures again", {
    timeout: 300_000,
  }, async () => {
    await scenario("binary", "SIGINT");
  });

  it("(from source, TERM) records no result, leaves nothing behind, and the next resume measures again", {
    timeout: 120_000,
  }, async () => {
    await scenario("runtime", "SIGTERM");
  });

  it("(from source, Ctrl-C) records no result, leaves nothing behind, and the next resume measures again", {
    timeout: 120_000,
  }, async () => {
    await scenario("runtime", "SIGINT");
  });
});
