/**
 * Counts leaf tests in JUnit XML reports from `deno test --junit-path` or
 * `bun test --reporter=junit` (one runtime's, one or more runs of it), and
 * prints `N passed, N failed, N skipped`, then a `failed: FILE > NAME` line
 * for each failed test (CI keeps only the tail of its log: these name what
 * failed there), then `time: SECONDS FILE` for the slowest files, slowest
 * first (`--slowest N`, default 0).
 * Deno lists each describe() as a test and its it() calls again as
 * "parent > child" steps; only leaves are counted, so the two runtimes agree.
 * A file's time is bun's per-file suite time, or the sum of deno's top-level
 * tests in it, read from deno's own output (`RUN.log`) when given: deno's
 * report names a test declared by a helper (liveIt) by the helper's file.
 *
 * Usage: deno run -A scripts/count_junit.ts [--slowest N] REPORT.xml... [DENO_OUTPUT.log...]
 */
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const slowestAt = args.indexOf("--slowest");
const slowest = slowestAt < 0 ? 0 : Number(args.splice(slowestAt, 2)[1]);
// deno's own output, where a test declared in a helper (liveIt) is still named by its file
const logs = args.filter((f) => f.endsWith(".log")).map((f) => readFileSync(f, "utf8"));
const xmls = args.filter((f) => !f.endsWith(".log")).map((f) => readFileSync(f, "utf8"));
const attr = (name: string, attrs: string) => decode(new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? "");
const cases = xmls.flatMap((xml) =>
  [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({
    name: attr("name", m[1] ?? ""),
    classname: attr("classname", m[1] ?? ""),
    file: attr("file", m[1] ?? ""), // bun's; deno's is in classname
    seconds: Number(attr("time", m[1] ?? "")) || 0,
    body: m[3] ?? "",
  }))
);
const fullName = (c: { name: string; classname: string }) =>
  c.classname.startsWith("ext:") || c.classname.startsWith("./") || c.classname.endsWith(".ts")
    ? c.name
    : `${c.classname} > ${c.name}`;
const names = cases.map(fullName);
const leaves = cases.filter((c) => !names.some((n) => n.startsWith(fullName(c) + " > ")));
const failures = leaves.filter((c) => /<failure|<error/.test(c.body));
const failed = failures.length;
const skipped = leaves.filter((c) => /<skipped/.test(c.body)).length;
console.log(`${leaves.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
for (const c of failures) {
  // deno names the file only for a top-level test; a step's classname is its runner's module
  const where = c.file || (c.classname.startsWith("./") ? c.classname : "");
  console.log(`failed: ${where ? `${where} > ` : ""}${c.name}`);
}
for (const [file, seconds] of fileTimes().slice(0, slowest)) console.log(`time: ${seconds.toFixed(1)} s ${file}`);

/** Each file's time, slowest first. */
function fileTimes(): [string, number][] {
  const times = new Map<string, number>();
  const add = (file: string, s: number) => times.set(file, (times.get(file) ?? 0) + s);
  for (const xml of xmls) {
    // bun: a top-level suite per file (indented two spaces), with its time
    for (const m of xml.matchAll(/^ {2}<testsuite\b([^>]*)>/gm)) {
      const file = attr("file", m[1] ?? "");
      if (file !== "") add(file, Number(attr("time", m[1] ?? "")) || 0);
    }
  }
  if (logs.length > 0) {
    // deno --parallel: `./FILE => NAME ... ok (1m 2s)` for a top-level test (a step has a second " ... ")
    const unit = { ms: 1e-3, "µs": 1e-6, s: 1, m: 60, h: 3600 } as Record<string, number>;
    const line = /^\.\/(\S+) => (.*) \.\.\. (?:ok|FAILED|ignored)\b.*\(([^)]*)\)\s*$/;
    for (const text of logs) {
      for (const raw of text.split("\n")) {
        const m = line.exec(plain(raw));
        if (m === null || m[2]!.includes(" ... ")) continue;
        add(
          m[1]!,
          [...m[3]!.matchAll(/([\d.]+)(ms|µs|s|m|h)\b/g)].reduce((t, [, n, u]) => t + Number(n) * unit[u!]!, 0),
        );
      }
    }
  } else {
    // deno: a top-level test's classname is its file (or the helper that declared it)
    for (const c of cases) if (c.classname.startsWith("./")) add(c.classname.slice(2), c.seconds);
  }
  return [...times].sort((a, b) => b[1] - a[1]);
}

function decode(s: string): string {
  return s.replaceAll("&gt;", ">").replaceAll("&lt;", "<").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** `s` without its colours (deno writes them through a pipe too). */
function plain(s: string): string {
  const esc = String.fromCharCode(27);
  return s.split(esc).map((part, i) => i === 0 ? part : part.replace(/^\[[0-9;]*m/, "")).join("");
}
