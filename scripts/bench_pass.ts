/**
 * What one `resume` pass over a thousand pending measures costs, reported
 * not asserted: a run of one benchmark with 499 siblings (repeats 1, so
 * 2 × 500 = 1000 measures), dispatched by `measure` to a scheduler scripted
 * in sh (bench/fake_scheduler.sh: every task listed PENDING by `squeue -r`,
 * sacct knowing none), then `resume` of it again and again: each pass reads
 * the one listing, finds every measure pending and parks behind a fresh wake.
 * Measured per pass: CPU (user + sys of the pass and the scheduler scripts it
 * waits for, from GNU time), wall time, and the scheduler calls by verb.
 * Three dispatch shapes, interleaved so each sees the same noise: one array
 * of 1000 tasks, ten arrays of 100 (MaxArraySize 100) and 1000 jobs of their
 * own (`--no-arrays`): the pass should be flat in the number of arrays.
 * With `--against LABEL=BINARY` (an outerloop built from another commit),
 * each shape runs under both binaries, interleaved, side by side. One more
 * pass per binary and shape runs under strace: the run-dir files it opens
 * (opens that succeeded, and of how many distinct files; probes — an
 * access(2), or an open of a file that does not exist — counted apart).
 * Writes bench/pass.json and prints a summary.
 *
 * Usage: deno task build && deno run -A scripts/bench_pass.ts [--passes N] [--against 353cca1=/tmp/base/dist/outerloop]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measurePendingArgv, pendingSetup, SIBLINGS } from "./bench_runs.ts";

const root = join(import.meta.dirname!, "..");
const ownBinary = join(root, "dist", "outerloop");
if (!existsSync(ownBinary)) throw new Error("dist/outerloop is missing: run `deno task build` first");
const passesFlag = process.argv.indexOf("--passes");
const passes = passesFlag > 0 ? Number(process.argv[passesFlag + 1]) : 15;
const againstFlag = process.argv.indexOf("--against");
const against = againstFlag > 0 ? process.argv[againstFlag + 1]!.split("=") : null;
const binaries: { label: string; path: string }[] = [
  ...(against === null ? [] : [{ label: against[0]!, path: against.slice(1).join("=") }]),
  { label: "this tree", path: ownBinary },
];
const strace = ["/usr/bin/strace", "/bin/strace"].find((p) => existsSync(p)) ?? null;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

const work = mkdtempSync(join(tmpdir(), "outerloop-bench-pass-"));
try {
  const setup = pendingSetup(work);

  interface Shape {
    readonly name: string;
    readonly binary: string;
    readonly label: string;
    readonly maxArraySize: number;
    readonly flags: readonly string[];
    readonly runDir: string;
    readonly state: string;
    readonly cpuMs: number[];
    readonly wallMs: number[];
    calls: Record<string, number>;
    files: { opened: number; distinct: number; probed: number } | null;
  }
  const shapes: Shape[] = binaries.flatMap((b, bi) =>
    [
      { name: "one array of 1000", maxArraySize: 1001, flags: [] },
      { name: "10 arrays of 100", maxArraySize: 100, flags: [] },
      { name: "1000 jobs, no arrays", maxArraySize: 1001, flags: ["--no-arrays"] },
    ].map((s, i) => ({
      ...s,
      binary: b.path,
      label: b.label,
      runDir: join(work, "runs", `b${bi}r${i}`),
      state: join(work, `state${bi}-${i}`),
      cpuMs: [],
      wallMs: [],
      calls: {},
      files: null,
    }))
  );

  const env = (s: Shape) => setup.env(s.state, s.maxArraySize);
  /** Runs `argv` under GNU time: exit code, CPU and wall ms. */
  const timed = (s: Shape, argv: readonly string[]) => {
    const out = join(work, "time.out");
    let code = 0;
    try {
      execFileSync("/usr/bin/time", ["-o", out, "-f", "%U %S %e", s.binary, ...argv], { env: env(s), stdio: "pipe" });
    } catch (err) {
      code = (err as { status: number }).status;
    }
    const [user, sys, wall] = readFileSync(out, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
    return { code, cpuMs: (user! + sys!) * 1000, wallMs: wall! * 1000 };
  };
  /** One resume pass under strace: the run dir's files it opened (and probed: opens that found nothing). */
  const filesOpened = (s: Shape) => {
    const trace = join(work, "strace.out");
    try {
      execFileSync(strace!, [
        "-f",
        "-e",
        "trace=open,openat,access,faccessat,faccessat2",
        "-o",
        trace,
        s.binary,
        "resume",
        s.runDir,
      ], {
        env: env(s),
        stdio: "pipe",
      });
    } catch {
      // exit 75: parked
    }
    const paths: string[] = [];
    let probed = 0;
    // strace -f splits a call another thread interrupts: `pid call("path" <unfinished ...>`, then `pid <... call resumed>) = n`
    const open = new Map<string, { call: string; path: string }>();
    const count = (call: string, path: string, result: number) => {
      if (!path.startsWith(s.runDir)) return;
      if (call.startsWith("open") && result >= 0) paths.push(path);
      else probed++;
    };
    for (const line of readFileSync(trace, "utf8").split("\n")) {
      const call = /^([0-9]+) +(open|openat|access|faccessat2?)\((?:[A-Z_0-9]+, )?"([^"]*)"(.*)$/.exec(line);
      if (call !== null) {
        const done = /\) += (-?[0-9]+)/.exec(call[4]!);
        if (done !== null) count(call[2]!, call[3]!, Number(done[1]));
        else if (call[4]!.includes("<unfinished")) open.set(call[1]!, { call: call[2]!, path: call[3]! });
        continue;
      }
      const resumed = /^([0-9]+) +<\.\.\. (\w+) resumed>.*\) += (-?[0-9]+)/.exec(line);
      const was = resumed === null ? undefined : open.get(resumed[1]!);
      if (resumed !== null && was !== undefined) {
        open.delete(resumed[1]!);
        count(was.call, was.path, Number(resumed[3]));
      }
    }
    rmSync(trace, { force: true });
    callsOf(s);
    return { opened: paths.length, distinct: new Set(paths).size, probed };
  };
  const callsOf = (s: Shape) => {
    const log = join(s.state, "calls.log");
    const counts: Record<string, number> = {};
    for (const line of existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) {
      const verb = line.split(" ")[0]!;
      if (verb) counts[verb] = (counts[verb] ?? 0) + 1;
    }
    rmSync(log, { force: true });
    return counts;
  };

  for (const s of shapes) {
    mkdirSync(s.state, { recursive: true });
    const argv = measurePendingArgv(setup, s.runDir, s.flags);
    const m = timed(s, argv);
    if (m.code !== 75) throw new Error(`${s.label}, ${s.name}: measure exited ${m.code}, not 75 (parked)`);
    const dispatch = callsOf(s);
    console.log(
      `${s.label}, ${s.name}: measure dispatched with ${JSON.stringify(dispatch)} in ${round(m.wallMs)} ms wall`,
    );
    if (strace !== null) s.files = filesOpened(s);
  }
  for (let p = 0; p < passes; p++) {
    for (const s of shapes) {
      const r = timed(s, ["resume", s.runDir]);
      if (r.code !== 75) throw new Error(`${s.name}: resume exited ${r.code}, not 75 (still parked)`);
      s.cpuMs.push(r.cpuMs);
      s.wallMs.push(r.wallMs);
      s.calls = callsOf(s);
    }
  }
  const results = {
    date: new Date().toISOString(),
    measures: 2 * (1 + SIBLINGS),
    passes,
    note: "CPU is user + sys of the resume pass and the sh scheduler scripts it waited for (GNU time); " +
      "GNU time's resolution is 10 ms",
    files_note: "run-dir files one resume pass opens (strace: open/openat that succeeded), of how many distinct " +
      "files, and probes (an access(2), or an open of a file that does not exist)",
    binaries: Object.fromEntries(binaries.map((b) => [
      b.label,
      Object.fromEntries(
        shapes.filter((s) => s.label === b.label).map((s) => [s.name, {
          cpu_ms_median: round(median(s.cpuMs)),
          cpu_ms_min: round(Math.min(...s.cpuMs)),
          cpu_ms_max: round(Math.max(...s.cpuMs)),
          wall_ms_median: round(median(s.wallMs)),
          scheduler_calls_per_pass: s.calls,
          files_opened: s.files,
        }]),
      ),
    ])),
  };
  writeFileSync(join(root, "bench", "pass.json"), JSON.stringify(results, null, 2) + "\n");
  for (const [label, byShape] of Object.entries(results.binaries)) {
    for (const [name, r] of Object.entries(byShape)) {
      console.log(
        `${label}, ${name}: resume pass CPU median ${r.cpu_ms_median} ms (${r.cpu_ms_min}–${r.cpu_ms_max}), ` +
          `wall ${r.wall_ms_median} ms, calls ${JSON.stringify(r.scheduler_calls_per_pass)}, files ` +
          JSON.stringify(r.files_opened),
      );
    }
  }
} finally {
  if (process.env["BENCH_KEEP"]) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
