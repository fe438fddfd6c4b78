import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dispatchUnits, unitNeeds } from "../../src/measure/dispatch_unit.ts";
import { jobName, slot, unitJobName, unitSlot } from "../../src/measure/identity.ts";
import type { Measure } from "../../src/measure/measure.ts";

const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const m = (name: string, gpus = 0): Measure => ({
  name,
  treeSha: name.includes("base") ? SHA_A : SHA_B,
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", "7"]],
  gpus,
});
const names = (ms: readonly Measure[]) => ms.map((x) => x.name);
const plan = [
  m("baseline"),
  m("candidate"),
  m("sib-lat-base"),
  m("sib-lat-cand"),
  m("baseline#2"),
  m("candidate#2"),
  m("sib-lat-base#2"),
  m("sib-lat-cand#2"),
];

describe("dispatchUnits()", () => {
  it("makes every measure its own unit for separate, with the reference's slot and job name", () => {
    const units = dispatchUnits(plan, "separate");
    assert.ok(units.every((u) => u.mode === "one" && u.members.length === 1));
    assert.equal(unitSlot("", units[0]!), slot("", plan[0]!));
    assert.equal(unitJobName("r1", "", units[2]!), jobName("r1", "", plan[2]!));
  });

  it("orders separate units as a same-job runs them: pair 1 as the plan (the reference's), candidate first in even pairs", () => {
    assert.deepEqual(dispatchUnits(plan, "separate").map((u) => u.members[0]!.name), [
      "baseline",
      "candidate",
      "sib-lat-base",
      "sib-lat-cand",
      "candidate#2",
      "baseline#2",
      "sib-lat-cand#2",
      "sib-lat-base#2",
    ]);
    const cachedBase = plan.filter((x) => !x.name.startsWith("baseline"));
    assert.deepEqual(dispatchUnits(cachedBase, "separate").map((u) => u.members[0]!.name), [
      "candidate",
      "sib-lat-base",
      "sib-lat-cand",
      "candidate#2",
      "sib-lat-cand#2",
      "sib-lat-base#2",
    ]);
  });

  it("puts a pair's measures, siblings too, in one same-job unit, base first in odd pairs and candidate first in even ones", () => {
    const units = dispatchUnits(plan, "same-job");
    assert.deepEqual(units.map((u) => [u.mode, u.pair, names(u.members)]), [
      ["same-job", 1, ["baseline", "candidate", "sib-lat-base", "sib-lat-cand"]],
      ["same-job", 2, ["candidate#2", "baseline#2", "sib-lat-cand#2", "sib-lat-base#2"]],
    ]);
  });

  it("keeps a pair's measures of another lane apart: a sibling with GPUs beside a benchmark without", () => {
    const mixed = [m("baseline"), m("candidate"), m("sib-g-base", 1), m("sib-g-cand", 1)];
    assert.deepEqual(dispatchUnits(mixed, "same-job").map((u) => names(u.members)), [
      ["baseline", "candidate"],
      ["sib-g-base", "sib-g-cand"],
    ]);
  });

  it("refuses measures that are not whole pairs (a caller bug)", () => {
    assert.throws(() => dispatchUnits([m("candidate"), m("candidate#2")], "duet"), TypeError);
    assert.throws(() => dispatchUnits([m("baseline")], "same-job"), TypeError);
  });
});

describe("a pair unit's identity", () => {
  const [one, two] = dispatchUnits(plan, "same-job");

  it("is derived from every member's determinant and the mode", () => {
    assert.match(unitSlot("", one!), /^pair1-[0-9a-f]{40}$/);
    assert.match(unitJobName("r1", "", two!), /^eval-r1-same#2-[0-9a-f]{16}$/);
    const [duet] = dispatchUnits(plan, "duet");
    assert.notEqual(unitSlot("", duet!), unitSlot("", one!));
    assert.match(unitJobName("r1", "", duet!), /^eval-r1-duet#1-/);
    const otherSeed = dispatchUnits(plan.map((x) => ({ ...x, extraEnv: [["SEED", "8"]] as const })), "same-job");
    assert.notEqual(unitJobName("r1", "", otherSeed[0]!), unitJobName("r1", "", one!));
    assert.notEqual(unitJobName("r2", "", one!), unitJobName("r1", "", one!));
  });

  it("is the same for the same measures, however often it is rebuilt", () => {
    assert.equal(unitJobName("r1", "img", dispatchUnits(plan, "same-job")[0]!), unitJobName("r1", "img", one!));
  });
});

describe("unitNeeds()", () => {
  const [same] = dispatchUnits(plan, "same-job");
  const [duet] = dispatchUnits(plan, "duet");
  it("adds up the walltime of a same-job's measures, and doubles CPUs and memory of a duet for half of it", () => {
    assert.deepEqual(unitNeeds(same!, { minutes: 10, cpus: 2 }), { minutes: 40, cpus: 2, memFactor: 1, gpus: 0 });
    assert.deepEqual(unitNeeds(duet!, { minutes: 10, cpus: 2 }), { minutes: 20, cpus: 4, memFactor: 2, gpus: 0 });
  });
});
