import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseProcStat, procStat } from "../../src/runtime/proc_stat.ts";

describe("parseProcStat()", () => {
  it("reads the parent and the process group after the command name's last parenthesis", () => {
    assert.deepEqual(parseProcStat("123 (sh) S 45 67 67 0 -1 4194304"), { pid: 123, ppid: 45, pgid: 67 });
    assert.deepEqual(parseProcStat("9 (a) b) (c) R 1 9 9 0"), { pid: 9, ppid: 1, pgid: 9 });
  });

  it("gives null for text that is not a stat line", () => {
    assert.equal(parseProcStat(""), null);
    assert.equal(parseProcStat("123 sh S 45 67"), null);
    assert.equal(parseProcStat("123 (sh) S"), null);
  });
});

describe("procStat()", () => {
  it("knows this process's parent, and nothing of a pid that is gone", () => {
    const me = procStat(process.pid);
    assert.equal(me?.pid, process.pid);
    assert.equal(me?.ppid, process.ppid);
    assert.equal(procStat(2 ** 22 + 12345), null); // above pid_max's ceiling: no such process
  });
});
