import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { submitCommand } from "../../../src/cli/commands/submit.ts";
import { parseArgs } from "../../../src/cli/flags.ts";
import { cli } from "../../helpers/cli.ts";

const parse = (argv: string[]) =>
  submitCommand.parse(parseArgs("submit", submitCommand.args, ["--job-name", "j1", ...argv]), {});

describe("submit: parse", () => {
  it("a command job with the defaults: an hour, one CPU, 2G, no GPU, output discarded", () => {
    const o = parse(["--command", "echo hi"]);
    assert.deepEqual(o.spec, {
      jobName: "j1",
      account: "",
      partition: "",
      timeMinutes: 60,
      command: "echo hi",
      cpus: 1,
      mem: "2G",
      gpus: 0,
      qos: "",
      output: "/dev/null",
      dependency: "",
      begin: "",
      extra: [],
    });
    assert.deepEqual([o.mode, o.dryRun, o.json], ["slurm", false, false]);
  });

  it("a script job takes its arguments", () => {
    const o = parse(["--script", "run.sh", "--script-arg", "a", "--script-arg", "b"]);
    assert.deepEqual([o.spec.script, o.spec.scriptArgs, o.spec.command], ["run.sh", ["a", "b"], undefined]);
  });

  it("refuses both or neither of --command and --script, and script arguments for a command", () => {
    assert.throws(() => parse([]), /Give exactly one of --command and --script/);
    assert.throws(() => parse(["--command", "x", "--script", "y"]), /Give exactly one of --command and --script/);
    assert.throws(() => parse(["--command", "x", "--script-arg", "a"]), /--script-arg goes with --script/);
  });

  it("refuses a bad size, time and extra argument", () => {
    assert.throws(() => parse(["--command", "x", "--mem", "lots"]), /Invalid --mem "lots"/);
    assert.throws(() => parse(["--command", "x", "--time", "0"]), /--time/);
    assert.throws(() => parse(["--command", "x", "--extra", "exclusive"]), /Invalid --extra "exclusive"/);
    assert.deepEqual(parse(["--command", "x", "--extra=--mail-type", "--extra", "END"]).spec.extra, [
      "--mail-type",
      "END",
    ]);
  });
});

describe("submit: execute", () => {
  it("--dry-run --json prints the sbatch argv and submits nothing", async () => {
    const r = await cli(["submit", "--job-name", "j1", "--command", "echo hi", "--dry-run", "--json"]);
    assert.equal(r.code, 0);
    const { argv } = JSON.parse(r.stdout) as { argv: string[] };
    assert.deepEqual(argv, [
      "sbatch",
      "--parsable",
      "--job-name=j1",
      "--account=",
      "--time=60",
      "--cpus-per-task=1",
      "--mem=2G",
      "--output=/dev/null",
      "--wrap=echo hi",
    ]);
    assert.deepEqual(r.modes, [], "no backend asked for");
  });

  it("refuses a --script that is no file before submitting", async () => {
    const r = await cli(["submit", "--job-name", "j1", "--script", "/nonexistent/run.sh"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Invalid --script "\/nonexistent\/run\.sh": no such file/);
  });
});
