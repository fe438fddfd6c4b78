import type { Compute } from "../compute/compute.ts";
import { DispatchSettings } from "../measure/dispatch_settings.ts";
import type { DispatchedMeasurer } from "../measure/measurer.ts";
import type { RunRecord } from "./run_record.ts";

/** The run's measurer, bound from its record alone: the same record gives the same identities. */
export function measurerFor(runDir: string, r: RunRecord, compute: Compute): DispatchedMeasurer {
  return new DispatchSettings({
    compute,
    local: r.compute === "local",
    image: r.image,
    account: r.account,
    partition: r.partition,
    gpuPartition: r.gpuPartition,
    gpuAccount: r.gpuAccount,
    seedCache: r.seedCache,
  }).measurer(runDir, r.repo, r.contract.evalMinutes, r.runTag);
}
