/**
 * Which test files a runtime runs, and how (docs/development.md, "Tests").
 *
 * Deno runs every file. Bun runs the files where a runtime can differ: the
 * scenario folders (the runtime adapters, files, the binary end to end, the
 * live suites) and every file that covers a module touching the process, the
 * file system or the clock. The statistics, plans, verdicts and renderers are
 * the same JavaScript under both, and run once. OUTERLOOP_TEST_BOTH=all runs
 * everything under both; OUTERLOOP_LIVE_RUNTIMES narrows the runtimes the
 * live suites run under (CI runs each Slurm release's under one).
 *
 * Files run several at a time, except those with a line `// test.sh: alone …`
 * (they stop a daemon, drain a node, or change this process's environment or
 * working directory), which run one by one after the rest.
 *
 * Usage: deno run -A scripts/test_plan.ts RUNTIME PATH... — prints a line
 * `GROUP FILE` per file (`unit-together`, `unit-alone`, `live-together`,
 * `live-alone`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname!, "..");

/** Where a runtime can differ, whatever the file covers. */
export const SCENARIO_FOLDERS = ["tests/runtime/", "tests/fs/", "tests/e2e/", "tests/scripts/"] as const;

/** A suite that needs a real scheduler (tests/slurm/, tests/sge/, `*_live_test.ts`). */
export function isLive(test: string): boolean {
  return test.startsWith("tests/slurm/") || test.startsWith("tests/sge/") || test.endsWith("_live_test.ts");
}

/** What reaches the process, the file system or the clock: a node: module, `process`, `Date.now`, a timer. */
const TOUCHES =
  /from "node:(fs|fs\/promises|child_process|os|process|net|readline|tty)"|\bprocess\.|\bDate\.now\(|\bsetTimeout\(|\bsetInterval\(|\bperformance\.now\(|\bDeno\.|\bBun\b/;

/** `text` without its comments (roughly: enough that a word in a comment does not count). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/**
 * Whether a module of src/ touches the process, the file system or the clock
 * itself; a module of src/runtime/ does whenever it has code (not only types).
 */
export function touchesRuntime(module: string, text: string): boolean {
  const code = withoutComments(text);
  const runs = /^(export )?(async )?(function|const|let|class)\b/m.test(code);
  return (module.startsWith("src/runtime/") && runs) || TOUCHES.test(code);
}

/** The test files that cover `module`: `tests/<same path>_test.ts` and those its `Tested by` lines name. */
export function coveringTests(module: string, text: string, exists: (p: string) => boolean): string[] {
  const mirror = module.replace(/^src\//, "tests/").replace(/\.ts$/, "_test.ts");
  const named = [...text.matchAll(/\bTested by ((?:tests\/\S+?_test\.ts[,\s]*(?:and\s+)?)+)/g)].flatMap((m) =>
    m[1]!.match(/tests\/\S+?_test\.ts/g) ?? []
  );
  return [...new Set([mirror, ...named])].filter(exists);
}

/** Whether a test file runs one by one, after the others: its own line `// test.sh: alone …` says so. */
export function runsAlone(text: string): boolean {
  return /^\/\/ test\.sh: alone\b/m.test(text);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  );
}

const read = (p: string) => readFileSync(join(ROOT, p), "utf8");
const exists = (p: string) => {
  try {
    return statSync(join(ROOT, p)).isFile();
  } catch {
    return false;
  }
};

/** The test files that cover a module touching the process, the file system or the clock, by module. */
export function runtimeCoverage(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of tsFiles(join(ROOT, "src"))) {
    const module = relative(ROOT, file);
    const text = read(module);
    if (touchesRuntime(module, text)) out.set(module, coveringTests(module, text, exists));
  }
  return out;
}

/** Every test file under `paths` (files or folders, relative to the checkout), sorted. */
export function testFiles(paths: readonly string[]): string[] {
  return [
    ...new Set(paths.flatMap((p) => {
      const rel = relative(ROOT, join(ROOT, p));
      return statSync(join(ROOT, rel)).isDirectory()
        ? tsFiles(join(ROOT, rel)).map((f) => relative(ROOT, f)).filter((f) => f.endsWith("_test.ts"))
        : [rel];
    })),
  ].sort();
}

/** One group of files a runner runs: the live ones or not, several at a time or one by one. */
export type Group = `${"unit" | "live"}-${"together" | "alone"}`;

/** What one runtime runs of `files`, by group. */
export function plan(
  runtime: string,
  files: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Record<Group, string[]> {
  const liveRuntimes = (env["OUTERLOOP_LIVE_RUNTIMES"] ?? "deno bun").split(/\s+/);
  const both = new Set([...runtimeCoverage().values()].flat());
  const runs = (f: string) => {
    if (isLive(f)) return liveRuntimes.includes(runtime);
    if (runtime === "deno" || env["OUTERLOOP_TEST_BOTH"] === "all") return true;
    return SCENARIO_FOLDERS.some((d) => f.startsWith(d)) || both.has(f);
  };
  const out: Record<Group, string[]> = { "unit-together": [], "unit-alone": [], "live-together": [], "live-alone": [] };
  for (const f of files.filter(runs)) {
    out[`${isLive(f) ? "live" : "unit"}-${runsAlone(read(f)) ? "alone" : "together"}`].push(f);
  }
  return out;
}

if (import.meta.main) {
  const [runtime = "", ...paths] = process.argv.slice(2);
  const p = plan(runtime, testFiles(paths.length > 0 ? paths : ["tests/"]), process.env);
  for (const [group, files] of Object.entries(p)) for (const f of files) console.log(`${group} ${f}`);
}
