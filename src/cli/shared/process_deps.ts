import { computeFor } from "../../compute/from_mode.ts";
import { onInterrupt, sleep, stderrIsTerminal } from "../../runtime/interrupt.ts";
import { selfCommand } from "../../runtime/self.ts";
import { writeFd } from "../../runtime/write.ts";
import type { CliDeps } from "./io.ts";

/** The real dependencies: this process's stdout, stderr, environment and clock, the real backends. */
export function processDeps(): CliDeps {
  return {
    io: {
      stdout: (t) => writeFd(1, t),
      stderr: (t) => writeFd(2, t),
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
