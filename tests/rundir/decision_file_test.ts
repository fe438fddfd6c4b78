import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { RunDir } from "../../src/rundir/run_dir.ts";
import { type DecisionRecord, readDecision, writeDecision } from "../../src/rundir/decision_file.ts";

const BASE = "0123456789abcdef0123456789abcdef01234567";
const CAND = "89abcdef0123456789abcdef0123456789abcdef";
const METHOD = "group-sequential paired screened Student t (…), look 2 of 3";

/** A repeated design's decision in which the benchmark's estimate set pairs 3 and 7 aside. */
const DECISION: DecisionRecord = {
  verdict: "accept",
  values: { baseline: 12, candidate: 10 },
  deltas: { candidate: -2 },
  reasons: ["The candidate improved on the baseline, above min_effect 1: …"],
  baseSha: BASE,
  candidateSha: CAND,
  runIdentity: null,
  decidedAt: "2025-01-02T04:00:00.000Z",
  direction: "minimize",
  minEffect: 1,
  baselineSource: "measured",
  paired: {
    seeds: [1, 2, 3, 4, 5, 6, 7, 8],
    n: 8,
    outcome: "accepted",
    benchmark: { n: 8, mean: 2, lower: 1.5, upper: 2.5, confidence: 0.9833, method: METHOD, setAside: [3, 7] },
    siblings: {
      lat: {
        n: 8,
        mean: 0,
        lower: -0.5,
        upper: 0.5,
        confidence: 0.9833,
        method: METHOD,
        setAside: [],
        standing: "held",
      },
    },
  },
  samples: {
    baseline: { n: 7, min: 11.9, median: 12, max: 30.2 },
    "candidate#2": { n: 3, min: 9.5, median: 10, max: 10.5 },
  },
};

const fileOf = (dir: string) => join(dir, "decision.json");
const read = (dir: string) => JSON.parse(readFileSync(fileOf(dir), "utf8")) as Record<string, unknown>;

describe("decision.json: pairs set aside and samples", () => {
  it("round-trips the set-aside pairs and the samples' spread, with snake_case keys", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), DECISION);
    assert.deepEqual(readDecision(new RunDir(dir)), DECISION);
    const j = read(dir);
    assert.deepEqual((j["benchmark"] as Record<string, unknown>)["set_aside"], [3, 7]);
    // an estimate that set nothing aside writes no set_aside key
    assert.equal(Object.hasOwn((j["siblings"] as Record<string, object>)["lat"]!, "set_aside"), false);
    assert.deepEqual(j["samples"], {
      baseline: { n: 7, min: 11.9, median: 12, max: 30.2 },
      "candidate#2": { n: 3, min: 9.5, median: 10, max: 10.5 },
    });
  });

  it("writes no samples key when no measure reported an array", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), { ...DECISION, samples: {} });
    assert.equal(Object.hasOwn(read(dir), "samples"), false);
    assert.equal(readDecision(new RunDir(dir))?.samples, undefined);
  });

  it("reads a decision written before set_aside and samples existed: nothing set aside, no samples", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), DECISION);
    const j = read(dir);
    delete j["samples"];
    delete (j["benchmark"] as Record<string, unknown>)["set_aside"];
    writeFileSync(fileOf(dir), JSON.stringify(j));
    const d = readDecision(new RunDir(dir))!;
    assert.deepEqual(d.paired?.benchmark.setAside, []);
    assert.deepEqual(d.paired?.siblings["lat"]?.setAside, []);
    assert.equal(d.samples, undefined);
  });

  it("refuses a damaged samples entry, naming the field", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), DECISION);
    const j = read(dir);
    (j["samples"] as Record<string, Record<string, unknown>>)["baseline"]!["n"] = 0;
    writeFileSync(fileOf(dir), JSON.stringify(j));
    assert.throws(() => readDecision(new RunDir(dir)), /samples/);
  });
});

describe("decision.json: the relative figures, guards and a relative min_effect (additive keys)", () => {
  const ratio = { n: 8, mean: 0.8, lower: 0.75, upper: 0.86, confidence: 0.9833, method: METHOD, setAside: [3] };
  const { setAside: _, ...storedRatio } = ratio;
  const guard = {
    n: 8,
    mean: -0.1,
    lower: -0.3,
    upper: 0.1,
    confidence: 0.9833,
    method: METHOD,
    setAside: [],
    standing: "held" as const,
  };
  const withRelative: DecisionRecord = {
    ...DECISION,
    minEffect: 0.02,
    minEffectScale: "relative",
    paired: {
      ...DECISION.paired!,
      benchmark: { ...DECISION.paired!.benchmark, relative: ratio },
      siblings: { lat: { ...DECISION.paired!.siblings["lat"]!, relative: null } },
      guards: { size: { ...guard, relative: null } },
    },
  };

  it("writes the ratios beside the estimates (the estimates' keys unchanged), guards and min_effect_scale", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), withRelative);
    const j = read(dir);
    assert.equal(j["min_effect"], 0.02);
    assert.equal(j["min_effect_scale"], "relative");
    assert.deepEqual(j["relative"], {
      benchmark: { ...storedRatio, set_aside: [3] },
      siblings: { lat: null },
      guards: { size: null },
    });
    assert.equal(Object.hasOwn(j["benchmark"] as object, "relative"), false);
    assert.deepEqual(Object.keys(j["guards"] as Record<string, unknown>), ["size"]);
    const back = readDecision(new RunDir(dir))!;
    assert.deepEqual(back.relative, { benchmark: ratio, siblings: { lat: null }, guards: { size: null } });
    assert.deepEqual(back.paired!.guards, { size: guard });
    assert.equal(back.minEffectScale, "relative");
    // written again from what was read: the same file
    const again = tempDir("ol-decision-");
    writeDecision(new RunDir(again), back);
    assert.deepEqual(read(again), j);
  });

  it("writes none of them for a decision without them, so old files and new ones of old contracts match", () => {
    const dir = tempDir("ol-decision-");
    writeDecision(new RunDir(dir), DECISION);
    const j = read(dir);
    for (const key of ["min_effect_scale", "relative", "guards"]) assert.equal(Object.hasOwn(j, key), false, key);
  });

  it("keeps a single pair's ratio, with no interval", () => {
    const dir = tempDir("ol-decision-");
    const point = { ...ratio, n: 1, lower: 0.8, upper: 0.8, setAside: [] };
    const single = { ...DECISION, paired: null, relative: { benchmark: point } };
    writeDecision(new RunDir(dir), single);
    assert.deepEqual(readDecision(new RunDir(dir)), single);
    assert.deepEqual(read(dir)["relative"], {
      benchmark: { n: 1, mean: 0.8, lower: 0.8, upper: 0.8, confidence: 0.9833, method: METHOD },
    });
  });
});
