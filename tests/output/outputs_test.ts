import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { LocalCompute } from "../../src/compute/local.ts";
import * as z from "zod/mini";
import { schemaCommand } from "../../src/cli/commands/schema.ts";
import { parseArgs } from "../../src/cli/flags.ts";
import { OUTPUTS, schemaDocument } from "../../src/output/commands.ts";
import { errorSchema } from "../../src/output/error_output.ts";
import { statusSchema } from "../../src/output/job_outputs.ts";
import { jsonSchemaOf } from "../../src/output/json_schema.ts";
import { decidedSchema } from "../../src/output/outcome.ts";
import { meansSchema } from "../../src/output/pieces.ts";
import { runsSchema } from "../../src/output/runs_output.ts";
import { showSchema } from "../../src/output/show_output.ts";
import { wholeNumber } from "../../src/schema/zod.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { cli } from "../helpers/cli.ts";
import { FakeCompute, finishEvalJob } from "../helpers/fake_compute.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { assertOutput } from "../helpers/output_schema.ts";
import { validateJson } from "../helpers/json_schema.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * Every command's real `--json` output, on the local backend (and, for what
 * only a scheduler gives — a park, a wait that times out, a cancel of live
 * jobs — on a fake Slurm), validated against the zod schema it is built to
 * and the JSON Schema `outerloop schema output` prints: every `status` of a
 * run (decided with each verdict, parked with its pending jobs and wake,
 * waiting with stopped "timeout", calibrated, error), every form of the
 * scheduler verbs.
 */

/** A benchmark whose time is `t` plus a hundredth per seed mod 3 (so pairs differ), or that crashes. */
const timing = (t: number) => ({
  "bench.sh": `awk -v s="\${SEED:-0}" 'BEGIN { printf "{\\"t\\": %.4f}\\n", ${t} + (s % 3) / 100 }'\n`,
});
const CRASH = { "bench.sh": 'echo "Traceback: boom" >&2\nexit 1\n' };

function climb() {
  const work = tempDir("outputs-");
  // base 10; fast 8 (accept), slow 12 (reject), near 9.8 (inconclusive at min_effect 0.5), fast2 8.5, a crash
  const { repo, shas } = makeRepo([timing(10), timing(8), timing(12), timing(9.8), timing(8.5), CRASH]);
  const [base, fast, slow, near, fast2, crash] = shas as [string, string, string, string, string, string];
  const contract = (extra: Record<string, unknown> = {}) => {
    const file = join(work, `contract-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        name: "toy",
        command: "sh bench.sh",
        metric: "t",
        direction: "minimize",
        seed_env: "SEED",
        min_effect: 0.5,
        eval_minutes: 1,
        ...extra,
      }),
    );
    return file;
  };
  const compute = new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: work } });
  const runs = join(work, "runs");
  const measure = (tag: string, candidates: string[], contractFile: string, ...more: string[]) =>
    cli([
      "measure",
      "--compute",
      "local",
      "--repo",
      repo,
      "--base",
      base,
      ...candidates.flatMap((c) => ["--candidate", c]),
      "--contract",
      contractFile,
      "--run-dir",
      join(runs, tag),
      "--seed",
      "5",
      "--json",
      ...more,
    ], { compute });
  return { work, repo, base, fast, slow, near, fast2, crash, contract, compute, runs, measure };
}

describe("every command's --json, validated against its schema (local backend)", () => {
  it(
    "measure, resume, wait, show, runs, calibrate, submit, status, jobs and cancel",
    { timeout: 300_000 },
    async () => {
      const c = climb();
      const seen = new Map<string, Set<string>>();
      const check = (command: string, stdout: string, what: string) => {
        const j = assertOutput(command, stdout, what);
        const key = j.status === "decided" ? `decided ${j.verdict}` : j.status ?? Object.keys(j).sort().join(",");
        seen.set(command, (seen.get(command) ?? new Set()).add(key));
        return j;
      };
      /** The output parsed by the one schema it must be (not only by the command's union of them). */
      const exactly = (schema: z.core.$ZodType, value: unknown, what: string) => {
        const r = z.safeParse(schema, value);
        assert.ok(r.success, `${what}: ${r.success ? "" : z.prettifyError(r.error)}`);
      };
      const single = c.contract();
      for (
        const [tag, cand, code] of [["r1", c.fast, 0], ["r2", c.slow, 10], ["r3", c.near, 11], ["r4", c.crash, 12]]
      ) {
        const label = tag === "r1" ? ["--label", "faster kernel"] : [];
        const r = await c.measure(tag as string, [cand as string], single, ...label);
        assert.equal(r.code, code, r.stderr);
        const j = check("measure", r.stdout, `measure ${tag}`);
        exactly(decidedSchema(), j, `measure ${tag}`);
        exactly(meansSchema(), j.means, `measure ${tag}: means`);
        assert.equal(j.means.baseline, 10 + (5 % 3) / 100, `${tag}: the baseline's mean`);
        const dir = join(c.runs, tag as string);
        for (const cmd of ["resume", "wait", "show"]) {
          const again = await cli([cmd, dir, "--json"], { compute: c.compute });
          check(cmd, again.stdout, `${cmd} ${tag}`);
        }
      }
      // a repeated design and a round of slow, fast2, fast
      const repeated = c.contract({ repeats: 2, max_repeats: 4 });
      check("measure", (await c.measure("r5", [c.fast], repeated)).stdout, "measure r5 (repeated)");
      const round = await c.measure("r6", [c.slow, c.fast2, c.fast], repeated);
      const rj = check("measure", round.stdout, "measure r6 (a round)");
      assert.equal(rj.candidate_sha, c.fast, "the round's commit to merge is its winner's");
      assert.deepEqual(rj.candidates.map((x: { winner: boolean }) => x.winner), [false, false, true]);
      for (const cmd of ["resume", "show"]) {
        check(cmd, (await cli([cmd, join(c.runs, "r6"), "--json"], { compute: c.compute })).stdout, `${cmd} r6`);
      }
      // the dry run, a calibration, the climb
      check("measure", (await c.measure("r7", [c.fast], single, "--dry-run")).stdout, "measure --dry-run");
      const cal = await cli([
        "calibrate",
        "--compute",
        "local",
        "--repo",
        c.repo,
        "--base",
        c.base,
        "--contract",
        single,
        "--run-dir",
        join(c.runs, "aa"),
        "--pairs",
        "3",
        "--json",
      ], { compute: c.compute });
      assert.equal(cal.code, 0, cal.stderr);
      check("calibrate", cal.stdout, "calibrate");
      const aa = (await cli(["show", join(c.runs, "aa"), "--json"], { compute: c.compute })).stdout;
      exactly(showSchema(), check("show", aa, "show aa"), "show aa");
      const listing = check("runs", (await cli(["runs", c.runs, "--json"], { compute: c.compute })).stdout, "runs");
      exactly(runsSchema(), listing, "runs");
      // what each candidate tries: --label, else its commit's subject; a round's candidates each their own
      const measured = listing.runs.filter((r: { kind: string }) => r.kind === "measure");
      assert.deepEqual(measured.map((r: { label: string }) => r.label), [
        "faster kernel",
        "commit 2",
        "commit 3",
        "commit 5",
        "commit 1",
        "commit 1",
      ]);
      assert.deepEqual(measured[5].round.candidates.map((x: { label: string }) => x.label), [
        "commit 2",
        "commit 4",
        "commit 1",
      ]);
      assert.match(
        (await cli(["show", join(c.runs, "r1")], { compute: c.compute })).stdout,
        /\nlabel: faster kernel\n/,
      );
      // results.tsv, as autoresearch keeps it
      const tsv = (await cli(["runs", c.runs, "--tsv"], { compute: c.compute })).stdout.trimEnd().split("\n");
      const cells = tsv.map((l) => l.split("\t"));
      const short = (sha: string) => sha.slice(0, 7);
      assert.deepEqual(cells.map((r) => [r[0], r[2]]), [
        ["commit", "status"],
        [short(c.base), "keep"],
        [short(c.fast), "keep"],
        [short(c.slow), "discard"],
        [short(c.near), "discard"],
        [short(c.crash), "crash"],
        [short(c.fast), "keep"],
        [short(c.slow), "discard"],
        [short(c.fast2), "discard"],
        [short(c.fast), "keep"],
      ]);
      assert.equal(tsv[0], "commit\tt\tstatus\tdescription");
      assert.deepEqual(cells[2], [short(c.fast), "8.02", "keep", "faster kernel"]);
      assert.equal(cells[5]![1], "0.000000", "a crash's value, as autoresearch writes it");
      assert.match(cells[5]![3]!, /^commit 5 \(eval .*\)$/, "a crash's description says why");
      assert.equal(listing.runs.length, 7);
      // the scheduler's verbs
      const dry = await cli([
        "submit",
        "--compute",
        "local",
        "--job-name",
        "x",
        "--command",
        "true",
        "--dry-run",
        "--json",
      ], {
        compute: c.compute,
      });
      check("submit", dry.stdout, "submit --dry-run");
      const submitted = check(
        "submit",
        (await cli(["submit", "--compute", "local", "--job-name", "x", "--command", "true", "--json"], {
          compute: c.compute,
        })).stdout,
        "submit",
      );
      const id = submitted.job_id as string;
      const status = (await cli(["status", id, "--compute", "local", "--json"], { compute: c.compute })).stdout;
      exactly(statusSchema(), check("status", status, "status"), "status");
      for (const more of [[], ["--names"], ["--name", "x"]]) {
        check(
          "jobs",
          (await cli(["jobs", "--compute", "local", ...more, "--json"], { compute: c.compute })).stdout,
          "jobs",
        );
      }
      check(
        "cancel",
        (await cli(["cancel", id, "--compute", "local", "--json"], { compute: c.compute })).stdout,
        "cancel id",
      );
      check(
        "cancel",
        (await cli(["cancel", join(c.runs, "r1"), "--json"], { compute: c.compute })).stdout,
        "cancel run",
      );
      // a user's mistake: exit 2, and still one object
      const bad = await cli(["show", join(c.work, "nothing"), "--json"], { compute: c.compute });
      assert.equal(bad.code, 2);
      const error = check("show", bad.stdout, "show of no run");
      exactly(errorSchema(), error, "show of no run");
      assert.equal(error.error.kind, "bad-input");

      assert.deepEqual(
        [...seen.get("measure")!].sort(),
        [
          "decided accept",
          "decided crashed",
          "decided inconclusive",
          "decided reject",
          "compute,jobs,measures,pairing,run_tag,seed,submissions",
        ].sort(),
      );
      assert.deepEqual([...seen.get("submit")!].sort(), ["argv", "job_id"]);
      assert.deepEqual([...seen.get("jobs")!].sort(), ["job_id,name", "jobs", "names"]);
      assert.deepEqual([...seen.get("cancel")!].sort(), ["cancelled,job_id", "cancelled,jobs,run_dir,state"]);
      assert.ok(seen.get("show")!.has("error") && seen.get("show")!.size > 1, "show's answers and its error");
    },
  );
});

/** A Slurm-kind run parked by its first pass on a fake scheduler: its evals 1000 and 1001, its wake 1002. */
async function parked(contract: Record<string, unknown> = {}) {
  const dir = new RunDir(join(tempDir("outputs-slurm-"), "runs", "r1"));
  mkdirSync(dir.path, { recursive: true });
  writeRunRecord(dir, runRecordFixture({}, contract));
  const compute = new FakeCompute();
  const first = await cli(["resume", dir.path, "--json"], { compute });
  assert.equal(first.code, 75, first.stderr);
  const evals = compute.submitted.filter((s) => s.jobName.startsWith("eval-"));
  compute.live = new Map(compute.submitted.map((s, i) => [s.jobName, [compute.submittedIds[i]!]]));
  return { dir, compute, evals, first };
}

describe("every run status a scheduler gives, validated against its schema (a fake Slurm)", () => {
  it("parked with pending and wake_job; waiting with stopped timeout; show of a live run; cancel; error", async () => {
    const p = await parked();
    const j = assertOutput("resume", p.first.stdout, "resume, parked");
    assert.equal(j.status, "parked");
    assert.ok(j.pending.length > 0 && typeof j.wake_job === "string");
    const waited = await cli(["wait", p.dir.path, "--timeout", "5", "--json"], { compute: p.compute });
    assert.equal(waited.code, 75);
    assert.deepEqual(assertOutput("wait", waited.stdout, "wait --timeout").stopped, "timeout");
    const shown = assertOutput("show", (await cli(["show", p.dir.path, "--json"], { compute: p.compute })).stdout);
    assert.equal(shown.state, "parked");
    assert.ok(shown.wake !== null);
    const cancelled = await cli(["cancel", p.dir.path, "--json"], { compute: p.compute });
    assert.equal(assertOutput("cancel", cancelled.stdout, "cancel of a parked run").state, "cancelled");
    const refused = await cli(["resume", p.dir.path, "--json"], { compute: p.compute });
    assert.equal(refused.code, 3);
    const e = assertOutput("resume", refused.stdout, "resume of a cancelled run");
    assert.deepEqual([e.status, e.state, e.cancelled !== null], ["error", "cancelled", true]);
    assertOutput("show", (await cli(["show", p.dir.path, "--json"], { compute: p.compute })).stdout, "show cancelled");
  });

  it("an eval-failed error with the failure, and a failed run's show", async () => {
    const p = await parked();
    p.evals.forEach((s, i) => finishEvalJob(s, i === 0 ? null : { score: 12 }, i === 0 ? 1 : 0));
    p.compute.live = new Map();
    const failed = await cli(["resume", p.dir.path, "--json"], { compute: p.compute });
    assert.equal(failed.code, 3, failed.stderr);
    const e = assertOutput("resume", failed.stdout, "resume of a failed run");
    assert.deepEqual([e.error.kind, e.state, e.failure.measure], ["eval-failed", "failed", "baseline"]);
    assertOutput("show", (await cli(["show", p.dir.path, "--json"], { compute: p.compute })).stdout, "show failed");
    assertOutput("runs", (await cli(["runs", join(p.dir.path, ".."), "--json"], { compute: p.compute })).stdout);
  });
});

describe("the check of an output", () => {
  it("refuses an unknown key, a missing key and a wrong type, by both schemas", () => {
    const ok = { job_id: "1", state: "COMPLETED", elapsed_s: null, pending_reason: null, partition: null };
    assert.equal(assertOutput("status", JSON.stringify(ok)).state, "COMPLETED");
    for (const bad of [{ ...ok, extra: 1 }, { ...ok, state: undefined }, { ...ok, elapsed_s: "3" }]) {
      assert.throws(() => assertOutput("status", JSON.stringify(bad)), /the zod schema accepts it/);
      assert.notDeepEqual(validateJson(schemaDocument("output", "status"), bad), [], JSON.stringify(bad));
    }
  });
});

describe("outerloop schema", () => {
  it("prints the contract's, decision.json's and every command's JSON Schema", async () => {
    for (const name of ["contract", "decision", "output"]) {
      const r = await cli(["schema", name]);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.equal(s.$schema, "https://json-schema.org/draft/2020-12/schema");
      assert.deepEqual(s, schemaDocument(name as "contract"), name);
    }
    const output = JSON.parse((await cli(["schema", "output"])).stdout);
    assert.deepEqual(Object.keys(output.$defs).sort(), Object.keys(OUTPUTS).sort());
    const one = JSON.parse((await cli(["schema", "output", "--command", "show"])).stdout);
    assert.equal(one.title, "outerloop show --json");
  });

  it("reads NAME and --command", () => {
    const parse = (...argv: string[]) => schemaCommand.parse(parseArgs("schema", schemaCommand.args, argv), {});
    assert.deepEqual(parse("output", "--command", "runs"), { name: "output", command: "runs" });
    assert.deepEqual(parse("decision"), { name: "decision", command: undefined });
  });

  it("gives a whole number as an integer, and the title and description it is told", () => {
    const s = jsonSchemaOf(wholeNumber(2), { title: "n", description: "pairs" });
    assert.deepEqual(s, {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      title: "n",
      description: "pairs",
      type: "integer",
      minimum: 2,
    });
  });

  it("refuses an unknown name or command, and --command without output", async () => {
    assert.equal((await cli(["schema", "verdict"])).code, 2);
    assert.equal((await cli(["schema", "output", "--command", "nope"])).code, 2);
    assert.equal((await cli(["schema", "contract", "--command", "show"])).code, 2);
  });

  it("a contract's JSON Schema accepts a contract with $schema and refuses an unknown key, as the check does", () => {
    const schema = schemaDocument("contract");
    const ok = { $schema: "./contract.schema.json", name: "t", command: "sh b.sh", metric: "t", direction: "minimize" };
    assert.deepEqual(validateJson(schema, ok), []);
    assert.notDeepEqual(validateJson(schema, { ...ok, min_efect: 1 }), []);
    assert.deepEqual(validateJson(schema, { ...ok, min_effect: "2%", unit: "ms", repeats: 3 }), []);
    assert.notDeepEqual(validateJson(schema, { ...ok, repeats: 1.5 }), [], "a whole number is an integer");
  });
});
