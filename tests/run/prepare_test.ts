import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BadInputError } from "../../src/errors.ts";
import { prepareRun, type RunRequest } from "../../src/run/prepare.ts";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { writeRunRecord } from "../../src/rundir/run_record.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { tempDir } from "../helpers/temp.ts";

const DEPS = { now: () => Date.parse("2026-01-02T03:04:05Z"), self: ["outerloop"] };

/** A repository of three commits, a contract beside it, and a request for `main~1` against `main` in a fresh run dir. */
function request(contract: Record<string, unknown> = {}, over: Partial<RunRequest> = {}) {
  const { repo, shas } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }, { "b.sh": "echo 3" }]);
  const path = join(tempDir("prepare-contract-"), "c.json");
  writeFileSync(
    path,
    JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize", ...contract }),
  );
  const req: RunRequest = {
    repo,
    base: "main~1",
    candidates: ["main"],
    labels: [],
    contract: path,
    runDir: new RunDir(join(tempDir("prepare-run-"), "r1")),
    seed: 7,
    runTag: undefined,
    image: "",
    account: "",
    partition: "",
    gpuPartition: "",
    gpuAccount: "",
    wakePartition: "",
    wakeQos: "",
    cluster: "",
    arrays: true,
    arrayThrottle: null,
    seedCache: null,
    mode: "local",
    raw: ["--base", "main~1"],
    ...over,
  };
  return { req, shas };
}

describe("prepareRun()", () => {
  it("resolves both refs into the record and writes nothing", async () => {
    const { req, shas } = request();
    const record = await prepareRun(req, DEPS);
    assert.equal(record.baseSha, shas[1]);
    assert.equal(record.candidateSha, shas[2]);
    assert.equal(record.runTag, "r1", "the default tag is the run dir's name");
    assert.deepEqual(record.commandLine, ["outerloop", "measure", "--base", "main~1"]);
    assert.equal(existsSync(req.runDir.path), false, "a run dir is never created by preparing");
  });

  it("a calibration measures every pair in one look and always its own baseline", async () => {
    const { req } = request({ repeats: 3, max_repeats: 9, baseline: "cached", pairing: "separate" });
    const record = await prepareRun({ ...req, candidates: [req.base] }, DEPS, { kind: "calibrate", pairs: 12 });
    assert.deepEqual([record.contract.repeats, record.contract.maxRepeats, record.contract.baseline], [
      12,
      12,
      "measure",
    ]);
    assert.equal(record.commandLine[1], "calibrate");
  });

  it("refuses a --label other than the one the same run keeps; the same, or none, continues it", async () => {
    const { req } = request({}, { labels: ["first try"] });
    req.runDir.create("--run-dir");
    writeRunRecord(req.runDir, await prepareRun(req, DEPS));
    await assert.rejects(
      prepareRun({ ...req, labels: ["second try"] }, DEPS),
      (e: unknown) =>
        e instanceof BadInputError &&
        /^--label "second try" differs from the label "first try" that the run in --run-dir ".*r1" keeps for --candidate "main": a run's labels are frozen with it; give the same --label, leave --label out, or measure in a new --run-dir$/
          .test(e.message),
    );
    assert.deepEqual((await prepareRun(req, DEPS)).labels, ["first try"]);
    assert.deepEqual((await prepareRun({ ...req, labels: [] }, DEPS)).labels, ["first try"]);
  });

  it("labels each candidate with --label, else with its commit's subject; refuses a count that is not one each", async () => {
    const { req } = request();
    assert.deepEqual((await prepareRun(req, DEPS)).labels, ["commit 2"], "the candidate commit's subject");
    const labelled = await prepareRun({ ...req, labels: ["try a wider model"] }, DEPS);
    assert.deepEqual(labelled.labels, ["try a wider model"]);
    const round = await prepareRun({ ...req, candidates: ["main", "main~2"], labels: [] }, DEPS);
    assert.deepEqual(round.labels, ["commit 2", "commit 0"], "a round: each candidate's subject");
    await assert.rejects(
      prepareRun({ ...req, candidates: ["main", "main~2"], labels: ["one"] }, DEPS),
      /--label given 1 time\(s\) for 2 --candidate: give one per --candidate/,
    );
  });

  it("refuses a candidate equal to the base, and the same candidate twice", async () => {
    const { req, shas } = request();
    await assert.rejects(prepareRun({ ...req, candidates: [shas[1]!] }, DEPS), /are the same commit/);
    await assert.rejects(
      prepareRun({ ...req, candidates: ["main", shas[2]!] }, DEPS),
      (err: Error) => err instanceof BadInputError && /give each candidate once/.test(err.message),
    );
  });

  it("refuses what could not run: no repo, an unknown ref, a missing seed cache, a bind-path run dir", async () => {
    const { req } = request();
    await assert.rejects(prepareRun({ ...req, repo: join(req.repo, "nope") }, DEPS), /is not a directory/);
    await assert.rejects(
      prepareRun({ ...req, candidates: ["no-such-ref"] }, DEPS),
      /--candidate: /,
    );
    await assert.rejects(
      prepareRun({ ...req, seedCache: join(req.repo, "nope") }, DEPS),
      /--seed-cache .* is not a directory/,
    );
    const colon = new RunDir(join(tempDir("prepare-run-"), "a:b"));
    await assert.rejects(prepareRun({ ...req, image: "img.sif", runDir: colon, runTag: "t" }, DEPS), /apptainer/);
  });

  it("refuses a round under duet pairing", async () => {
    const { req } = request({ repeats: 2, max_repeats: 2, pairing: "duet" });
    await assert.rejects(prepareRun({ ...req, candidates: ["main", "main~2"] }, DEPS), /pairing "duet"/);
  });
});
