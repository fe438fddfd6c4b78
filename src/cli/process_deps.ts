import { computeFor } from "../compute/from_mode.ts";
import { onInterrupt, sleep, stderrIsTerminal } from "../runtime/interrupt.ts";
import { selfCommand } from "../runtime/self.ts";
import type { CliDeps } from "./io.ts";

/** The real dependencies: this process's stdout, stderr, environment and clock, the real backends. */
export function processDeps(): CliDeps {
  return {
    io: {
      stdout: (t) => void process.stdout.write(t),
      stderr: (t) => void process.stderr.write(t),
    },
    env: process.env,
    now: Date.now,
    compute: computeFor,
    self: selfCommand,
    sleep,
    onInterrupt,
    stderrIsTerminal,
  };
}
