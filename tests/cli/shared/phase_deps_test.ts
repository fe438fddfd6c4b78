import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CliDeps } from "../../../src/cli/shared/io.ts";
import { phaseDeps } from "../../../src/cli/shared/phase_deps.ts";
import { FakeCompute } from "../../helpers/fake_compute.ts";

describe("phaseDeps()", () => {
  it("takes the mode's backend, the self command, the clock and the environment from the CLI's", () => {
    const compute = new FakeCompute();
    const modes: string[] = [];
    const now = () => 42;
    const deps = {
      compute: (m: string) => (modes.push(m), compute),
      self: () => ["/bin/outerloop"],
      now,
      env: { A: "1" },
    } as unknown as CliDeps;
    const p = phaseDeps(deps, "sge", "", 5000);
    assert.deepEqual(modes, ["sge"]);
    assert.equal(p.compute, compute);
    assert.deepEqual(p.self, ["/bin/outerloop"]);
    assert.equal(p.now, now);
    assert.deepEqual([p.env, p.lockWaitMs], [{ A: "1" }, 5000]);
    assert.equal(phaseDeps(deps, "local", "").lockWaitMs, 0, "no wait for the lock by default");
  });
});
