import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  coveringTests,
  isLive,
  plan,
  runsAlone,
  runtimeCoverage,
  testFiles,
  touchesRuntime,
} from "../../scripts/test_plan.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const all = testFiles(["tests/"]);
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");
const groups = (p: ReturnType<typeof plan>) => Object.values(p).flat();

describe("which files run under both runtimes", () => {
  it("every module that touches the process, the file system or the clock has a test Bun runs too", () => {
    const underBun = new Set(groups(plan("bun", all, {})));
    const uncovered = [...runtimeCoverage()].filter(([, tests]) => !tests.some((t) => underBun.has(t)));
    assert.deepEqual(uncovered.map(([m]) => m), [], "modules with no test under both runtimes");
    assert.ok(runtimeCoverage().has("src/runtime/spawn.ts"));
  });

  it("Deno runs every file; Bun the scenario folders and what covers such a module, not pure logic", () => {
    assert.deepEqual(groups(plan("deno", all, {})).sort(), all);
    const bun = groups(plan("bun", all, {}));
    for (const f of ["tests/runtime/spawn_test.ts", "tests/e2e/binary_test.ts", "tests/slurm/array_live_test.ts"]) {
      assert.ok(bun.includes(f), f);
    }
    assert.ok(!bun.includes("tests/stats/student_t_test.ts"), "the statistics are the same JavaScript under both");
    assert.deepEqual(groups(plan("bun", all, { OUTERLOOP_TEST_BOTH: "all" })).sort(), all);
  });

  it("runs the live suites only under OUTERLOOP_LIVE_RUNTIMES", () => {
    const live = (rt: string, env: Record<string, string>) => groups(plan(rt, all, env)).filter(isLive);
    assert.ok(live("deno", {}).length > 20);
    assert.deepEqual(live("bun", { OUTERLOOP_LIVE_RUNTIMES: "deno" }), []);
    assert.deepEqual(live("bun", { OUTERLOOP_LIVE_RUNTIMES: "bun" }), live("deno", {}));
  });

  it("reads what touches the runtime from code, not comments", () => {
    assert.equal(touchesRuntime("src/a.ts", 'import { readFileSync } from "node:fs";'), true);
    assert.equal(touchesRuntime("src/a.ts", "const t = Date.now();"), true);
    assert.equal(touchesRuntime("src/a.ts", "// process.exit is the caller's\nexport const x = 1;"), false);
    assert.equal(touchesRuntime("src/runtime/x.ts", "export const x = 1;"), true);
    assert.equal(touchesRuntime("src/runtime/x.ts", "/** docs */\nexport interface A { f(): () => void }"), false);
    assert.deepEqual(
      coveringTests("src/a/b.ts", "// Tested by tests/c/d_test.ts and tests/e_test.ts", () => true),
      ["tests/a/b_test.ts", "tests/c/d_test.ts", "tests/e_test.ts"],
    );
  });
});

describe("which files run one by one", () => {
  it("marks every file that stops a daemon, drains a node, or changes the process's environment or directory", () => {
    const disturbs =
      /\btestbed\("stop"|\bgeTestbed\("stop"|state=drain|process\.chdir\(|process\.env\[[^\]]+\] = |process\.env\.[A-Z_]+ = /;
    const unmarked = all.filter((f) =>
      f !== "tests/scripts/test_plan_test.ts" && disturbs.test(read(f)) && !runsAlone(read(f))
    );
    assert.deepEqual(unmarked, [], "add a line `// test.sh: alone — it …` saying why");
    assert.equal(runsAlone("// test.sh: alone — it stops slurmctld\nimport x;"), true);
    assert.equal(runsAlone("/** test.sh: alone? no */"), false);
  });
});
