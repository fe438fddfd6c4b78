/**
 * Every fenced block of README.md and docs/*.md does what its info string
 * says (tests/helpers/doc_blocks.ts): its commands run in a sandbox holding
 * the example repository (the local backend), or pass the CLI's own parser
 * and a `--dry-run` when they need a cluster; its JSON fits its schema. A
 * page's blocks run in order in one sandbox, so a command can read what an
 * earlier one made.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as z from "zod/mini";
import { exitCodesOf } from "../../src/exit_codes.ts";
import { parseContract } from "../../src/contract/contract.ts";
import { OUTPUTS, schemaDocument } from "../../src/output/commands.ts";
import { decisionSchema } from "../../src/rundir/decision_file.ts";
import { spawn } from "../../src/runtime/spawn.ts";
import {
  BLOCK_KINDS,
  type DocBlock,
  fencedBlocks,
  type OuterloopCommand,
  outerloopCommand,
  shellCommands,
} from "../helpers/doc_blocks.ts";
import { type DocSandbox, docSandbox, parseProblem, ROOT, runInSandbox, shellWords } from "../helpers/doc_sandbox.ts";
import { validateJson } from "../helpers/json_schema.ts";
import { assertOutput } from "../helpers/output_schema.ts";

const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const blocksOf = (page: string) => fencedBlocks(page, readFileSync(join(ROOT, page), "utf8"));

/** What a command exits with when the docs say nothing: a verdict, or success. */
const QUIET_CODES = [0, 10, 11, 12];

/** `problems` gets a line for what `check` throws. */
function collect(problems: string[], where: string, check: () => void): void {
  try {
    check();
  } catch (err) {
    problems.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function where(c: { line: number }, block: DocBlock): string {
  return `${block.file}:${c.line}`;
}

/** The commands that reach a scheduler unless told `--compute local` (the others use their run's backend). */
const SCHEDULING = ["measure", "calibrate", "submit", "status", "jobs"];

/** A `sh` block's command, run in the sandbox: its exit code as the docs expect, its --json fitting its schema. */
async function runLocal(sb: DocSandbox, block: DocBlock, o: OuterloopCommand, problems: string[]): Promise<void> {
  if (SCHEDULING.includes(o.name) && !/\s--compute[ =]local\b/.test(o.command)) {
    problems.push(
      `${where(o, block)}: \`${o.command}\` runs in the sandbox: say --compute local, or mark the block sh cluster`,
    );
    return;
  }
  const r = await runInSandbox(sb, `${o.assignments} ${o.command}`);
  const expected = o.exit !== null
    ? [o.exit]
    : exitCodesOf(o.name).map((c) => c.code).filter((c) => QUIET_CODES.includes(c));
  if (!expected.includes(r.exitCode ?? -1)) {
    problems.push(
      `${where(o, block)}: \`${o.command}\` exited ${r.exitCode} (expected ${expected.join(" or ")}):\n${r.stderr}`,
    );
    return;
  }
  if (/\s--json\b/.test(o.command) && !/>/.test(o.command) && OUTPUTS[o.name] !== undefined) {
    collect(problems, where(o, block), () => assertOutput(o.name, r.stdout, o.command));
  }
}

/** A command that needs a cluster: the CLI's parser and option checks, and `--dry-run` where it has one. */
async function checkCluster(sb: DocSandbox, block: DocBlock, o: OuterloopCommand, problems: string[]): Promise<void> {
  const argv = await shellWords(sb, o.command.replace(/^outerloop\s*/, ""));
  const env = {
    ...sb.env,
    ...Object.fromEntries(o.assignments.split(/\s+/).filter((a) => a).map((a) => a.split("=", 2))),
  };
  const problem = await parseProblem(argv, env);
  if (problem !== null) {
    problems.push(`${where(o, block)}: \`${o.command}\` is refused: ${problem}`);
    return;
  }
  if (o.name !== "measure" && o.name !== "submit") return;
  const dry = argv.includes("--dry-run") ? argv : [...argv, "--dry-run"];
  const r = await spawn({ argv: [sb.binary, ...dry], cwd: sb.home, env, output: "separate", timeoutMs: 60_000 });
  if (r.exitCode !== 0) {
    problems.push(`${where(o, block)}: \`${o.command} --dry-run\` exited ${r.exitCode}:\n${r.stderr}`);
  } else if (argv.includes("--json")) {
    collect(problems, where(o, block), () => assertOutput(o.name, r.stdout, `${o.command} --dry-run`));
  }
}

/** A JSON block against the schema its info string names. */
function checkJson(block: DocBlock, problems: string[]): void {
  collect(problems, `${block.file}:${block.line}`, () => {
    const value = JSON.parse(block.body);
    const kind = block.info[1]!;
    if (kind === "contract") {
      parseContract(value, `${block.file}:${block.line}`);
      assert.deepEqual(validateJson(schemaDocument("contract"), value), []);
    } else if (kind === "decision") {
      const zod = z.safeParse(decisionSchema(), value);
      assert.ok(zod.success, zod.success ? "" : z.prettifyError(zod.error));
      assert.deepEqual(validateJson(schemaDocument("decision"), value), []);
    } else if (kind.startsWith("output=")) {
      assertOutput(kind.slice("output=".length), JSON.stringify(value));
    }
  });
}

describe("the docs' fenced blocks", () => {
  it("each say what they are", () => {
    const unknown = PAGES.flatMap((p) => blocksOf(p)).filter((b) => !BLOCK_KINDS.some((k) => k.test(b.info.join(" "))));
    assert.deepEqual(
      unknown.map((b) => `${b.file}:${b.line}: \`\`\`${b.info.join(" ")}`),
      [],
      "a block's info string is one of tests/helpers/doc_blocks.ts's kinds",
    );
  });

  for (const page of PAGES) {
    it(`${page}: every command runs or parses, every JSON block fits its schema`, async () => {
      const problems: string[] = [];
      let sandbox: DocSandbox | null = null;
      const sb = async () => sandbox ??= await docSandbox();
      for (const block of blocksOf(page)) {
        const kind = block.info.join(" ");
        if (kind.startsWith("json")) checkJson(block, problems);
        else if (kind === "sh script") {
          const r = await runInSandbox(await sb(), block.body, "bash");
          if (r.exitCode !== 0) {
            problems.push(`${block.file}:${block.line}: the script exited ${r.exitCode}:\n${r.stdout}\n${r.stderr}`);
          }
        } else if (kind === "sh" || kind === "sh cluster" || kind === "text") {
          for (const c of shellCommands(block)) {
            if (kind === "text" && !c.text.startsWith("$ outerloop")) continue;
            const o = outerloopCommand(c);
            if (o === null) continue;
            if (kind === "sh") await runLocal(await sb(), block, o, problems);
            else await checkCluster(await sb(), block, o, problems);
          }
        }
      }
      assert.deepEqual(problems, [], problems.join("\n\n"));
    });
  }
});
