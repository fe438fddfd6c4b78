import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Contract, parseContract } from "../../src/contract/contract.ts";
import { decideLook, type PairedValues } from "../../src/verdict/decide.ts";
import { decideRound, planRound, type RoundDecision } from "../../src/verdict/round.ts";
import { tQuantile } from "../../src/stats/student_t.ts";
import { seededRandom } from "../helpers/seeded_random.ts";

function contract(extra: Record<string, unknown> = {}): Contract {
  return parseContract({ name: "bench", command: "run", metric: "acc", direction: "maximize", ...extra }, "test");
}

describe("decideRound() with one candidate", () => {
  const designs: Record<string, unknown>[] = [
    {},
    { min_effect: 0.5 },
    { repeats: 3 },
    { repeats: 4, max_repeats: 12 },
    { repeats: 1, max_repeats: 6, direction: "minimize" },
    { repeats: 5, max_repeats: 12, confidence: 0.9, siblings: [sibling("mem", 0.5)] },
  ];
  it("is decideLook exactly: the same verdict, numbers, sentences and next batch, look after look", () => {
    const u = seededRandom(7);
    let compared = 0;
    for (const extra of designs) {
      const c = contract({ min_effect: 1, ...extra });
      for (let trial = 0; trial < 40; trial++) {
        const effect = [0, 1, 3, 6][trial % 4]!;
        const values: Record<string, number[]> = { baseline: [], candidate: [] };
        for (const s of c.siblings) [values[`sib-${s.name}-base`], values[`sib-${s.name}-cand`]] = [[], []];
        let next = planRound(c, 1);
        assert.deepEqual(next, {
          kind: "more",
          pairs: c.repeats,
          firstPair: 1,
          arms: [1],
          stage: "confirm",
          fresh: false,
        });
        while (next.kind === "more") {
          for (let p = 0; p < next.pairs; p++) {
            const shared = 100 + 20 * (u() - 0.5);
            values.baseline!.push(shared + 4 * (u() - 0.5));
            values.candidate!.push(shared + effect + 4 * (u() - 0.5));
            for (const s of c.siblings) {
              values[`sib-${s.name}-base`]!.push(50 + u());
              values[`sib-${s.name}-cand`]!.push(50 + u() - 0.2);
            }
          }
          const look = decideLook(c, values);
          const round = decideRound(c, 1, values);
          assert.equal(round.verdict, look.verdict);
          assert.deepEqual(round.reasons, look.reasons);
          assert.deepEqual(round.values, look.values);
          assert.deepEqual(round.deltas, look.deltas);
          assert.deepEqual(round.calls[0]!.estimate, look.benchmark);
          assert.deepEqual(round.calls[0]!.siblings, look.siblings);
          assert.deepEqual(round.winner?.estimate ?? null, look.verdict === "accept" ? look.benchmark : null);
          assert.equal(round.next.kind, look.next.kind);
          if (look.next.kind === "more" && round.next.kind === "more") {
            assert.equal(round.next.pairs, look.next.pairs);
            assert.equal(round.next.firstPair, values.baseline!.length + 1);
          }
          compared++;
          next = round.next;
        }
      }
    }
    assert.ok(compared > 240, `compared ${compared} looks`);
  });

  it("takes a plain number for a one-pair run, as decideLook does", () => {
    const c = contract({ min_effect: 0.5 });
    const round = decideRound(c, 1, { baseline: 10, candidate: 12 });
    assert.deepEqual(round.reasons, [
      "The candidate improved on the baseline by 2, above min_effect 0.5: acc 10 -> 12, delta 2, higher is better.",
    ]);
    assert.equal(round.winner?.arm, 1);
  });
});

function sibling(name: string, tolerance: number) {
  return { name, command: "s", metric: name, direction: "minimize", tolerance };
}

describe("decideRound() screening then confirming (worked by hand)", () => {
  // repeats 4, max_repeats 8: the screen's first part is 2 pairs of every candidate
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });
  // pairs 1–2: improvements [4, 5], [3, 2], [−1, 0]; means 4.5, 2.5, −0.5; every deviation ±½, so the
  // pooled sd is √(1.5/3) = 0.7071 and se = 0.5; candidate 3: −0.5 ≤ 1 − 1·0.5, hopeless; candidate 2:
  // 4.5 − 2.5 = 2 > 1·0.5, behind; candidate 1 alone is left and goes to confirmation on pair 3
  const screen = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13, 22], "candidate-3": [9, 20] };

  it("drops the candidates that cannot win and sends the leader to fresh pairs", () => {
    const d = decideRound(c, 3, screen);
    assert.equal(d.verdict, "inconclusive");
    assert.equal(d.winner, null);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [1], stage: "confirm", fresh: true });
    assert.deepEqual(d.calls.map((x) => [x.arm, x.standing, x.because, x.verdict, x.pairs]), [
      [1, "in-play", null, "inconclusive", 2],
      [2, "dropped", "behind", "inconclusive", 2],
      [3, "dropped", "hopeless", "inconclusive", 2],
    ]);
    assert.deepEqual(d.reasons, [
      "A round of 3 candidates against one baseline, screened then confirmed: the screen chooses at most one " +
      "candidate, which is then judged on fresh pairs alone as a single candidate is, so the chance that a round " +
      "names a winner that does not improve by more than min_effect 1 is at most 2.5%, whatever the true effects.",
      "Screen on pairs 1–2 of candidates 1, 2 and 3 (pooled sd 0.7071, se 0.5 per mean): candidate 1 leads with a " +
      "mean improvement of 4.5; dropped: candidate 2 (mean 2.5, more than 1 se (0.5) behind the leader), " +
      "candidate 3 (mean -0.5, at or below min_effect 1 less 1 se (0.5)).",
      "Next: candidate 1 alone is measured with the baseline on 4 fresh pairs (pairs 3–6), the first batch of its " +
      "confirmation.",
    ]);
  });

  it("judges the leader on the confirmation's pairs alone and names it the winner with their interval", () => {
    // pairs 3–6: improvements 3, 4, 5, 4: mean 4, sd 0.8165; look 1 of 2 at level 1 − 0.05·4/8 = 0.975
    const values = { ...screen, baseline: [10, 20, 10, 10, 10, 10], candidate: [14, 25, 13, 14, 15, 14] };
    const d = decideRound(c, 3, values);
    const half = tQuantile(0.9875, 3) * Math.sqrt(2 / 3) / 2;
    assert.equal(d.verdict, "accept");
    assert.equal(d.next.kind, "final");
    assert.equal(d.winner!.arm, 1);
    assert.deepEqual([d.winner!.firstPair, d.winner!.lastPair, d.winner!.estimate.n], [3, 6, 4]);
    assert.ok(Math.abs(d.winner!.estimate.mean - 4) < 1e-12);
    assert.ok(Math.abs(d.winner!.estimate.lower - (4 - half)) < 1e-9, `lower ${d.winner!.estimate.lower}`);
    assert.equal(d.winner!.estimate.confidence, 0.975);
    const alone = decideLook(c, { baseline: [10, 10, 10, 10], candidate: [13, 14, 15, 14] });
    assert.deepEqual(d.reasons.slice(2), [
      "Candidate 1 wins the round: chosen by the screen on pairs 1–2, it was confirmed on pairs 3–6 alone (fresh " +
      "seeds that did not choose it), and its interval below is theirs.",
      ...alone.reasons,
    ]);
    assert.deepEqual(d.calls.map((x) => [x.arm, x.standing, x.verdict, x.pairs]), [
      [1, "decided", "accept", 6],
      [2, "dropped", "inconclusive", 2],
      [3, "dropped", "inconclusive", 2],
    ]);
    assert.equal(d.deltas["candidate#6"], 4);
    assert.equal(d.values["candidate-3#2"], 20);
  });

  it("screens the candidates still in reach on the rest of the first batch, then keeps the leader", () => {
    // pairs 1–2: improvements [4, 5] and [3, 5]: means 4.5 and 4, se = √(2.5/2)/√2 = 0.79: both in reach
    const first = { baseline: [10, 20], candidate: [14, 25], "candidate-2": [13, 25] };
    const d = decideRound(c, 2, first);
    assert.deepEqual(d.next, { kind: "more", pairs: 2, firstPair: 3, arms: [1, 2], stage: "screen", fresh: false });
    assert.match(d.reasons[2]!, /^Next: pairs 3–4 screen candidates 1 and 2\.$/);
    // pairs 3–4: candidate 2 improves by 6 and 6, candidate 1 by 1 and 1: means over 4 pairs 2.75 and 5
    const second = { baseline: [10, 20, 10, 10], candidate: [14, 25, 11, 11], "candidate-2": [13, 25, 16, 16] };
    const e = decideRound(c, 2, second);
    assert.deepEqual(e.next, { kind: "more", pairs: 4, firstPair: 5, arms: [2], stage: "confirm", fresh: true });
    assert.equal(e.calls[0]!.standing, "dropped");
    assert.match(
      e.reasons[2]!,
      /^Screen on pairs 3–4 of candidates 1 and 2 .*candidate 2 leads with a mean improvement of 5; dropped: candidate 1 \(mean 2\.75, /,
    );
  });

  it("ends without a winner when the screen leaves no candidate, rejecting those that did not improve", () => {
    const d = decideRound(c, 2, { baseline: [10, 20], candidate: [0, 9], "candidate-2": [9.5, 19] });
    assert.equal(d.next.kind, "final");
    assert.equal(d.winner, null);
    assert.deepEqual(d.calls.map((x) => [x.because, x.verdict]), [["hopeless", "reject"], [
      "hopeless",
      "inconclusive",
    ]]);
    assert.equal(d.verdict, "inconclusive");
  });

  it("refuses values that are not what the round asked for", () => {
    assert.throws(() => decideRound(c, 3, { ...screen, "candidate-2": [13, 22, 30] }), TypeError);
    assert.throws(() => decideRound(c, 3, { ...screen, baseline: [10] }), RangeError);
    assert.throws(() => decideRound(c, 3, { ...screen, "candidate-4": [1, 2] }), TypeError);
    const partial = { ...screen, baseline: [10, 20, 10], candidate: [14, 25, 13] };
    assert.throws(() => decideRound(c, 3, partial), RangeError);
    assert.throws(() => decideRound(c, 0, screen), RangeError);
  });
});

describe("decideRound() with siblings", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8, siblings: [sibling("mem", 0.5)] });
  // pairs 1–2 of 2 candidates: candidate 1 leads on the benchmark (10, 10) but its sibling "mem" (lower is
  // better) got worse by 1 and 1, beyond tolerance 0.5; candidate 2 improves by 3 and 4 with "mem" unchanged
  const screen = {
    baseline: [100, 100],
    candidate: [110, 110],
    "candidate-2": [103, 104],
    "sib-mem-base": [50, 50],
    "sib-mem-cand": [51, 51],
    "sib-mem-cand-2": [50, 50],
  };

  it("drops a candidate whose sibling fell beyond tolerance in the screen, and confirms the next", () => {
    const d = decideRound(c, 2, screen);
    assert.deepEqual(d.calls.map((x) => [x.because, x.verdict]), [["sibling", "reject"], [null, "inconclusive"]]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [2], stage: "confirm", fresh: true });
    assert.match(d.reasons[1]!, /candidate 1 \(mean 10, sibling "mem" worse than tolerance\)/);
  });

  it("rejects the confirmed candidate when its sibling regresses on the fresh pairs, with no winner", () => {
    const values = {
      ...screen,
      baseline: [100, 100, 100, 100, 100, 100],
      "candidate-2": [103, 104, 103, 104, 103, 104],
      "sib-mem-base": [50, 50, 50, 50, 50, 50],
      "sib-mem-cand-2": [50, 50, 53, 53.5, 53, 53.5],
    };
    const d = decideRound(c, 2, values);
    assert.equal(d.winner, null);
    assert.equal(d.verdict, "reject");
    assert.deepEqual([d.calls[1]!.because, d.calls[1]!.pairs, d.calls[1]!.siblings.mem?.standing], [
      "sibling-regressed",
      6,
      "regressed",
    ]);
  });
});

describe("decideRound() simultaneous procedures", () => {
  const c = contract({ min_effect: 1, repeats: 4, max_repeats: 8 });
  const values: PairedValues = {
    baseline: [10, 20, 30, 40],
    candidate: [20, 30, 40, 51],
    "candidate-2": [10, 21, 29, 40],
  };
  for (const procedure of ["bonferroni", "dunnett"] as const) {
    it(`${procedure}: accepts a clear winner at the first look; the other ends by its own look rule`, () => {
      const d: RoundDecision = decideRound(c, 2, values, { procedure });
      assert.equal(d.procedure, procedure);
      assert.equal(d.winner?.arm, 1);
      assert.equal(d.next.kind, "final");
      assert.deepEqual(d.calls.map((x) => [x.because, x.standing]), [["accepted", "decided"], ["futile", "decided"]]);
      assert.ok(d.winner!.estimate.confidence > 0.975, "a simultaneous interval is wider than one look's");
    });
  }
  it("plans every candidate on the contract's first batch", () => {
    assert.deepEqual(planRound(c, 3, { procedure: "dunnett" }), {
      kind: "more",
      pairs: 4,
      firstPair: 1,
      arms: [1, 2, 3],
      stage: "simultaneous",
      fresh: false,
    });
  });
});

describe("decideRound() with guards and a relative min_effect", () => {
  const c = contract({
    min_effect: "2%",
    repeats: 4,
    max_repeats: 8,
    guards: [{ metric: "size", direction: "minimize", tolerance: "1%" }],
  });
  // pairs 1–2: candidate 1 leads (×1.10) but its size grew 5%, beyond the 1% tolerance; candidate 2 gains ×1.05
  const screen = {
    baseline: [100, 100],
    candidate: [110, 110],
    "candidate-2": [105, 105.5],
    "guard-size-base": [50, 50],
    "guard-size-cand": [52.5, 52.5],
    "guard-size-cand-2": [50, 50],
  };

  it("drops a candidate whose guard fell beyond tolerance in the screen, naming the guard", () => {
    const d = decideRound(c, 2, screen);
    assert.deepEqual(d.calls.map((x) => [x.because, x.verdict]), [["sibling", "reject"], [null, "inconclusive"]]);
    assert.deepEqual(d.next, { kind: "more", pairs: 4, firstPair: 3, arms: [2], stage: "confirm", fresh: true });
    assert.match(d.reasons[1]!, /candidate 1 \(mean 0\.09531, guard "size" worse than tolerance\)/);
    assert.match(d.reasons[1]!, /means of the log ratio, as min_effect is relative/);
    assert.ok(Math.abs(d.calls[1]!.screen!.relative!.mean - Math.sqrt(1.05 * 1.055)) < 1e-12);
  });

  it("confirms the leader with its guard on the fresh pairs, and keeps the guard's estimate", () => {
    const values = {
      ...screen,
      baseline: [100, 100, 100, 100, 100, 100],
      "candidate-2": [105, 105.5, 105, 105.5, 105.2, 105.3],
      "guard-size-base": [50, 50, 50, 50, 50, 50],
      "guard-size-cand-2": [50, 50, 50, 50.1, 49.9, 50],
    };
    const d = decideRound(c, 2, values);
    assert.equal(d.verdict, "accept");
    assert.equal(d.winner!.arm, 2);
    assert.equal(d.calls[1]!.guards!.size!.standing, "held");
    assert.ok(d.winner!.estimate.relative!.lower > 1.02);
    assert.equal(d.values["guard-size-cand-2#6"], 50);
    assert.ok("guard-size-cand-2#6" in d.deltas);
  });

  it("refuses a guard the contract does not have", () => {
    assert.throws(() => decideRound(c, 2, { ...screen, "guard-mem-base": [1, 1] }), /not one of a round/);
  });

  it("is refused by the simulation's simultaneous procedures", () => {
    assert.throws(() => decideRound(c, 2, screen, { procedure: "bonferroni" }), /absolute thresholds/);
  });
});
