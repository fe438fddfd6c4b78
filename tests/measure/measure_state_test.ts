import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LiveJob } from "../../src/compute/compute.ts";
import { classifyMeasure, type MeasureState, type Observation } from "../../src/measure/measure_state.ts";

const job: LiveJob = {
  id: "7",
  arrayId: null,
  taskId: null,
  name: "eval-x",
  state: "PENDING",
  reason: "Priority",
  partition: "cpu",
  script: "",
};

describe("classifyMeasure()", () => {
  // [what the pass saw, the state it means]
  const table: [string, Observation, MeasureState][] = [
    [
      "a result on disk, whatever else is said",
      { done: true, marker: "7", listed: "unknown", accounted: "unknown" },
      { kind: "done", jobId: "7" },
    ],
    [
      "a result on disk with no marker (a local job, or the marker lost)",
      { done: true, marker: "", listed: null, accounted: "GONE" },
      { kind: "done", jobId: null },
    ],
    [
      "a failed listing, with a marker",
      { done: false, marker: "7", listed: "unknown", accounted: "unknown" },
      { kind: "unknown", jobId: "7", why: "scheduler unreachable" },
    ],
    [
      "a failed listing, never dispatched: blind",
      { done: false, marker: "", listed: "unknown", accounted: "unknown" },
      { kind: "unknown", jobId: null, why: "scheduler unreachable" },
    ],
    ["a job listed by name", { done: false, marker: "7", listed: job, accounted: "GONE" }, { kind: "live", job }],
    [
      "a job listed by name although its submitter died before the marker",
      { done: false, marker: "", listed: job, accounted: "GONE" },
      { kind: "live", job },
    ],
    [
      "no marker, not listed: never dispatched",
      { done: false, marker: "", listed: null, accounted: "GONE" },
      { kind: "undispatched" },
    ],
    [
      "dispatched, not listed, sacct says PENDING (an empty listing)",
      { done: false, marker: "7", listed: null, accounted: "PENDING" },
      { kind: "unlisted", jobId: "7", state: "PENDING" },
    ],
    [
      "dispatched, not listed, sacct says RUNNING",
      { done: false, marker: "7", listed: null, accounted: "RUNNING" },
      { kind: "unlisted", jobId: "7", state: "RUNNING" },
    ],
    [
      "dispatched, not listed, sacct failed: unknown, never dead",
      { done: false, marker: "7", listed: null, accounted: "unknown" },
      { kind: "unknown", jobId: "7", why: "scheduler unreachable" },
    ],
    [
      "an array task not listed while its array is: unknown, for the reason the pass gave",
      {
        done: false,
        marker: "7_3",
        listed: null,
        accounted: "unknown",
        unknownWhy: "array job 7 is queued; this task is not listed yet",
      },
      { kind: "unknown", jobId: "7_3", why: "array job 7 is queued; this task is not listed yet" },
    ],
    [
      "dispatched, not listed, no sacct record: vanished",
      { done: false, marker: "7", listed: null, accounted: "GONE" },
      { kind: "vanished", jobId: "7", endState: "" },
    ],
    [
      "dispatched, not listed, ended TIMEOUT",
      { done: false, marker: "7", listed: null, accounted: "TIMEOUT" },
      { kind: "vanished", jobId: "7", endState: "TIMEOUT" },
    ],
    [
      "dispatched, not listed, ended CANCELLED by 0",
      { done: false, marker: "7", listed: null, accounted: "CANCELLED by 0" },
      { kind: "vanished", jobId: "7", endState: "CANCELLED by 0" },
    ],
  ];
  for (const [what, observation, state] of table) {
    it(`reads ${what} as ${state.kind}`, () => assert.deepEqual(classifyMeasure(observation), state));
  }
});
