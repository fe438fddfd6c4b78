/**
 * Counts leaf tests in a JUnit XML report from `deno test --junit-path` or
 * `bun test --reporter=junit`, and prints `N passed, N failed, N skipped`,
 * then a `failed: FILE > NAME` line for each failed test (CI keeps only the
 * tail of its log: these name what failed there).
 * Deno lists each describe() as a test and its it() calls again as
 * "parent > child" steps; only leaves are counted, so the two runtimes agree.
 *
 * Usage: deno run -A scripts/count_junit.ts REPORT.xml
 */
import { readFileSync } from "node:fs";

const xml = readFileSync(process.argv[2] ?? "", "utf8");
const cases = [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({
  name: decode(/\bname="([^"]*)"/.exec(m[1] ?? "")?.[1] ?? ""),
  classname: decode(/\bclassname="([^"]*)"/.exec(m[1] ?? "")?.[1] ?? ""),
  file: decode(/\bfile="([^"]*)"/.exec(m[1] ?? "")?.[1] ?? ""), // bun's; deno's is in classname
  body: m[3] ?? "",
}));
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

function decode(s: string): string {
  return s.replaceAll("&gt;", ">").replaceAll("&lt;", "<").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}
