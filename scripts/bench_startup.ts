/**
 * What starting the compiled binary costs, reported not asserted: `outerloop
 * --version`, and `show` and `resume` of a decided run of 4 pairs on the
 * local backend (what an agent's poll and a wake pay), each against an empty
 * program compiled with the same flags (the floor: what any `bun build
 * --compile` binary pays to start). Builds dist/outerloop first
 * (scripts/build.sh --native-only; skip with --no-build), then runs the four
 * in turn, round after round, so every command sees the same noise, and
 * quotes per command its median wall time (bash's $EPOCHREALTIME around the
 * run, to the microsecond: an empty binary starts in ~4 ms, so whole
 * milliseconds would step a ratio by a quarter) and CPU (user + sys, from
 * bash's `time`, to the millisecond), and the median of each's per-round
 * ratio to the empty binary's (the figure that holds when the machine's speed
 * drifts). Targets (issue 30): --version at most 1.3x; show and resume of a
 * decided run no slower than before citty, 2.9x and 2.6x. Beside them,
 * `read_floor`: a program compiled the same way that only reads the decided
 * run's files (run.json, decision.json, each eval's exit code, output,
 * provenance and marker), parses them with no check at all and prints a line
 * per measure: what any command that reads a run pays before it does
 * anything of its own.
 * `--before BINARY` times another build of outerloop (an older commit's
 * dist/outerloop) in the same rounds, on the same run dir: before and after
 * side by side. Writes bench/startup.json and prints a summary.
 *
 * Usage: deno run -A scripts/bench_startup.ts [--runs N] [--no-build] [--before BINARY]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decidedRun, PAIRS } from "./bench_runs.ts";

const root = join(import.meta.dirname!, "..");
const binary = join(root, "dist", "outerloop");
const runsFlag = process.argv.indexOf("--runs");
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30;
const beforeFlag = process.argv.indexOf("--before");
const before = beforeFlag > 0 ? process.argv[beforeFlag + 1]! : null;
const TARGET: Record<string, number> = { version: 1.3, show_decided: 2.9, resume_decided: 2.6 };
/** The flags scripts/build.sh compiles with, so the floor is built as the binary is. */
const FLAGS = [
  "--compile",
  "--splitting",
  "--format=esm",
  "--minify",
  "--bytecode",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--compile-jit-policy=100",
];

/** The read floor's source: every file `show` of a decided run reads, parsed and printed without a check. */
const READ_FLOOR = `import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.argv[2];
const text = (f) => { try { return readFileSync(f, "utf8"); } catch { return ""; } };
const run = JSON.parse(text(join(dir, "run.json")));
const decision = JSON.parse(text(join(dir, "decision.json")));
const lines = ["run " + dir + ": " + run.contract.name];
for (const e of readdirSync(dir).filter((f) => f.startsWith("eval-")).sort()) {
  const d = join(dir, e);
  const code = text(join(d, "exit-code")).trim();
  const out = existsSync(join(d, "result.json")) ? text(join(d, "result.json")) : text(join(d, "stdout.log"));
  const value = JSON.parse(out.trim().split("\\n").at(-1))[run.contract.metric];
  const where = Object.fromEntries(text(join(d, "provenance")).split("\\n").map((l) => l.split("=")));
  const job = text(join(d, "submitted")).trim();
  lines.push([e.slice(5, 20).padEnd(16), code, String(value).padStart(8), job, where.host ?? ""].join("  "));
}
lines.push("verdict: " + decision.verdict);
console.log(lines.join("\\n"));
`;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const run = (argv: string[], env: NodeJS.ProcessEnv = { PATH: "/usr/bin:/bin" }) =>
  execFileSync(argv[0]!, argv.slice(1), { env, stdio: "pipe" });

if (!process.argv.includes("--no-build")) {
  run(["bash", join(root, "scripts", "build.sh"), "--native-only"], process.env);
}
if (!existsSync(binary)) throw new Error("dist/outerloop is missing: run `deno task build` first");

const work = mkdtempSync(join(tmpdir(), "outerloop-bench-startup-"));
try {
  /** The floor: an empty program compiled as dist/outerloop is. */
  const empty = join(work, "empty");
  const src = join(root, `.bench-empty-${process.pid}.ts`);
  writeFileSync(src, "console.log(0);\n");
  try {
    run(["bun", "build", ...FLAGS, src, "--outfile", empty], process.env);
  } finally {
    rmSync(src, { force: true });
  }

  /** The read floor: the run dir's files read and parsed, unchecked, a line printed per eval. */
  const readFloor = join(work, "read_floor");
  const readSrc = join(root, `.bench-read-floor-${process.pid}.ts`);
  writeFileSync(readSrc, READ_FLOOR);
  try {
    run(["bun", "build", ...FLAGS, readSrc, "--outfile", readFloor], process.env);
  } finally {
    rmSync(readSrc, { force: true });
  }

  /** A decided run of `PAIRS` pairs on the local backend (a two-commit repo whose candidate scores higher). */
  // made by the older build when there is one: a newer one reads an older run dir, not the other way round
  const runDir = decidedRun(work, before ?? binary, PAIRS);

  const commands: Record<string, string[]> = {
    empty_compiled: [empty],
    read_floor: [readFloor, runDir],
    version: [binary, "--version"],
    show_decided: [binary, "show", runDir],
    resume_decided: [binary, "resume", runDir],
    ...(before === null ? {} : {
      version_before: [before, "--version"],
      show_decided_before: [before, "show", runDir],
      resume_decided_before: [before, "resume", runDir],
    }),
  };
  /**
   * One run of `argv`: its wall time from bash's $EPOCHREALTIME just before
   * and after (microseconds, without this script's spawn cost), its CPU from
   * bash's `time` (the child's own user and sys, to the millisecond).
   */
  const timed = (argv: string[]) => {
    const script = 'TIMEFORMAT="%3U %3S"; s=$EPOCHREALTIME; { time "$@" >/dev/null 2>&1; } 2>&1; ' +
      'rc=$?; e=$EPOCHREALTIME; echo "$s $e"; exit $rc';
    const r = spawnSync("bash", ["-c", script, "bash", ...argv], {
      env: { PATH: "/usr/bin:/bin", HOME: work },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}`);
    const [times, clock] = r.stdout.trim().split("\n").slice(-2);
    const [user, sys] = times!.split(" ").map(Number);
    const [start, end] = clock!.split(" ").map(Number);
    return { wall: (end! - start!) * 1000, cpu: (user! + sys!) * 1000 };
  };

  const wall: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (const argv of Object.values(commands)) timed(argv); // warm-up: the page cache
  for (let i = 0; i < runs; i++) {
    for (const [name, argv] of Object.entries(commands)) {
      const t = timed(argv);
      wall[name]!.push(t.wall);
      cpu[name]!.push(t.cpu);
    }
  }
  const floor = { wall: wall["empty_compiled"]!, cpu: cpu["empty_compiled"]! };
  const figures = Object.fromEntries(
    Object.keys(commands).map((name) => {
      const wallRatio = round(median(wall[name]!.map((w, i) => w / floor.wall[i]!)));
      const cpuRatio = round(median(cpu[name]!.map((c, i) => c / floor.cpu[i]!)));
      return [name, {
        argv: commands[name]!.map((a) => a.replace(work, "$WORK").replace(root, ".")),
        wall_median_ms: round(median(wall[name]!), 2),
        wall_ratio_median: wallRatio,
        cpu_median_ms: round(median(cpu[name]!), 1),
        cpu_ratio_median: cpuRatio,
        ...(TARGET[name] ? { target_ratio: TARGET[name], within: wallRatio <= TARGET[name]! } : {}),
      }];
    }),
  );
  const results = {
    date: new Date().toISOString(),
    runtime: "Bun" in globalThis ? "bun" : "deno",
    runs,
    decided_run: `${PAIRS} pairs, local backend`,
    ...(before === null ? {} : { before }),
    note: "each round runs every command in turn; a ratio is the median of each round's ratio to the empty " +
      "compiled binary's run of the same round (wall, or CPU = user + sys). Shared noisy machines: quote " +
      "medians and ratios, not absolute times",
    start_up: figures,
  };
  writeFileSync(join(root, "bench", "startup.json"), JSON.stringify(results, null, 2) + "\n");
  for (const [name, f] of Object.entries(figures)) {
    console.log(
      `${name.padEnd(22)} wall ${String(f.wall_median_ms).padStart(6)} ms  ${
        String(f.wall_ratio_median).padStart(5)
      }x` +
        `   cpu ${String(f.cpu_median_ms).padStart(6)} ms  ${String(f.cpu_ratio_median).padStart(5)}x` +
        ("target_ratio" in f ? `   (target ${f.target_ratio}x: ${f.within ? "within" : "over"})` : ""),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
