/**
 * The measurer's own share of a pass, in process: one look over a thousand
 * measures whose jobs one listing shows queued (the `resume` pass of
 * scripts/bench_pass.ts, without the process start, the run record and the
 * rest of the pass), timed over many looks. With `--against DIR` (a source
 * tree of another commit, e.g. `git archive 353cca1 | tar -x -C DIR`), the
 * same look by that tree's measurer, interleaved. Prints ms per look and
 * writes bench/look.json.
 *
 * Usage: deno run -A scripts/bench_look.ts [--looks N] [--against DIR --label NAME]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const arg = (flag: string) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const looks = Number(arg("--looks") ?? 20);
const trees = [
  ...(arg("--against") === undefined ? [] : [{ label: "against", root: arg("--against")! }]),
  { label: "this tree", root: join(import.meta.dirname!, "..") },
];
const N = 1000;

interface Tree {
  label: string;
  run: () => Promise<void>;
  ms: number[];
}
const work = mkdtempSync(join(tmpdir(), "outerloop-bench-look-"));
try {
  const prepared: Tree[] = [];
  for (const [i, t] of trees.entries()) {
    const { testMeasurer } = await import(join(t.root, "tests/helpers/run_fixture.ts"));
    const { FakeCompute } = await import(join(t.root, "tests/helpers/fake_compute.ts"));
    const { MeasurementPending } = await import(join(t.root, "src/measure/pending.ts"));
    const compute = new FakeCompute();
    // a fresh measurer and fresh measures each look, as each resume process builds them
    const fresh = () => testMeasurer(join(work, `r${i}`), compute, { arrays: { enabled: true, throttle: null } });
    const plan = () =>
      Array.from({ length: N }, (_, k) => ({
        name: `sib-s${k}-${k % 2 === 0 ? "base" : "cand"}`,
        treeSha: (k % 2 === 0 ? "a" : "b").repeat(40),
        command: "sh b.sh",
        metric: "s",
        extraEnv: [],
        gpus: 0,
      }));
    const pass = async () => {
      try {
        await fresh().results(plan());
      } catch (err) {
        if (!(err instanceof MeasurementPending)) throw err;
      }
    };
    await pass(); // dispatches one array of 1000
    const arrayName = compute.arrays[0].spec.jobName;
    compute.live = new Map([[arrayName, Array.from({ length: N }, (_, k) => `1000_${k}`)]]);
    prepared.push({ label: t.label, run: pass, ms: [] });
  }
  for (let l = 0; l < looks; l++) {
    for (const t of prepared) {
      const start = performance.now();
      await t.run();
      t.ms.push(performance.now() - start);
    }
  }
  const out: Record<string, { median_ms: number; min_ms: number }> = {};
  for (const t of prepared) {
    const sorted = [...t.ms].sort((a, b) => a - b);
    const label = t.label === "against" ? arg("--label") ?? "against" : t.label;
    out[label] = { median_ms: Number(sorted[sorted.length >> 1]!.toFixed(1)), min_ms: Number(sorted[0]!.toFixed(1)) };
    console.log(
      `${label}: one look over ${N} queued measures, median ${out[label].median_ms} ms (min ${out[label].min_ms})`,
    );
  }
  writeFileSync(
    join(import.meta.dirname!, "..", "bench", "look.json"),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        runtime: "Bun" in globalThis ? "bun" : "deno",
        measures: N,
        looks,
        looks_ms: out,
      },
      null,
      2,
    ) + "\n",
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
