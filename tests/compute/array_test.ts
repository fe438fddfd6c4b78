import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  arrayChunks,
  arrayIndexSpec,
  expandIndices,
  sacctSelection,
  splitRef,
  taskRef,
} from "../../src/compute/array.ts";
import { assertJobRef, InvalidJobIdError, isJobId, isJobRef, isTaskId } from "../../src/compute/compute.ts";

describe("arrayChunks()", () => {
  it("splits n tasks into arrays of at most MaxArraySize, full ones first", () => {
    assert.deepEqual(arrayChunks(24, 10), [10, 10, 4]);
    assert.deepEqual(arrayChunks(20, 10), [10, 10]);
    assert.deepEqual(arrayChunks(3, 1001), [3]);
    assert.deepEqual(arrayChunks(1001, 1001), [1001]);
    assert.deepEqual(arrayChunks(1002, 1001), [1001, 1]);
    assert.deepEqual(arrayChunks(5, 1), [1, 1, 1, 1, 1]);
  });
  it("gives no chunk for no tasks and one for a backend without a cap", () => {
    assert.deepEqual(arrayChunks(0, 10), []);
    assert.deepEqual(arrayChunks(5000, Infinity), [5000]);
  });
  it("refuses what is not a count or an array size", () => {
    for (const [n, max] of [[-1, 10], [1.5, 10], [3, 0], [3, 2.5], [3, NaN], [NaN, 3]] as const) {
      assert.throws(() => arrayChunks(n, max), RangeError, `${n}, ${max}`);
    }
  });
});

describe("arrayIndexSpec()", () => {
  it("numbers tasks from 0, with the throttle after a %", () => {
    assert.equal(arrayIndexSpec(10), "0-9");
    assert.equal(arrayIndexSpec(10, 3), "0-9%3");
    assert.equal(arrayIndexSpec(1), "0-0");
  });
  it("refuses an empty array and a throttle below 1", () => {
    assert.throws(() => arrayIndexSpec(0), RangeError);
    assert.throws(() => arrayIndexSpec(2.5), RangeError);
    assert.throws(() => arrayIndexSpec(3, 0), RangeError);
  });
});

describe("task ids", () => {
  it("names task T of array A as A_T and splits it back", () => {
    assert.equal(taskRef("23", 4), "23_4");
    assert.deepEqual(splitRef("23_4"), { jobId: "23", task: 4 });
    assert.deepEqual(splitRef("23"), { jobId: "23", task: null });
  });
  it("keeps isJobId digits-only; isTaskId and isJobRef take A_T", () => {
    assert.ok(isJobId("23") && !isJobId("23_4"));
    assert.ok(isTaskId("23_4") && !isTaskId("23") && !isTaskId("23_[2-5%2]") && !isTaskId("23_"));
    for (const ok of ["23", "23_4", "0_0"]) assert.ok(isJobRef(ok), ok);
    for (const bad of ["", "23_", "_4", "23_4_5", "23.batch", "23_[2-5]", "a_1", " 23", "23_4\n"]) {
      assert.equal(isJobRef(bad), false, JSON.stringify(bad));
      assert.throws(() => assertJobRef(bad), InvalidJobIdError);
    }
  });
  it("asks sacct for an array once, by its id, and for plain jobs as they are", () => {
    assert.deepEqual(sacctSelection(["23_0", "7", "23_5", "24_1", "7"]), ["23", "7", "24"]);
  });
});

describe("expandIndices()", () => {
  it("reads the brackets of a collapsed row: ranges, lists, steps and a throttle", () => {
    assert.deepEqual(expandIndices("2-5%2"), [2, 3, 4, 5]);
    assert.deepEqual(expandIndices("3-7,9%3"), [3, 4, 5, 6, 7, 9]);
    assert.deepEqual(expandIndices("1-9:4"), [1, 5, 9]);
    assert.deepEqual(expandIndices("1,4,9"), [1, 4, 9]);
    assert.deepEqual(expandIndices("8"), [8]);
  });
  it("gives null for text that is not one (a list cut short)", () => {
    for (const bad of ["", "1,4,9,16,25,36,49,64,81,10[", "5-2", "1-", "x", "1,,2", "1-9:0", "%2"]) {
      assert.equal(expandIndices(bad), null, JSON.stringify(bad));
    }
  });
});
