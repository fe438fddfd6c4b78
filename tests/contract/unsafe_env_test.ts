import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { unsafeSeedEnv } from "../../src/contract/unsafe_env.ts";

describe("unsafeSeedEnv()", () => {
  it("refuses the loader's variables, by prefix and by name", () => {
    assert.match(unsafeSeedEnv("LD_PRELOAD")!, /^"LD_PRELOAD" is read by the dynamic loader \(LD_\*\)/);
    assert.match(unsafeSeedEnv("DYLD_INSERT_LIBRARIES")!, /\(DYLD_\*\)/);
    assert.match(unsafeSeedEnv("GLIBC_TUNABLES")!, /^"GLIBC_TUNABLES" is read by the dynamic loader: /);
  });

  it("refuses the shell's and the interpreters' hooks, each with the fix", () => {
    assert.match(unsafeSeedEnv("BASH_ENV")!, /is read by the shell that runs the command/);
    assert.match(unsafeSeedEnv("PYTHONPATH")!, /tells an interpreter which code to load/);
    assert.match(unsafeSeedEnv("NODE_OPTIONS")!, /name the seed variable otherwise \(such as BENCH_SEED\)$/);
  });

  it("lets a fair seed variable through, matching names exactly", () => {
    for (const name of ["SEED", "BENCH_SEED", "PYTHONHASHSEED", "ld_preload", "MY_LD_FLAG"]) {
      assert.equal(unsafeSeedEnv(name), null, name);
    }
  });
});
