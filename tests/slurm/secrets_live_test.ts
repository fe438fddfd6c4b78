/**
 * No secret-named variable of the caller reaches any job, on the real
 * testbed: the compiled binary runs with tokens and passwords in its
 * environment, and every job it causes dumps the environment it got — a
 * `submit --command` job, the eval jobs' scripts (read by their command from
 * /proc), and the wake job (its `resume` process, read by the squeue wrapper
 * it calls) — as does every scheduler command it runs.
 */
import { testbedMeasureArgv } from "../helpers/measure_argv.ts";
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";
import { ensureBinary } from "../helpers/binary.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { live, liveIt, waitFor } from "../helpers/slurm_live.ts";
import { SlurmWrappers } from "../helpers/slurm_wrappers.ts";

const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: "ghp-secret-value-1",
  AUTORESEARCH_db_password: "secret-value-2",
  OUTERLOOP_API_KEY: "secret-value-3",
  OUTERLOOP_AWS_CREDENTIALS: "secret-value-4",
  OUTERLOOP_SMTP_PASSWD: "secret-value-5",
  AWS_SECRET_ACCESS_KEY: "secret-value-6",
  OUTERLOOP_HF_TOKEN: "secret-value-7",
};
const VISIBLE = { OUTERLOOP_VISIBLE: "config-passes-through" };

/** Fails naming the file when any secret's name or value is in `text`. */
function assertClean(what: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    assert.ok(!text.includes(value), `${what} holds the value of ${name}`);
    assert.ok(!new RegExp(`^${name}=`, "m").test(text), `${what} holds ${name}`);
  }
}

liveIt(
  "no secret-named variable reaches a submit job, an eval job, a wake job or a scheduler command",
  240_000,
  async () => {
    const binary = await ensureBinary();
    const wrappers = new SlurmWrappers({ dumpEnv: true });
    const work = tempDir("live-secrets-");
    const env: Record<string, string> = {
      PATH: `${wrappers.dir}:/usr/bin:/bin`,
      HOME: work,
      USER: "root",
      SLURM_CONF: live.kind === "run" ? live.conf : "",
      ...SECRETS,
      ...VISIBLE,
    };
    const run = (args: string[]) => spawn({ argv: [binary, ...args], env, timeoutMs: 120_000, output: "separate" });

    // 1. outerloop submit --command 'env > f'
    const dumped = join(work, "submit-env");
    const sub = await run([
      "submit",
      "--compute",
      "slurm",
      "--job-name",
      `live-secrets-${Date.now().toString(36)}`,
      "--account",
      "acct_a",
      "--time",
      "2",
      "--mem",
      "100M",
      "--command",
      `env > ${dumped}.tmp && mv ${dumped}.tmp ${dumped}`,
    ]);
    assert.equal(sub.exitCode, 0, sub.stderr);
    const submitEnv = await waitFor("the submit job's env", () => existsSync(dumped), Boolean, 60_000, 250)
      .then(() => readFileSync(dumped, "utf8"));
    assertClean("the submit job's environment", submitEnv);
    assert.match(submitEnv, /^OUTERLOOP_VISIBLE=config-passes-through$/m);
    assert.match(submitEnv, /^SLURM_JOB_ID=\d+$/m);

    // 2. measure: the eval jobs' scripts (their command reads its parent's /proc environ), then the wake
    // the command finds the batch script (slurmd runs job.sh as its copy "slurm_script") among its
    // ancestors and reads its /proc environ: what Slurm gave the job
    const bench = (score: string) => ({
      "bench.sh": [
        "p=$PPID",
        'while [ "$p" -gt 1 ]; do',
        `  if tr '\\000' ' ' < /proc/$p/cmdline | grep -q 'slurm_script'; then`,
        `    tr '\\000' '\\n' < /proc/$p/environ > ${work}/eval-job-env-${score}; break`,
        "  fi",
        "  p=$(cut -d' ' -f4 /proc/$p/stat)",
        "done",
        `env > ${work}/eval-command-env-${score}`,
        `printf '{"score": ${score}}\\n'`,
        "",
      ].join("\n"),
    });
    const { repo, shas } = makeRepo([bench("10"), bench("12")], join(work, "repo"));
    const contract = join(work, "contract.json");
    writeFileSync(
      contract,
      JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 2 }),
    );
    const runDir = join(work, "runs", "secrets");
    const measured = await run(testbedMeasureArgv({ repo, shas, contract, runDir }));
    assert.equal(measured.exitCode, 75, measured.stderr);
    const wakeId = JSON.parse(readFileSync(join(runDir, "wake.json"), "utf8")).job_id as string;
    await waitFor("the wake job to decide", () => existsSync(join(runDir, "decision.json")), Boolean, 150_000, 500);
    for (const score of ["10", "12"]) {
      const jobEnv = readFileSync(join(work, `eval-job-env-${score}`), "utf8");
      assertClean(`eval job ${score}'s environment`, jobEnv);
      assert.match(jobEnv, /^OUTERLOOP_VISIBLE=config-passes-through$/m);
      assertClean(`eval command ${score}'s environment`, readFileSync(join(work, `eval-command-env-${score}`), "utf8"));
    }
    // the wake's resume retires the run's wakes once it decides: one squeue, whose caller is the wake job's process
    const envs = await waitFor(
      "the wake job's scheduler call",
      () => wrappers.environments(),
      (m) => [...m].some(([f, text]) => f.endsWith(".parent") && text.includes(`SLURM_JOB_ID=${wakeId}\n`)),
      30_000,
      250,
    );
    let wakeSeen = 0;
    for (const [file, text] of envs) {
      // a `.parent` outside any job is the binary this test started, with the secrets it was given
      if (file.endsWith(".parent") && !/^SLURM_JOB_ID=/m.test(text)) continue;
      assertClean(`the environment in ${file}`, text);
      if (file.endsWith(".self")) {
        // a scheduler command's own environment: no job variables of the wake it may run in
        assert.doesNotMatch(text, /^(SLURM_JOB_ID|SBATCH_[A-Z_]+|SRUN_[A-Z_]+)=/m, file);
        assert.match(text, /^SLURM_CONF=/m, file);
      }
      if (file.endsWith(".parent") && text.includes(`SLURM_JOB_ID=${wakeId}\n`)) {
        wakeSeen++;
        assert.match(text, /^OUTERLOOP_VISIBLE=config-passes-through$/m);
      }
    }
    assert.ok(wakeSeen > 0);
    assert.ok([...envs.keys()].some((f) => f.startsWith("sbatch.")), "sbatch was wrapped");
    process.stderr.write(
      `live-slurm secrets: ${envs.size} environments dumped (submit job, 2 eval jobs, ${wakeSeen} from the wake), none with a secret\n`,
    );
  },
);
