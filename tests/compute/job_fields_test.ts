import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkJobName, checkMemory, checkSchedulerName } from "../../src/compute/job_fields.ts";
import { BadInputError } from "../../src/errors.ts";

describe("checkJobName()", () => {
  it("returns a good name unchanged", () => {
    assert.equal(checkJobName("--job-name", "ol-r1-baseline"), "ol-r1-baseline");
    assert.equal(checkJobName("--job-name", "é".repeat(64)), "é".repeat(64), "128 bytes is the limit");
  });

  it("refuses an empty name, an option, a pipe, a control character and one too long to find again", () => {
    const problem = (v: string) => {
      try {
        checkJobName("--run-tag", v);
        return "accepted";
      } catch (err) {
        assert.ok(err instanceof BadInputError);
        return (err as Error).message.replace(/^Invalid --run-tag "[^]*?": /, "");
      }
    };
    assert.equal(problem(""), "it is empty");
    assert.equal(problem("-x"), 'it starts with "-", which reads as an option');
    assert.equal(problem("a|b"), 'it contains "|", which breaks the scheduler\'s listings');
    assert.equal(problem("a\tb"), "it contains a control character");
    assert.equal(problem("é".repeat(65)), "it is longer than 128 bytes");
  });

  it("ends the message with the fix when given", () => {
    assert.throws(() => checkJobName("run tag", "", "pass --run-tag TAG"), /it is empty; pass --run-tag TAG$/);
  });
});

describe("checkMemory()", () => {
  it("takes digits and an optional unit", () => {
    for (const m of ["2G", "500M", "1024"]) assert.equal(checkMemory(m), m);
    assert.throws(() => checkMemory("2 GB"), /Invalid --mem "2 GB": expected a size such as 2G/);
  });
});

describe("checkSchedulerName()", () => {
  it("takes a name or the scheduler's default, refuses white space and control characters", () => {
    assert.equal(checkSchedulerName("--account", "acct"), "acct");
    assert.equal(checkSchedulerName("--account", ""), "");
    assert.throws(
      () => checkSchedulerName("OUTERLOOP_ACCOUNT", "acct "),
      /Invalid OUTERLOOP_ACCOUNT "acct ": it contains white space; give the name alone/,
    );
    assert.throws(() => checkSchedulerName("--qos", "a\u0001"), /it contains a control character/);
  });
});
