import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type JobSpec, toArgv } from "../../src/compute/job_spec.ts";
import { quoteCommand, quoteWord } from "../../src/compute/quote.ts";
import { spawn } from "../../src/runtime/spawn.ts";

interface PySpec {
  job_name: string;
  account: string;
  partition: string;
  time_minutes: number;
  command?: string;
  script?: string;
  script_args?: string[];
  cpus?: number;
  mem?: string;
  gpus?: number;
  qos?: string;
  output?: string;
  dependency?: string;
  begin?: string;
  extra?: string[];
}
const vectors = JSON.parse(readFileSync(join(import.meta.dirname!, "..", "fixtures", "argv_vectors.json"), "utf8")) as {
  argv: { spec: PySpec; argv: string[] }[];
  quote: { words: string[]; quoted: string[]; joined: string };
};

function fromPython(p: PySpec): JobSpec {
  const spec: Record<string, unknown> = {
    jobName: p.job_name,
    account: p.account,
    partition: p.partition,
    timeMinutes: p.time_minutes,
    command: p.command,
    script: p.script,
    scriptArgs: p.script_args,
    cpus: p.cpus,
    mem: p.mem,
    gpus: p.gpus,
    qos: p.qos,
    output: p.output,
    dependency: p.dependency,
    begin: p.begin,
    extra: p.extra,
  };
  return Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as unknown as JobSpec;
}

describe("toArgv()", () => {
  it(`matches the reference's to_argv() for all ${vectors.argv.length} field combinations`, () => {
    for (const v of vectors.argv) assert.deepEqual(toArgv(fromPython(v.spec)), v.argv, JSON.stringify(v.spec));
  });

  it("refuses a spec with both command and script", () => {
    assert.throws(
      () => toArgv({ jobName: "j", account: "a", partition: "", timeMinutes: 1, command: "x", script: "y" }),
      /exactly one of command\/script must be set/,
    );
  });

  it("refuses a spec with neither command nor script", () => {
    assert.throws(() => toArgv({ jobName: "j", account: "a", partition: "", timeMinutes: 1 }), /exactly one/);
  });
});

describe("quoteCommand()", () => {
  it("quotes every word exactly as Python's shlex.quote", () => {
    assert.deepEqual(vectors.quote.words.map(quoteWord), vectors.quote.quoted);
    assert.equal(quoteCommand(vectors.quote.words), vectors.quote.joined);
  });

  it("round-trips any string through sh -c", async () => {
    const words = [...vectors.quote.words, "'", "''", "\\", "a\\'b", "\u00e9\u{1F600}", " lead", "trail "];
    const cmd = `for a in ${quoteCommand(words)}; do printf '%s\\0' "$a"; done`;
    const r = await spawn({ argv: ["sh", "-c", cmd] });
    assert.equal(r.exitCode, 0);
    assert.deepEqual(r.stdout.split("\0").slice(0, -1), words);
  });
});
