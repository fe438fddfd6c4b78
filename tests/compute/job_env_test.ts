import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isSecretName, jobEnv, ownJobId, schedulerEnv } from "../../src/compute/job_env.ts";

describe("isSecretName()", () => {
  it("reads the secret words case-insensitively, singular or plural", () => {
    for (
      const name of [
        "AUTORESEARCH_GITHUB_PAT",
        "OUTERLOOP_TOKEN",
        "AUTORESEARCH_SECRET",
        "OUTERLOOP_DB_PASSWORD",
        "AUTORESEARCH_db_password",
        "outerloop_api_key",
        "OUTERLOOP_Api_Key",
        "OUTERLOOP_APIKEY",
        "OUTERLOOP_SMTP_PASSWD",
        "OUTERLOOP_GPG_PASSPHRASE",
        "OUTERLOOP_AWS_CREDENTIALS",
        "OUTERLOOP_GCP_CREDENTIAL",
        "OUTERLOOP_CREDS",
        "OUTERLOOP_DEPLOY_KEYS",
        "OUTERLOOP_TOKENS",
        "OUTERLOOP_GITHUBTOKEN",
        "OUTERLOOP_DBPASSWORD",
        "AWS_SECRET_ACCESS_KEY",
        "GITHUB_TOKEN",
        "TOKEN",
      ]
    ) {
      assert.equal(isSecretName(name), true, name);
    }
  });

  it("passes where a secret is kept (a *_FILE, *_PATH, *_DIR) and names that merely contain the letters", () => {
    for (
      const name of [
        "AUTORESEARCH_KEY_FILE",
        "OUTERLOOP_TOKEN_PATH",
        "OUTERLOOP_SECRETS_DIR",
        "OUTERLOOP_MONKEY",
        "OUTERLOOP_PATCH",
        "OUTERLOOP_GPU_PARTITION",
        "AUTORESEARCH_COMPUTE",
        "PATH",
      ]
    ) {
      assert.equal(isSecretName(name), false, name);
    }
  });
});

describe("jobEnv()", () => {
  it("passes the allowlist and the config prefixes but no secret-named variables", () => {
    const env = jobEnv({
      PATH: "/bin",
      HOME: "/h",
      LANG: "C",
      TMPDIR: "/t",
      SLURM_TMPDIR: "/s",
      USER: "u",
      LOGNAME: "u",
      AUTORESEARCH_ROOT: "/r",
      OUTERLOOP_GPU_PARTITION: "gpu",
      AUTORESEARCH_KEY_FILE: "/k",
      AUTORESEARCH_GITHUB_PAT: "x",
      OUTERLOOP_TOKEN: "x",
      AUTORESEARCH_SECRET: "x",
      OUTERLOOP_DB_PASSWORD: "x",
      AUTORESEARCH_db_password: "x",
      AUTORESEARCH_API_KEY: "x",
      OUTERLOOP_AWS_CREDENTIALS: "x",
      AWS_SECRET_ACCESS_KEY: "x",
      GITHUB_TOKEN: "x",
      APPTAINERENV_FOO: "x",
      SHELL: "/bin/sh",
      UNSET: undefined,
    });
    assert.deepEqual(Object.keys(env).sort(), [
      "AUTORESEARCH_KEY_FILE",
      "AUTORESEARCH_ROOT",
      "HOME",
      "LANG",
      "LOGNAME",
      "OUTERLOOP_GPU_PARTITION",
      "PATH",
      "SLURM_TMPDIR",
      "TMPDIR",
      "USER",
    ]);
  });
});

describe("schedulerEnv()", () => {
  it("is the job environment plus what Slurm clients need, minus inherited job variables", () => {
    const env = schedulerEnv({
      SLURM_CONF: "/etc/slurm.conf",
      SLURM_JOB_ID: "5",
      SLURM_TMPDIR: "/s",
      SBATCH_PARTITION: "gpu",
      SRUN_CPUS_PER_TASK: "2",
      SALLOC_ACCOUNT: "a",
      PATH: "/bin",
      HOME: "/h",
      USER: "u",
      TZ: "Europe/Paris",
      LC_ALL: "C.UTF-8",
      LD_LIBRARY_PATH: "/opt/slurm/lib",
      OUTERLOOP_ACCOUNT: "acct",
      OUTERLOOP_API_TOKEN: "s3cret",
      AUTORESEARCH_db_password: "s3cret",
      GITHUB_TOKEN: "s3cret",
      SSH_AUTH_SOCK: "/tmp/agent",
      EDITOR: "vi",
    });
    assert.deepEqual(env, {
      SLURM_CONF: "/etc/slurm.conf",
      PATH: "/bin",
      HOME: "/h",
      USER: "u",
      TZ: "Europe/Paris",
      LC_ALL: "C.UTF-8",
      LD_LIBRARY_PATH: "/opt/slurm/lib",
      OUTERLOOP_ACCOUNT: "acct",
    });
  });
});

describe("Grid Engine in the scheduler environment", () => {
  it("passes what GE clients need to find their cell, and none of the job we run inside", () => {
    const env = schedulerEnv({
      SGE_ROOT: "/var/lib/gridengine",
      SGE_CELL: "default",
      SGE_QMASTER_PORT: "6444",
      JOB_ID: "12",
      SGE_TASK_ID: "3",
      SGE_O_WORKDIR: "/w",
      SGE_STDOUT_PATH: "/o",
      SGE_JOB_SPOOL_DIR: "/s",
      SGE_SECRET_TOKEN: "s3cret",
      PATH: "/bin",
    });
    assert.deepEqual(env, {
      SGE_ROOT: "/var/lib/gridengine",
      SGE_CELL: "default",
      SGE_QMASTER_PORT: "6444",
      PATH: "/bin",
    });
    assert.deepEqual(jobEnv({ SGE_ROOT: "/r", JOB_ID: "12" }), {});
  });

  it("ownJobId: Slurm's SLURM_JOB_ID, GE's JOB_ID inside a GE job (SGE_TASK_ID set), else nothing", () => {
    assert.equal(ownJobId({ SLURM_JOB_ID: "5" }), "5");
    assert.equal(ownJobId({ JOB_ID: "12", SGE_TASK_ID: "undefined" }), "12");
    assert.equal(ownJobId({ JOB_ID: "12" }), undefined);
    assert.equal(ownJobId({}), undefined);
  });
});
