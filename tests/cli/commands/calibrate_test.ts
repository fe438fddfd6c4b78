import assert from "node:assert/strict";
import { assertOutput } from "../../helpers/output_schema.ts";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LocalCompute } from "../../../src/compute/local.ts";
import { pairSeed } from "../../../src/stats/pair_seed.ts";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../../helpers/fake_compute.ts";
import { makeRepo } from "../../helpers/git_repo.ts";
import { tempDir } from "../../helpers/temp.ts";

/** A benchmark whose runs differ by per-run noise from /dev/urandom around a seed-dependent level. */
const NOISY = {
  "bench.sh": `n=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')\n` +
    `awk -v s="$SEED" -v n="$n" 'BEGIN { printf "{\\"t\\": %.6f}\\n", 100 + s % 10 + (n % 1000) / 250 }'\n`,
};

function setup() {
  const { repo } = makeRepo([NOISY]);
  const dir = tempDir("cli-calibrate-");
  const contract = join(dir, "c.json");
  writeFileSync(
    contract,
    JSON.stringify({
      name: "noisy",
      command: "sh bench.sh",
      metric: "t",
      seed_env: "SEED",
      direction: "minimize",
      siblings: [{
        name: "echo",
        command: "sh bench.sh",
        metric: "t",
        direction: "maximize",
        seed_env: "SEED",
        tolerance: 0.001,
      }],
    }),
  );
  const compute = new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: dir } });
  return { repo, contract, runDir: join(dir, "runs", "aa"), compute };
}

describe("outerloop calibrate (local backend, in-process)", () => {
  it("measures the base against itself in N seeded pairs and reports the spread and a suggestion", {
    timeout: 120_000,
  }, async () => {
    const { repo, contract, runDir, compute } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    const r = await cli([...args, "--pairs", "4", "--seed", "7", "--compute", "local", "--json"], { compute });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, "calibrated");
    assert.equal(out.n, 4);
    assert.deepEqual(out.seeds, [1, 2, 3, 4].map((i) => pairSeed(7, i)));
    assert.equal(out.differences.length, 4);
    assert.ok(out.sd > 0, "per-run noise gives a spread");
    assert.deepEqual(out.detectable.map((d: { pairs: number }) => d.pairs), [3, 5, 10, 20, 30]);
    assert.ok(out.suggestion.max_repeats >= out.suggestion.repeats && out.suggestion.repeats >= 1);
    assert.equal(out.direction, "minimize");
    assert.deepEqual(out.improvement, { mean: -out.mean, lower: -out.upper, upper: -out.lower });
    assert.equal(out.siblings.echo.direction, "maximize");
    assert.ok(out.siblings.echo.sd > 0);
    assert.ok(out.suggestion.siblings.echo.tolerance > 0);
    assert.match(out.derivation, /^min_effect [0-9.]+: .*; max_repeats [0-9]+: .*; tolerance echo [0-9.]+ /);
    // every value is positive: the suggestion's relative form too, as the README promises (issue 30)
    assert.match(out.relative_suggestion.min_effect, /^[0-9.]+%$/);
    assert.match(out.relative_suggestion.siblings.echo, /^[0-9.]+%$/);
    const rec = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8"));
    assert.equal(rec.kind, "calibrate");
    assert.equal(rec.base_sha, rec.candidate_sha);
    assert.deepEqual([rec.contract.repeats, rec.contract.max_repeats ?? rec.contract.repeats], [4, 4]);
    assert.ok(existsSync(join(runDir, "calibration.json")));
    const file = JSON.parse(readFileSync(join(runDir, "calibration.json"), "utf8"));
    assert.deepEqual(file.relative_suggestion, out.relative_suggestion, "calibration.json keeps it");
    // resume and show answer from calibration.json; the table is for people
    const again = await cli(["resume", runDir], { compute });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /the base against itself in 4 pairs/);
    assert.match(again.stdout, /suggested contract keys:\n {2}\{"min_effect":/);
    assert.match(again.stdout, /sibling echo \(t, higher is better\): mean/);
    assert.match(
      again.stdout,
      /\n {2}sibling echo: \{"tolerance":[0-9.]+\}\n {2}or relative \(every value is positive\): \{"min_effect":"[0-9.]+%"\}\n {2}sibling echo, relative: \{"tolerance":"[0-9.]+%"\}\nhow: min_effect /,
    );
    const shown = JSON.parse((await cli(["show", runDir, "--json"], { compute })).stdout);
    assert.equal(shown.kind, "calibrate");
    assert.equal(shown.calibration.n, 4);
    assert.deepEqual(shown.calibration.suggestion, out.suggestion);
    assert.equal(shown.calibration.derivation, out.derivation);
  });

  it("shows a calibration.json written before siblings and derivations were recorded", {
    timeout: 120_000,
  }, async () => {
    const { repo, contract, runDir, compute } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    assert.equal((await cli([...args, "--pairs", "2", "--compute", "local"], { compute })).code, 0);
    // what the code before them wrote: no direction, improvement, siblings, derivation or sibling tolerances
    const file = join(runDir, "calibration.json");
    const { direction: _d, improvement: _i, siblings: _s, derivation: _v, ...old } = JSON.parse(
      readFileSync(file, "utf8"),
    );
    const { siblings: _t, ...suggestion } = old.suggestion;
    writeFileSync(file, JSON.stringify({ ...old, suggestion }));
    const shown = await cli(["show", runDir, "--json"], { compute });
    assert.equal(shown.code, 0, shown.stderr);
    const c = JSON.parse(shown.stdout).calibration;
    assert.equal(c.direction, "minimize", "the run record's");
    assert.deepEqual(c.improvement, { mean: -old.mean, lower: -old.upper, upper: -old.lower });
    assert.deepEqual(c.siblings, {});
    assert.deepEqual(c.suggestion, { ...suggestion, siblings: {}, noise: null });
    assert.equal(c.derivation, null);
    const table = await cli(["show", runDir], { compute });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /predates the derivation note/);
  });

  it("refuses --pairs below 2 or above 100 and takes no --candidate", async () => {
    const { repo, contract, runDir } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    for (const bad of ["1", "101", "x"]) {
      const r = await cli([...args, "--pairs", bad]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Invalid --pairs/);
    }
    const r = await cli([...args, "--candidate", "main"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown option "--candidate" for "outerloop calibrate"/);
    assert.equal(existsSync(runDir), false);
  });
});

describe("outerloop calibrate --wait (a fake scheduler, in-process)", () => {
  /** A calibration's evals queue on the fake scheduler as they are submitted, and so does its wake. */
  function queued() {
    const { repo } = makeRepo([NOISY]);
    const dir = tempDir("cli-calibrate-wait-");
    const contract = join(dir, "c.json");
    writeFileSync(
      contract,
      JSON.stringify({ name: "noisy", command: "sh bench.sh", metric: "t", direction: "maximize", seed_env: "SEED" }),
    );
    const compute = new FakeCompute();
    // each submission (an array's every task too) is listed under its job name until the test ends it
    compute.onSubmit = (spec, id) =>
      void compute.live!.set(spec.jobName, [...(compute.live!.get(spec.jobName) ?? []), id]);
    const runDir = join(dir, "runs", "aa");
    const argv = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    return { compute, runDir, argv: [...argv, "--pairs", "3", "--seed", "7", "--compute", "slurm"] };
  }
  const evals = (c: FakeCompute) => c.submitted.filter((s) => s.jobName.startsWith("eval-"));

  it("waits through the park, calibrates once the evals are in (not waiting for the wake job), and exits 0", async () => {
    const { compute, runDir, argv } = queued();
    const sleeps: number[] = [];
    const r = await cli([...argv, "--wait", "--json"], {
      compute,
      sleeps,
      onSleep: (_ms, ctx) => {
        if (ctx.count === 0) {
          // the evals end, each with its own value; the wake stays queued behind them
          evals(compute).forEach((s, i) => finishEvalJob(s, { t: 100 + ((i * 37) % 11) / 10 }));
          for (const s of evals(compute)) compute.live!.delete(s.jobName);
        }
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /dispatched 6 job\(s\) as one job array 1000, tasks 0-5: measure baseline; measure candidate; /,
    );
    assert.match(r.stderr, /parked on job\(s\) 1000 behind wake job \d+; waiting for the calibration \(Ctrl-C/);
    assert.match(r.stderr, /wake job \d+ is about to start \(the jobs it waits on have ended\): left to end by itself/);
    assert.deepEqual(sleeps, [1000], "seen at the first look at the files");
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, "calibrated");
    assert.equal(out.n, 3);
    assert.equal(evals(compute).length, 6, "three A/A pairs, submitted once");
    const again = await cli(["resume", runDir, "--json"], { compute: new FakeCompute() });
    assert.deepEqual(out, JSON.parse(again.stdout), "--json prints the calibration as resume --json does");
  });

  it("without --wait parks with exit 75; --poll and --timeout go with --wait", async () => {
    const parked = queued();
    const r = await cli(parked.argv, { compute: parked.compute });
    assert.equal(r.code, 75, r.stderr);
    assert.match(r.stdout, /^parked: waiting on job\(s\) 1000\n/);
    const timedOut = queued();
    const t = await cli([...timedOut.argv, "--wait", "--timeout", "0"], { compute: timedOut.compute });
    assert.equal(t.code, 75, t.stderr);
    assert.match(t.stderr, /not decided after 0s \(--timeout\); nothing was changed/);
    const lone = queued();
    const p = await cli([...lone.argv, "--poll", "5"], { compute: lone.compute });
    assert.equal(p.code, 2);
    assert.match(p.stderr, /--poll goes with --wait: add --wait or drop it/);
    assert.equal(existsSync(lone.runDir), false);
  });
});

describe("outerloop calibrate --pairing", () => {
  it("calibrates under one pairing when asked, freezing it in run.json", { timeout: 120_000 }, async () => {
    const { repo, contract, runDir, compute } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    const r = await cli([...args, "--pairs", "2", "--pairing", "same-job", "--compute", "local"], { compute });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).contract.pairing, "same-job");
    assert.match(r.stderr, /running the same-job job of pair 1 .*locally/);
  });

  it("all: calibrates under each pairing in RUN_DIR/<pairing>, sets them side by side and recommends one", {
    timeout: 180_000,
  }, async () => {
    const { repo, contract, runDir, compute } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--contract", contract, "--run-dir", runDir];
    const r = await cli([...args, "--pairs", "3", "--pairing", "all", "--compute", "local", "--json"], { compute });
    assert.equal(r.code, 0, r.stderr);
    const out = assertOutput("calibrate", r.stdout, "calibrate --pairing all");
    assert.deepEqual(out.pairings.map((p: { pairing: string }) => p.pairing), ["separate", "same-job", "duet"]);
    assert.ok(["separate", "same-job", "duet"].includes(out.recommended));
    assert.equal(typeof out.reason, "string");
    for (const p of ["separate", "same-job", "duet"]) {
      const rec = JSON.parse(readFileSync(join(runDir, p, "run.json"), "utf8"));
      assert.equal(rec.contract.pairing ?? "separate", p);
      assert.equal(rec.run_tag, `aa-${{ "separate": "sep", "same-job": "same", "duet": "duet" }[p]}`);
      assert.ok(existsSync(join(runDir, p, "calibration.json")));
    }
    // again: the same runs, answered from their files
    const again = await cli([...args, "--pairs", "3", "--pairing", "all", "--compute", "local"], { compute });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^pairings of noisy: the base against itself under each$/m);
    assert.match(again.stdout, /^recommended: "pairing": "(separate|same-job|duet)" — /m);
  });

  it("refuses an unknown pairing, and duet for a benchmark with GPUs, before writing anything", async () => {
    const { repo, contract, runDir, compute } = setup();
    const args = ["calibrate", "--repo", repo, "--base", "main", "--run-dir", runDir, "--compute", "local"];
    const bad = await cli([...args, "--contract", contract, "--pairing", "paired"], { compute });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Invalid --pairing "paired": expected one of separate, same-job, duet, all/);
    const gpu = join(contract, "..", "gpu.json");
    writeFileSync(
      gpu,
      JSON.stringify({ name: "g", command: "sh bench.sh", metric: "t", direction: "maximize", gpus: 1 }),
    );
    const duet = await cli([...args, "--contract", gpu, "--pairing", "duet"], { compute });
    assert.equal(duet.code, 2);
    assert.match(duet.stderr, /--pairing duet cannot calibrate .*: .*calibrate with --pairing same-job/);
    assert.equal(existsSync(runDir), false);
  });
});
