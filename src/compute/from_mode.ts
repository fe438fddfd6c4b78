import type { Compute } from "./compute.ts";
import type { ComputeMode } from "./mode.ts";

/**
 * The backend for a mode. Its module is loaded on the first verb called:
 * every verb is async anyway, and a command that never reaches the
 * scheduler (`--version`, `--help`, the `resume` of a decided run) should not
 * pay for loading the backends, their runners and `node:fs`. `cluster`:
 * Slurm's `-M` (cluster.ts), "" for slurm.conf's own.
 */
export function computeFor(mode: ComputeMode, cluster = ""): Compute {
  let backend: Promise<Compute> | undefined;
  const load = () =>
    backend ??= mode === "local"
      ? import("./local.ts").then((m) => new m.LocalCompute())
      : mode === "sge"
      ? import("./sge.ts").then((m) => new m.SgeCompute())
      : import("./slurm.ts").then((m) => new m.SlurmCompute({ cluster }));
  return new Proxy({} as Compute, {
    get: (_, verb) => {
      // the one property that is no verb: known from the mode, without loading the backend
      if (verb === "runsOnSubmit") return mode === "local";
      return async (...args: unknown[]) => {
        const c = await load() as unknown as Record<PropertyKey, (...a: unknown[]) => Promise<unknown>>;
        return await c[verb]!(...args);
      };
    },
  });
}
