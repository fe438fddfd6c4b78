import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cli } from "../../helpers/cli.ts";
import { FakeCompute } from "../../helpers/fake_compute.ts";
import { git, makeRepo } from "../../helpers/git_repo.ts";
import { assertRefused } from "../../helpers/refused.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * `outerloop measure` refuses every bad input with exit 2 and one line that
 * names the flag or file, before anything is written: no run dir, no record,
 * no job.
 */

/** main~1 and main, a tag `x` on the first and a branch `x` on the second: `x` is ambiguous. */
const { repo, shas } = makeRepo([{ "b.sh": "echo 1" }, { "b.sh": "echo 2" }]);
git(repo, "tag", "x", shas[0]!);
git(repo, "branch", "x", shas[1]!);
mkdirSync(join(repo, "sub"));
const files = tempDir("input-files-");
const contract = join(files, "c.json");
writeFileSync(contract, JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize" }));
const aFile = join(files, "a-file");
writeFileSync(aFile, "");

/** A run dir path that does not exist yet, in a fresh parent. */
const freshRunDir = (name = "run") => join(tempDir("input-run-"), name);

/** Runs `measure` on the fixture (Slurm, a fake one), any required flag replaced by `flags`, `more` after them. */
async function measure(
  flags: {
    runDir?: string;
    base?: string;
    candidate?: string;
    contract?: string;
    repo?: string;
    compute?: string;
  } = {},
  more: string[] = [],
  env: Record<string, string> = {},
) {
  const compute = new FakeCompute();
  const runDir = flags.runDir ?? freshRunDir();
  const r = await cli([
    "measure",
    "--repo",
    flags.repo ?? repo,
    "--base",
    flags.base ?? "main~1",
    "--candidate",
    flags.candidate ?? "main",
    "--contract",
    flags.contract ?? contract,
    "--run-dir",
    runDir,
    `--compute=${flags.compute ?? "slurm"}`,
    ...more,
  ], { compute, env });
  return { ...r, runDir, calls: compute.calls };
}

/** Refused in one line, and nothing written: no run dir (when it did not exist), no scheduler call. */
function assertRefusedUnwritten(r: Awaited<ReturnType<typeof measure>>, pattern: RegExp, runDirExisted = false) {
  assertRefused(r, pattern);
  assert.deepEqual(r.calls, [], "nothing submitted");
  if (!runDirExisted && r.runDir !== "") assert.equal(existsSync(r.runDir), false, "the run dir was created");
}

describe("measure refuses a bad --run-dir before writing", () => {
  it('refuses --run-dir "" (it was the current directory, the baseline cache in its parent)', async () => {
    const before = readdirSync(".");
    assertRefusedUnwritten(await measure({ runDir: "" }), /^outerloop: error: Invalid --run-dir "": name a directory/);
    assert.deepEqual(readdirSync("."), before);
  });

  it("refuses a --run-dir that is a file, or the root", async () => {
    assertRefusedUnwritten(
      await measure({ runDir: aFile }),
      /Invalid --run-dir ".*a-file": it exists and is not a directory/,
      true,
    );
    assertRefusedUnwritten(
      await measure({ runDir: "/" }),
      /Invalid --run-dir "\/": the file system root cannot be/,
      true,
    );
  });

  it("refuses a --run-dir that cannot be created, naming the reason", async () => {
    assertRefusedUnwritten(
      await measure({ runDir: join(aFile, "run") }),
      /^outerloop: error: Cannot create --run-dir ".*a-file\/run": ENOTDIR.*; pick a writable directory$/m,
    );
  });
});

describe("measure's warning that a path is node-local comes after every input check", () => {
  it("keeps a refusal to one line, and warns once the run is frozen", async () => {
    // a dir under /tmp itself, wherever TMPDIR is: the warning is about that path
    const local = mkdtempSync("/tmp/ol-node-local-");
    try {
      writeFileSync(join(local, "a-file"), "");
      assertRefusedUnwritten(
        await measure({ runDir: join(local, "a-file", "run") }),
        /^outerloop: error: Cannot create --run-dir ".*a-file\/run": ENOTDIR/,
      );
      const r = await measure({ runDir: join(local, "run") });
      assert.equal(r.code, 75, r.stderr);
      assert.match(r.stderr, /--run-dir ".*\/run" \(the jobs write their results there\).* under \/tmp, which on most/);
      assert.equal(r.stderr.split("\n").filter((l) => l.includes("which on most clusters")).length, 1, "one line");
      assert.ok(existsSync(join(local, "run", "run.json")), "the run was frozen before the warning");
      // a cluster that is one machine says so, and is not warned
      const one = await measure({ runDir: join(local, "run-2") }, [], { OUTERLOOP_ONE_MACHINE: "1" });
      assert.equal(one.code, 75, one.stderr);
      assert.doesNotMatch(one.stderr, /which on most clusters/);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });
});

describe("measure refuses a bad run tag, given or taken from the run dir's name", () => {
  for (const tag of ["", "a|b", "a\tb", "a\u001bb", "x".repeat(129)]) {
    it(`refuses --run-tag ${JSON.stringify(tag.length > 20 ? `${tag.slice(0, 5)}…` : tag)}`, async () => {
      assertRefusedUnwritten(await measure({}, ["--run-tag", tag]), /^outerloop: error: Invalid --run-tag /);
    });
  }

  it("refuses a run dir whose name, the default run tag, holds | or a control character, and says to pass --run-tag", async () => {
    for (const name of ["a|b", "a\nb", "y".repeat(129)]) {
      assertRefusedUnwritten(
        await measure({ runDir: freshRunDir(name) }),
        /^outerloop: error: Invalid run tag ".*": .*; it is the name of --run-dir ".*": pass --run-tag TAG$/m,
      );
    }
    const r = await measure({ runDir: freshRunDir("a|b") }, ["--run-tag", "ab", "--dry-run", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).run_tag, "ab");
  });
});

describe("measure refuses a bad --seed", () => {
  for (const seed of ["", "0", "-1", "2147483648", "1.5", "1e3", "0x10", " 7", "99999999999999999999"]) {
    it(`refuses --seed=${JSON.stringify(seed)} (--seed= was read as 0)`, async () => {
      assertRefusedUnwritten(
        await measure({}, [`--seed=${seed}`]),
        /Invalid --seed ".*": expected a whole number from 1 to 2147483647/,
      );
    });
  }

  it("takes the largest seed, 2147483647", async () => {
    const r = await measure({}, ["--seed", "2147483647", "--dry-run", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).seed, 2147483647);
  });
});

describe("measure refuses a malformed command line", () => {
  it("refuses a single-valued flag given twice, naming both values", async () => {
    assertRefusedUnwritten(await measure({}, ["--base", "main"]), /--base is given twice \("main~1" and "main"\)/);
    assertRefusedUnwritten(await measure({}, ["--seed=1", "--seed=2"]), /--seed is given twice/);
  });

  it("refuses an extra positional argument", async () => {
    assertRefusedUnwritten(await measure({}, ["extra"]), /Unexpected argument "extra": "outerloop measure" takes no/);
  });

  it("refuses an empty --compute=", async () => {
    assertRefusedUnwritten(await measure({ compute: "" }), /Invalid --compute "": expected "local", "slurm" or "sge"/);
  });
});

describe("measure refuses refs it cannot take at face value", () => {
  it("refuses an ambiguous ref (a branch and a tag both named x), naming both and how to pick one", async () => {
    assertRefusedUnwritten(
      await measure({ base: "x" }),
      new RegExp(
        `^outerloop: error: --base: Ref "x" is ambiguous in ".*": it names refs/tags/x \\(${
          shas[0]!.slice(0, 12)
        }\\) and refs/heads/x \\(${
          shas[1]!.slice(0, 12)
        }\\); name the one you mean in full: refs/tags/x or refs/heads/x$`,
        "m",
      ),
    );
    assertRefusedUnwritten(await measure({ candidate: "x~0" }), /--candidate: Ref "x" \(in "x~0"\) is ambiguous/);
    const r = await measure({ base: "refs/tags/x", candidate: "refs/heads/x" }, ["--dry-run", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).measures.map((m: { name: string }) => m.name), ["baseline", "candidate"]);
  });

  it("refuses --base and --candidate that are the same commit, pointing at calibrate", async () => {
    assertRefusedUnwritten(
      await measure({ base: "main", candidate: shas[1]! }),
      new RegExp(
        `--base "main" and --candidate "${shas[1]}" are the same commit ${
          shas[1]!.slice(0, 12)
        }: pass two different commits \\(to measure a commit against itself and see the benchmark's noise, ` +
          `run "outerloop calibrate" with the same --base\\)$`,
        "m",
      ),
    );
  });
});

describe("measure refuses paths and names it cannot use", () => {
  it("refuses a --seed-cache that does not exist or is not a directory", async () => {
    for (const cache of [join(files, "no-such-dir"), aFile]) {
      assertRefusedUnwritten(await measure({}, ["--seed-cache", cache]), /--seed-cache ".*" is not a directory/);
    }
  });

  it("refuses a --repo that is a subdirectory of a work tree, naming its top", async () => {
    assertRefusedUnwritten(
      await measure({ repo: join(repo, "sub") }),
      new RegExp(`--repo ".*sub" is inside the work tree ".*", not its top: pass --repo ${JSON.stringify(repo)}`),
    );
  });

  it("refuses an image starting with -, from --image or OUTERLOOP_IMAGE", async () => {
    assertRefusedUnwritten(await measure({}, ["--image", "-x"]), /Invalid --image "-x": it would read as an apptainer/);
    assertRefusedUnwritten(
      await measure({}, [], { OUTERLOOP_IMAGE: "--nv" }),
      /Invalid OUTERLOOP_IMAGE "--nv": it would read as an apptainer option/,
    );
  });

  it("refuses an account or partition with white space or a control character, from a flag or the environment", async () => {
    assertRefusedUnwritten(
      await measure({}, ["--account", "acct "]),
      /Invalid --account "acct ": it contains white space/,
    );
    assertRefusedUnwritten(await measure({}, ["--gpu-partition", "g\tpu"]), /Invalid --gpu-partition "g\\tpu"/);
    for (
      const name of ["OUTERLOOP_ACCOUNT", "OUTERLOOP_PARTITION", "OUTERLOOP_GPU_PARTITION", "OUTERLOOP_GPU_ACCOUNT"]
    ) {
      assertRefusedUnwritten(
        await measure({}, [], { [name]: "a b" }),
        new RegExp(`^outerloop: error: Invalid ${name} "a b"`),
      );
    }
  });

  it("refuses a run dir holding , or : with an image (apptainer bind separators), and takes it without one", async () => {
    for (const name of ["a,b", "a:b"]) {
      assertRefusedUnwritten(
        await measure({ runDir: freshRunDir(name) }, ["--image", "img.sif"]),
        /--run-dir ".*" holds "," or ":", which apptainer reads as separators/,
      );
      const r = await measure({ runDir: freshRunDir(name) }, ["--dry-run"]);
      assert.equal(r.code, 0, r.stderr);
    }
  });
});

describe("measure --dry-run", () => {
  it("says what each eval job asks the scheduler for, from the contract", async () => {
    const sized = join(files, "sized.json");
    writeFileSync(
      sized,
      JSON.stringify({ name: "b", command: "c", metric: "m", direction: "maximize", eval_mem: "8G", eval_cpus: 4 }),
    );
    const r = await measure({ contract: sized, compute: "slurm" }, ["--dry-run"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^each eval job asks for 60 min, 8G of memory, 4 CPUs$/m);
    const plain = await measure({ compute: "slurm" }, ["--dry-run"]);
    assert.match(plain.stdout, /^each eval job asks for \d+ min, 2G of memory, 1 CPU$/m);
  });

  it("says what each pair job asks for: the walltime of its measures for same-job, twice the CPUs and memory for duet", async () => {
    const contract = (pairing: string) => {
      const file = join(files, `${pairing}.json`);
      const c = {
        name: "b",
        command: "c",
        metric: "m",
        direction: "maximize",
        eval_minutes: 10,
        eval_cpus: 2,
        pairing,
        repeats: 2,
      };
      writeFileSync(
        file,
        JSON.stringify({ ...c, siblings: [{ name: "s", command: "c", metric: "m", direction: "maximize" }] }),
      );
      return file;
    };
    const same = await measure({ contract: contract("same-job"), compute: "slurm" }, ["--dry-run", "--json"]);
    assert.equal(same.code, 0, same.stderr);
    const plan = JSON.parse(same.stdout);
    assert.equal(plan.jobs.length, 2, "one job per pair");
    assert.deepEqual(plan.jobs[1].measures, ["candidate#2", "baseline#2", "sib-s-cand#2", "sib-s-base#2"]);
    assert.deepEqual([plan.jobs[0].minutes, plan.jobs[0].cpus, plan.jobs[0].mem], [40, 2, "2G"]);
    const jobNames = new Set(plan.measures.map((m: { job_name: string }) => m.job_name));
    assert.deepEqual([...jobNames], plan.jobs.map((j: { job_name: string }) => j.job_name));
    const duet = await measure({ contract: contract("duet"), compute: "slurm" }, ["--dry-run"]);
    assert.match(
      duet.stdout,
      /^pair job eval-\S+-duet#1-[0-9a-f]{16} runs baseline, candidate, sib-s-base, sib-s-cand \(two at a time.*\); it asks for 20 min, 4G of memory, 4 CPUs$/m,
    );
  });
});

describe("measure refuses a contract file it cannot read as one", () => {
  it("refuses a directory, a device, a FIFO and a file over 1 MiB by what they are", async () => {
    const big = join(files, "big.json");
    writeFileSync(big, " ".repeat(1024 * 1024 + 1));
    const fifo = join(files, "fifo");
    execFileSync("mkfifo", [fifo]); // not in node:fs
    const cases: [string, RegExp][] = [
      [files, /it is a directory, not a regular file/],
      ["/dev/zero", /it is a character device, not a regular file/],
      [fifo, /it is a FIFO \(named pipe\), not a regular file/],
      [big, /it is 1048577 bytes, more than the 1 MiB allowed/],
    ];
    for (const [path, why] of cases) {
      const r = await measure({ contract: path });
      assertRefusedUnwritten(r, new RegExp(`Cannot read contract ${JSON.stringify(path)}: `));
      assert.match(r.stderr, why);
    }
  });

  it("refuses a byte-order mark and bytes that are not UTF-8", async () => {
    const bom = join(files, "bom.json");
    writeFileSync(
      bom,
      "\uFEFF" + JSON.stringify({ name: "b", command: "sh b.sh", metric: "m", direction: "maximize" }),
    );
    assertRefusedUnwritten(
      await measure({ contract: bom }),
      /it starts with a UTF-8 byte-order mark \(EF BB BF\); remove the byte-order mark/,
    );
    const latin1 = join(files, "latin1.json");
    writeFileSync(
      latin1,
      Buffer.from('{"name": "b",\n"command": "caf\xe9", "metric": "m", "direction": "maximize"}', "latin1"),
    );
    assertRefusedUnwritten(
      await measure({ contract: latin1 }),
      /it is not UTF-8 text: byte 0xE9 at offset 29 \(line 2\) is not valid UTF-8; save the file as UTF-8$/m,
    );
  });

  it("refuses a key given twice, naming it and where", async () => {
    const twice = join(files, "twice.json");
    writeFileSync(
      twice,
      '{"name": "b", "command": "sh b.sh", "metric": "m", "direction": "maximize", "min_effect": 1, "min_effect": 0}',
    );
    assertRefusedUnwritten(
      await measure({ contract: twice }),
      /Invalid contract ".*twice.json": the key "min_effect" is given twice \(JSON keeps only the last\); give it once$/m,
    );
  });

  it("reports a file that is not JSON in one line, its newlines escaped", async () => {
    const bad = join(files, "bad.json");
    writeFileSync(bad, '{\n"name": x,\n"command": 1\n}');
    assertRefusedUnwritten(await measure({ contract: bad }), /Contract ".*bad.json" is not JSON: /);
  });
});
