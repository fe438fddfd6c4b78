import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { decideLook } from "../../src/verdict/decide.ts";
import { EvalError } from "../../src/dispatch/eval_error.ts";
import { guardName } from "../../src/measure/measure_name.ts";
import { normal, seededRandom } from "../helpers/seeded_random.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "t", direction: "minimize", ...extra }, "test");
}
const close = (a: number, b: number, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

describe("decideLook() with a relative min_effect", () => {
  it("accepts when the log ratio's lower end clears log(1.02), and says the scale", () => {
    const c = contract({ min_effect: "2%", repeats: 4 });
    const d = decideLook(c, { baseline: [10, 10, 10, 10], candidate: [9.0, 9.1, 8.9, 9.05] });
    assert.equal(d.verdict, "accept");
    assert.match(
      d.reasons[0]!,
      /above min_effect 2% \(relative: a factor of 1\.02 in the direction's favour, judged on the log ratio\)/,
    );
    assert.match(d.reasons[0]!, /t candidate\/baseline ratio 0\.90\d* over 4 pairs \(geometric mean; 95% CI/);
  });

  it("holds a 1.5% speed-up inconclusive under a 2% min_effect that an absolute 0.1 accepts", () => {
    const v = { baseline: [10, 10, 10, 10], candidate: [9.85, 9.86, 9.84, 9.85] };
    assert.equal(decideLook(contract({ min_effect: "2%", repeats: 4 }), v).verdict, "inconclusive");
    assert.equal(decideLook(contract({ min_effect: 0.1, repeats: 4 }), v).verdict, "accept");
  });

  it("agrees with an absolute min_effect meaning the same change, on a single pair", () => {
    // baseline 10: a factor of 1.25 in the direction's favour is a time of 8, a saving of 2
    for (const cand of [7.9, 8.1, 10, 10.5]) {
      const rel = decideLook(contract({ min_effect: "25%" }), { baseline: 10, candidate: cand });
      const abs = decideLook(contract({ min_effect: 2 }), { baseline: 10, candidate: cand });
      assert.equal(rel.verdict, abs.verdict, `candidate ${cand}`);
    }
    const d = decideLook(contract({ min_effect: "25%" }), { baseline: 10, candidate: 7.9 });
    assert.match(
      d.reasons[0]!,
      /^The candidate improved on the baseline by a factor of 1\.26\d*, above min_effect 25%/,
    );
  });

  it("refuses to judge a relative threshold on a value at or below 0 (EvalError, naming the measure)", () => {
    assert.throws(
      () => decideLook(contract({ min_effect: "2%", repeats: 2 }), { baseline: [1, 0], candidate: [1, 1] }),
      (e: unknown) =>
        e instanceof EvalError && /"baseline" and "candidate"/.test(e.message) && /above 0/.test(e.message),
    );
  });

  it("reports a null relative figure for a metric that reaches 0, and still decides on an absolute one", () => {
    const d = decideLook(contract({ repeats: 2, direction: "maximize" }), { baseline: [0, 1], candidate: [1, 2] });
    assert.equal(d.benchmark.relative, null);
    assert.equal(d.verdict, "accept");
  });

  it("gives t minimized and 1/t maximized one verdict, one outcome and mirrored relative intervals", () => {
    const random = seededRandom(22);
    for (let trial = 0; trial < 150; trial++) {
      const repeats = 2 + Math.floor(random() * 4);
      const maxRepeats = repeats * (1 + Math.floor(random() * 3));
      const effect = [0, 0.02, 0.05][trial % 3]!;
      const minEffect = ["0%", "1%", "2%"][Math.floor(random() * 3)]!;
      const base: number[] = [];
      const cand: number[] = [];
      const draw = () => {
        const seed = 100 * Math.exp(0.2 * normal(random));
        base.push(seed * Math.exp(0.02 * normal(random)) * (random() < 0.1 ? 3 : 1));
        cand.push(seed / (1 + effect) * Math.exp(0.02 * normal(random)) * (random() < 0.1 ? 3 : 1));
      };
      const keys = { min_effect: minEffect, repeats, max_repeats: maxRepeats };
      const tc = contract(keys);
      const rc = contract({ ...keys, direction: "maximize", metric: "rate" });
      for (let i = 0; i < repeats; i++) draw();
      for (;;) {
        const t = decideLook(tc, { baseline: base, candidate: cand });
        const r = decideLook(rc, { baseline: base.map((x) => 1 / x), candidate: cand.map((x) => 1 / x) });
        assert.deepEqual([r.verdict, r.outcome, r.next], [t.verdict, t.outcome, t.next], `trial ${trial}`);
        const a = t.benchmark.relative!, b = r.benchmark.relative!;
        assert.ok(close(a.mean, 1 / b.mean) && close(a.lower, 1 / b.upper) && close(a.upper, 1 / b.lower));
        if (t.next.kind === "final") break;
        for (let i = 0; i < t.next.pairs; i++) draw();
      }
    }
  });
});

describe("decideLook() with guards read from the benchmark's own result", () => {
  const guarded = (tolerance: number | string, extra: Record<string, unknown> = {}) =>
    contract({ repeats: 4, guards: [{ metric: "size", direction: "minimize", tolerance }], ...extra });
  const base = [10, 10, 10, 10];
  const faster = [9, 9.1, 8.9, 9.05];
  const size = (cand: number[]) => ({ [guardName("size", 0)]: [100, 100, 100, 100], [guardName("size", 1)]: cand });

  it("accepts when the guard held within its tolerance, with its estimate and sentence", () => {
    const d = decideLook(guarded("1%"), { baseline: base, candidate: faster, ...size([100, 100.2, 99.9, 100.1]) });
    assert.equal(d.verdict, "accept");
    assert.equal(d.guards.size!.standing, "held");
    assert.ok(d.guards.size!.relative !== null);
    assert.match(d.reasons[1]!, /^Guard "size" held within its tolerance 1% \(relative/);
    assert.deepEqual(Object.keys(d.values).filter((k) => k.startsWith("guard-")).slice(0, 2), [
      "guard-size-base",
      "guard-size-cand",
    ]);
    assert.ok("guard-size-cand#2" in d.deltas);
  });

  it("rejects a candidate whose guard regressed beyond its tolerance, naming the guard", () => {
    const d = decideLook(guarded(0.5), { baseline: base, candidate: faster, ...size([103, 103.1, 102.9, 103]) });
    assert.equal(d.verdict, "reject");
    assert.equal(d.outcome, "sibling-regressed");
    assert.match(d.reasons[0]!, /but is rejected: guard "size" regressed/);
    assert.match(d.reasons[1]!, /^Guard "size" regressed beyond its tolerance 0\.5/);
  });

  it("holds an accept back while the guard may have regressed", () => {
    const d = decideLook(guarded("1%", { max_repeats: 8 }), {
      baseline: base,
      candidate: faster,
      ...size([99, 101.5, 100, 100.5]),
    });
    assert.equal(d.guards.size!.standing, "unsure");
    assert.deepEqual([d.outcome, d.next], ["sibling-unsure", { kind: "more", pairs: 4 }]);
    assert.match(d.reasons[0]!, /guard "size" may have regressed beyond tolerance/);
  });

  it("names a sibling and a guard together", () => {
    const c = contract({
      repeats: 4,
      guards: [{ metric: "size", direction: "minimize", tolerance: 0 }],
      siblings: [{ name: "lat", command: "x", metric: "ms", direction: "minimize", tolerance: 0 }],
    });
    const d = decideLook(c, {
      baseline: base,
      candidate: faster,
      ...size([103, 103.1, 102.9, 103]),
      "sib-lat-base": base,
      "sib-lat-cand": [11, 11.1, 10.9, 11],
    });
    assert.match(d.reasons[0]!, /rejected: sibling "lat" and guard "size" regressed/);
  });

  it("needs the guard's series (a TypeError naming the measure, a caller bug)", () => {
    assert.throws(() => decideLook(guarded(0), { baseline: base, candidate: faster }), /"guard-size-base"/);
  });
});

describe("decideLook() futilityVeto", () => {
  it("median: no futility stop while the median pair clears min_effect; none: the prediction alone", () => {
    // a stall on each side among three pairs (+13.7, -9.9 around a clean +1.45): the sd is so large that the
    // prediction calls it futile; the median pair is +1.45, above min_effect 0
    const c = parseContract(
      { name: "b", command: "r", metric: "acc", direction: "maximize", repeats: 3, max_repeats: 9 },
      "test",
    );
    const v = { baseline: [10, 10, 10], candidate: [23.69, 0.13, 11.45] };
    const none = decideLook(c, v, { futilityVeto: "none" });
    assert.equal(none.outcome, "futile");
    const veto = decideLook(c, v, { futilityVeto: "median" });
    assert.deepEqual([veto.outcome, veto.next], ["undecided", { kind: "more", pairs: 3 }]);
    // the default is the prediction alone (bench/verdict_stalls.json)
    assert.equal(decideLook(c, v).outcome, "futile");
  });
});
