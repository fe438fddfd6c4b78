import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseMeasureName } from "../../../src/measure/measure_name.ts";
import { cli } from "../../helpers/cli.ts";
import { armSha, roundCase, roundRun } from "../../helpers/seeded_round.ts";
import { textCell } from "../../helpers/surface_read.ts";
import { tempDir } from "../../helpers/temp.ts";

/**
 * The commands on a round (K candidates against one baseline), in process:
 * the round's exit codes through `resume` and `wait`, `resume --json`'s
 * winner and candidates, and `show` / `runs` of a round still open — which
 * candidates are in play, which the screen dropped, what it measures now.
 */

// deno-lint-ignore no-explicit-any -- the parsed --json output
type Json = any;

/** A winner (candidate-2, far ahead), every candidate rejected, and neither (nothing clears min_effect). */
const WINNER = roundCase(11, { k: 3, effects: [0, 4, -1], sibling: false, direction: "minimize", repeats: 4 });
const REJECTED = roundCase(12, { k: 2, effects: [-40, -40], sibling: false, direction: "maximize", repeats: 4 });
const NEITHER = roundCase(13, { k: 2, effects: [0, 0], sibling: false, direction: "maximize", repeats: 4 });

describe("resume and wait on a decided round", () => {
  for (
    const [what, c, code, verdict] of [
      ["a winner", WINNER, 0, "accept"],
      ["every candidate rejected", REJECTED, 10, "reject"],
      ["no winner otherwise", NEITHER, 11, "inconclusive"],
    ] as const
  ) {
    it(`exit ${code} for ${what}, with the winner and every candidate's verdict in --json`, async () => {
      const { dir, compute } = await roundRun(c, tempDir("round-exit-"));
      const d: Json = JSON.parse(readFileSync(dir.decision, "utf8"));
      assert.equal(d.verdict, verdict, "the case is what it says");
      for (const args of [["resume", dir.path, "--json"], ["wait", dir.path, "--json"]]) {
        const run = await cli(args, { compute });
        assert.equal(run.code, code, `${args[0]}: ${run.stderr}`);
        const j: Json = JSON.parse(run.stdout);
        assert.equal(j.verdict, verdict, args[0]);
        if (verdict === "accept") {
          assert.equal(j.winner.arm, 2, args[0]);
          assert.equal(j.winner.sha, armSha(2), args[0]);
          assert.equal(j.winner.ref, "c2", args[0]);
          assert.deepEqual(j.winner.estimate, d.round.winner.estimate, args[0]);
          assert.deepEqual(j.improvement.mean, d.round.winner.estimate.mean, `${args[0]}: the winner's improvement`);
          assert.equal(j.candidate_sha, armSha(2), `${args[0]}: the commit to merge is the winner's`);
        } else {
          assert.equal(j.winner, null, args[0]);
          assert.equal(j.candidate_sha, null, `${args[0]}: no winner, no commit to merge`);
          assert.equal(j.improvement, null, `${args[0]}: no winner, no improvement`);
        }
        assert.deepEqual(j.candidates.map((x: Json) => x.verdict), d.round.candidates.map((x: Json) => x.verdict));
        assert.deepEqual(j.candidates.map((x: Json) => x.sha), d.round.candidates.map((x: Json) => x.sha));
      }
      // without --json: the candidates' table beside the verdict
      const text = await cli(["resume", dir.path], { compute });
      assert.equal(text.code, code);
      assert.match(text.stdout, /^round of \d candidates against one baseline, \d+ pairs:$/m);
      assert.match(text.stdout, verdict === "accept" ? /^winner: candidate-2 \(c2, c{10}\)/m : /^no winner: /m);
    });
  }
});

describe("show on a decided round", () => {
  it("lists the baseline and every candidate with its ref, sha, state, intervals and verdict, and names the winner", async () => {
    const { dir, compute } = await roundRun(WINNER, tempDir("round-show-"));
    const d: Json = JSON.parse(readFileSync(dir.decision, "utf8"));
    const out = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(out, /^run .*: toy, base a{12} vs 3 candidates \(a round\)$/m);
    const table = out.slice(out.indexOf("\narm ") + 1);
    const lines = table.split("\n");
    assert.match(lines[1]!, /^baseline +main +a{12} +measured on pairs 1–\d+$/);
    d.round.candidates.forEach((c: Json, i: number) => {
      const line = i + 2;
      assert.equal(textCell(table, line, "ref", "left"), `c${i + 1}`);
      assert.equal(textCell(table, line, "sha", "left"), c.sha.slice(0, 12));
      assert.equal(textCell(table, line, "verdict", "left"), c.verdict);
      const state = textCell(table, line, "state", "left");
      if (c.standing === "dropped") assert.match(state, new RegExp(`^dropped at pair ${c.pairs}: \\S`), state);
      else assert.equal(state, "decided: winner");
      assert.match(textCell(table, line, "screen (improvement)", "left"), /, n = \d+ \(pairs? 1(–\d+)?\)$/);
      const confirmation = textCell(table, line, "confirmation (improvement)", "left");
      assert.equal(confirmation === "", c.estimate === null, `only the screen's choice has a confirmation`);
    });
    assert.match(out, /^winner: candidate-2 \(c2, c{10}\), improvement \(positive = better\) /m);
    assert.match(out, /fresh pairs that did not choose it$/m);
  });

  it("says why there is no winner", async () => {
    const { dir, compute } = await roundRun(REJECTED, tempDir("round-none-"));
    const out = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(out, /^no winner: every candidate was rejected$/m);
  });
});

describe("show and runs on an open round", () => {
  it("say which candidates are still in play, which the screen dropped, and what the round measures now", async () => {
    const c = WINNER;
    // the screen's pairs finish, the confirmation's jobs stay queued: the round parks on them
    const hold = (m: string) => parseMeasureName(m)!.pair > 2;
    const root = tempDir("round-open-");
    const { dir, compute } = await roundRun(c, root, { passes: 1, hold });
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.equal(j.state, "parked");
    assert.equal(j.verdict, null);
    assert.equal(j.round.open, true);
    assert.equal(j.round.winner, null);
    assert.equal(j.candidate_sha, null, "an open round has no commit to merge yet");
    assert.equal(j.round.n, 2, "the screen's first pairs are complete");
    assert.deepEqual(j.round.next, {
      stage: "confirm",
      first_pair: 3,
      last_pair: 2 + c.repeats,
      arms: [2],
    });
    assert.deepEqual(j.round.candidates.map((x: Json) => x.standing), ["dropped", "in-play", "dropped"]);
    assert.ok(j.round.candidates.every((x: Json) => x.screen !== null && x.estimate === null));
    const out = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(out, /^round of 3 candidates against one baseline, \d+ pairs so far:$/m);
    assert.match(out, /^candidate-2 +c2 +c{12} +in play +\S/m);
    assert.match(out, /^open: \d+ pairs complete; in play: candidate-2; confirming candidate-2 on pairs \d+–\d+$/m);
    assert.match(out, /^no verdict yet$/m);
    // runs: the same, from the files alone
    const entry: Json = JSON.parse((await cli(["runs", root, "--json"], { compute })).stdout).runs[0];
    assert.equal(entry.state, "parked");
    assert.equal(entry.candidate_sha, null, "an open round has no commit to merge yet");
    assert.equal(entry.round.open, true);
    assert.deepEqual(entry.round.candidates.map((x: Json) => [x.standing, x.stage]), [
      ["dropped", "screen"],
      ["in-play", "screen"],
      ["dropped", "screen"],
    ]);
    assert.equal(entry.round.candidates[1].verdict, null, "in play: no verdict yet");
    assert.notEqual(entry.round.candidates[0].verdict, null, "a dropped candidate's verdict stands");
    const table = (await cli(["runs", root], { compute })).stdout;
    assert.match(table, /\n {2}candidate-2 +-> c{10} \(c2\) +in play +\+?-?\d/);
  });

  it("gives every candidate in play before the first batch is complete", async () => {
    const { dir, compute } = await roundRun(WINNER, tempDir("round-first-"), { passes: 1, hold: () => true });
    const j: Json = JSON.parse((await cli(["show", dir.path, "--json"], { compute })).stdout);
    assert.equal(j.round.n, 0);
    assert.deepEqual(j.round.candidates.map((x: Json) => [x.standing, x.pairs, x.screen]), [
      ["in-play", 0, null],
      ["in-play", 0, null],
      ["in-play", 0, null],
    ]);
    assert.deepEqual(j.round.next, { stage: "screen", first_pair: 1, last_pair: 2, arms: [1, 2, 3] });
    const out = (await cli(["show", dir.path], { compute })).stdout;
    assert.match(out, /^baseline +main +a{12} +nothing complete yet$/m);
    assert.match(out, /^open: no batch complete yet; in play: candidate, candidate-2, candidate-3; screening /m);
  });
});
