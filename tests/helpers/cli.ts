import type { Compute } from "../../src/compute/compute.ts";
import { runCli } from "../../src/cli/run_cli.ts";
import type { CliDeps } from "../../src/cli/io.ts";
import { FakeCompute } from "./fake_compute.ts";

/** What one in-process CLI run printed and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The backend modes the command asked for, in order. */
  readonly modes: readonly string[];
}

/**
 * Runs the CLI in this process with fakes: captured stdout and stderr, the
 * given environment (empty by default: nothing of the test runner's leaks
 * in), a fixed clock, and `compute` for every backend mode.
 */
export async function cli(
  args: readonly string[],
  opts: { env?: Record<string, string>; compute?: Compute; now?: number; self?: readonly string[] } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const modes: string[] = [];
  const compute = opts.compute ?? new FakeCompute();
  const deps: CliDeps = {
    io: { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) },
    env: opts.env ?? {},
    now: () => opts.now ?? Date.parse("2026-01-02T03:04:05Z"),
    compute: (mode) => {
      modes.push(mode);
      return compute;
    },
    self: () => opts.self ?? ["/opt/bin/outerloop"],
  };
  const code = await runCli(args, deps);
  return { code, stdout, stderr, modes };
}
