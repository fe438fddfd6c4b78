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
 * tests in it.
 *
 * Usage: deno run -A scripts/count_junit.ts [--slowest N] REPORT.xml...
 */
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const slowestAt = args.indexOf("--slowest");
const slowest = slowestAt < 0 ? 0 : Number(args.splice(slowestAt, 2)[1]);
const xmls = args.map((f) => readFileSync(f, "utf8"));
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
  // deno: a top-level test's classname is its file
  for (const c of cases) if (c.classname.startsWith("./")) add(c.classname.slice(2), c.seconds);
  return [...times].sort((a, b) => b[1] - a[1]);
}

function decode(s: string): string {
  return s.replaceAll("&gt;", ">").replaceAll("&lt;", "<").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}
