import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { codePointPrefix, compareCodePoints, determinant, jobName, slot } from "../../src/measure/identity.ts";
import { type Measure, measureEnv } from "../../src/measure/measure.ts";
import { evalDirName } from "../../src/dispatch/eval_files.ts";

// Vectors computed by the Python reference's own _det/_slot/_ev/_job_name
// (scripts/identity_vectors.py); regenerate with `python3 scripts/identity_vectors.py`.
interface PyMeasure {
  name: string;
  tree_sha: string;
  command: string;
  metric: string;
  extra_env: [string, string][];
  gpus: number;
}
interface IdentityVector {
  image: string;
  run_tag: string;
  measure: PyMeasure;
  det?: string;
  slot?: string;
  eval_dir?: string;
  job_name?: string;
  raises?: string;
}
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/identity_vectors.json", import.meta.url), "utf8"),
) as { identity: IdentityVector[] };

function toMeasure(p: PyMeasure): Measure {
  return {
    name: p.name,
    treeSha: p.tree_sha,
    command: p.command,
    metric: p.metric,
    extraEnv: p.extra_env.map(([k, v]) => [k, v] as const),
    gpus: p.gpus,
  };
}

const computed = fixture.identity.filter((v) => v.raises === undefined);
const refused = fixture.identity.filter((v) => v.raises !== undefined);

describe("measure identity matches the Python reference byte for byte", () => {
  it("the fixture holds enough reference vectors to mean something", () => {
    assert.ok(computed.length >= 40, `only ${computed.length} computed vectors`);
    assert.ok(refused.length >= 3, `only ${refused.length} refusal vectors`);
  });

  for (const [i, v] of computed.entries()) {
    const label = `#${i} ${JSON.stringify(v.measure.name).slice(0, 30)} tag ${JSON.stringify(v.run_tag).slice(0, 20)}`;
    it(`determinant, slot, eval dir and job name equal the reference's for ${label}`, () => {
      const m = toMeasure(v.measure);
      assert.equal(determinant(v.image, m), v.det);
      assert.equal(slot(v.image, m), v.slot);
      assert.equal(evalDirName(slot(v.image, m)), v.eval_dir);
      assert.equal(jobName(v.run_tag, v.image, m), v.job_name);
    });
  }

  for (const [i, v] of refused.entries()) {
    it(`refuses a lone surrogate the reference cannot encode either (#${i})`, () => {
      assert.equal(v.raises, "UnicodeEncodeError");
      const m = toMeasure(v.measure);
      assert.throws(() => jobName(v.run_tag, v.image, m), (e: unknown) => {
        assert.ok(e instanceof TypeError);
        assert.match(e.message, /lone surrogate/);
        assert.match(e.message, /run tag|measure name|value of env "K"/);
        return true;
      });
    });
  }
});

describe("jobName() of pair i >= 2", () => {
  const m = (name: string): Measure => ({
    name,
    treeSha: "0123456789abcdef0123456789abcdef01234567",
    command: "python bench.py",
    metric: "score",
    extraEnv: [["SEED", "7"]],
    gpus: 0,
  });
  const readable = (name: string) => jobName("run1", "", m(name)).split("-").slice(2, -1).join("-");

  it("keeps the #i suffix of a longer name and cuts the stem shorter", () => {
    assert.equal(readable("sib-lat-base#2"), "sib-lat-ba#2");
    assert.equal(readable("sib-lat-cand#10"), "sib-lat-c#10");
    assert.equal(readable("sib-😀😀😀😀😀😀😀😀-base#3"), "sib-😀😀😀😀😀😀#3", "cut by code point");
  });

  it("leaves a name that fits within 12 code points, suffix included, as it is", () => {
    assert.equal(readable("baseline#2"), "baseline#2");
    assert.equal(readable("candidate#12"), "candidate#12");
  });

  it("keeps the 16 hex digits of the full name and cuts pair-1 names as the reference does", () => {
    const name = jobName("run1", "", m("sib-lat-base#2"));
    assert.match(name, /^eval-run1-sib-lat-ba#2-[0-9a-f]{16}$/);
    assert.notEqual(name.slice(-16), jobName("run1", "", m("sib-lat-base")).slice(-16));
    assert.equal(readable("sib-lat-base"), "sib-lat-base");
    assert.equal(readable("sib-latency-base"), "sib-latency-");
    assert.equal(readable("sib-a#2-base"), "sib-a#2-base", "a # inside a sibling's name is not a pair");
  });
});

describe("code-point helpers", () => {
  it("codePointPrefix() keeps an astral character whole where UTF-16 slicing would split it", () => {
    assert.equal(codePointPrefix("abcdefghijk😀xyz", 12), "abcdefghijk😀");
    assert.equal("abcdefghijk😀xyz".slice(0, 12), "abcdefghijk\ud83d");
    assert.equal(codePointPrefix("𝔘𝔘", 10), "𝔘𝔘");
    assert.equal(codePointPrefix("", 3), "");
  });

  it("compareCodePoints() puts astral characters after the whole BMP, as Python does", () => {
    assert.ok(compareCodePoints("\uff61", "\u{1f600}") < 0);
    assert.ok("\uff61" > "\u{1f600}", "UTF-16 order is the other way round");
    assert.ok(compareCodePoints("\ud7ff", "\ue000") < 0);
    assert.ok(compareCodePoints("a", "a\u{1f600}") < 0);
    assert.ok(compareCodePoints("a\uffff", "a\u{10000}") < 0);
    assert.equal(compareCodePoints("\u{1f600}x", "\u{1f600}x"), 0);
    const sorted = ["\u{10000}", "\uffff", "\ue000", "z", "\ud7ff"].sort(compareCodePoints);
    assert.deepEqual(sorted, ["z", "\ud7ff", "\ue000", "\uffff", "\u{10000}"]);
  });
});

describe("measureEnv()", () => {
  const m = (extraEnv: [string, string][]): Measure => ({
    name: "baseline",
    treeSha: "a",
    command: "c",
    metric: "m",
    extraEnv,
    gpus: 0,
  });

  it("lets a later duplicate key win, like Python's dict()", () => {
    assert.deepEqual({ ...measureEnv(m([["SEED", "1"], ["X", "x"], ["SEED", "2"]])) }, { SEED: "2", X: "x" });
  });

  it("keeps __proto__ as an ordinary variable instead of changing the prototype", () => {
    const env = measureEnv(m([["__proto__", "p"]]));
    assert.equal(Object.getPrototypeOf(env), null);
    assert.deepEqual(Object.entries(env), [["__proto__", "p"]]);
  });
});

describe("jobName() of a round's candidates", () => {
  const m = (name: string) => ({ name, treeSha: "a".repeat(40), command: "c", metric: "m", extraEnv: [], gpus: 0 });
  it("keeps candidate k's number and the pair's in the readable part", () => {
    const readable = (name: string) => /^eval-r1-(.*)-[0-9a-f]{16}$/.exec(jobName("r1", "", m(name)))![1];
    assert.equal(readable("candidate-2"), "cand-2");
    assert.equal(readable("candidate-2#3"), "cand-2#3");
    assert.equal(readable("candidate-12#10"), "cand-12#10");
    assert.equal(readable("sib-lat-cand-2#4"), "sib-lat-c2#4");
    assert.equal(readable("sib-longsibname-cand-3#2"), "sib-lon-c3#2");
    assert.equal(readable("candidate"), "candidate", "a one-candidate name is the reference's");
  });
});
