import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pruneCommand } from "../../src/cli/commands/prune.ts";
import { parseArgs } from "../../src/cli/flags.ts";
import { LocalCompute } from "../../src/compute/local.ts";
import { pinSha } from "../../src/dispatch/pin.ts";
import { prunePins } from "../../src/run/prune_pins.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { cli } from "../helpers/cli.ts";
import { git, makeRepo } from "../helpers/git_repo.ts";
import { assertOutput } from "../helpers/output_schema.ts";
import { runRecordFixture } from "../helpers/run_fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const bench = (score: number) => ({ "bench.sh": `echo '{"score": ${score}}'\n` });
const pins = (repo: string) =>
  git(repo, "for-each-ref", "--format=%(refname)", "refs/dispatch/").split("\n").filter(Boolean);

/**
 * A climb of two decided local runs (base → c1, c1 → c2) and one open run
 * (base → c3, only its record), with every pin measure makes, the open
 * run's, and one no run names.
 */
async function climb() {
  const work = tempDir("prune-");
  const { repo, shas } = makeRepo([bench(10), bench(12), bench(13), bench(14), bench(1)]);
  const [base, c1, c2, c3, other] = shas as [string, string, string, string, string];
  const contract = join(work, "c.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize" }),
  );
  const compute = new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: work } });
  const runs = join(work, "runs");
  for (const [tag, from, to] of [["r1", base, c1], ["r2", c1, c2]] as const) {
    const args = ["measure", "--compute", "local", "--repo", repo, "--base", from, "--candidate", to];
    const r = await cli([...args, "--contract", contract, "--run-dir", join(runs, tag)], { compute });
    assert.equal(r.code, 0, r.stderr);
  }
  const open = new RunDir(join(runs, "r3"));
  mkdirSync(open.path, { recursive: true });
  writeRunRecord(open, runRecordFixture({ repo, baseSha: base, candidateSha: c3, compute: "local" }));
  await pinSha(repo, c3);
  await pinSha(repo, other);
  return { repo, runs, base, c1, c2, c3, other };
}

describe("prunePins()", () => {
  it("removes the pins only finished runs name; keeps an open run's; leaves one no run names", async () => {
    const c = await climb();
    assert.equal(pins(c.repo).length, 5);
    const said = await prunePins(c.runs, true);
    assert.deepEqual(said.map((r) => [r.repo, [...r.removed].sort(), [...r.kept].sort(), r.left]), [
      [c.repo, [c.c1, c.c2].sort(), [c.base, c.c3].sort(), [c.other]],
    ]);
    assert.equal(pins(c.repo).length, 5, "a dry run removes nothing");
    await prunePins(c.runs, false);
    assert.deepEqual(pins(c.repo).sort(), [c.base, c.c3, c.other].map((s) => `refs/dispatch/${s}`).sort());
    // the open run is decided (cancelled, here): now its pins go too, the one no run names stays
    writeFileSync(
      join(c.runs, "r3", "cancelled.json"),
      JSON.stringify({ cancelled_at: "2026-01-01T00:00:00Z", by: "user", jobs: [] }),
    );
    await prunePins(c.runs, false);
    assert.deepEqual(pins(c.repo), [`refs/dispatch/${c.other}`]);
  });

  it("prunes nothing when a run dir of the climb cannot be read, and says which", async () => {
    const c = await climb();
    mkdirSync(join(c.runs, "r9"));
    writeFileSync(join(c.runs, "r9", "run.json"), "{ not json");
    await assert.rejects(prunePins(c.runs, false), /Cannot prune: .*r9.*move it out of DIR/s);
    assert.equal(pins(c.repo).length, 5);
  });
});

describe("outerloop prune", () => {
  it("reads DIR, --dry-run and --json", () => {
    const dir = tempDir("prune-parse-");
    const parse = (...argv: string[]) => pruneCommand.parse(parseArgs("prune", pruneCommand.args, argv), {});
    assert.deepEqual(parse(dir, "--dry-run"), { dir, dryRun: true, json: false });
  });

  it("says what it removed, kept and left, and gives it as --json", async () => {
    const c = await climb();
    const dry = await cli(["prune", c.runs, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /: would remove 2 pin\(s\) of finished runs; kept 2 an open run needs; left 1 no run/);
    const j = assertOutput("prune", (await cli(["prune", c.runs, "--json"])).stdout);
    assert.equal(j.dry_run, false);
    assert.deepEqual([...j.repos[0].removed].sort(), [c.c1, c.c2].sort());
    assert.equal(pins(c.repo).length, 3);
    assert.equal((await cli(["prune", join(c.runs, "nope")])).code, 2);
  });
});
