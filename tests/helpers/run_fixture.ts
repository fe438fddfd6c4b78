import type { Compute } from "../../src/compute/compute.ts";
import { DispatchedMeasurer, type MeasurerOptions } from "../../src/measure/measurer.ts";
import { parseContract } from "../../src/contract/contract.ts";
import type { RunRecord } from "../../src/rundir/run_record.ts";

/**
 * A valid run record for tests: a Slurm run of the contract
 * `{"name": "toy", "command": "sh bench.sh", "metric": "score", "seed_env": "SEED", ...contract}`
 * on shas aaaa… → bbbb…, with `overrides` on top.
 */
export function runRecordFixture(
  overrides: Partial<RunRecord> = {},
  contract: Record<string, unknown> = {},
): RunRecord {
  const r: Omit<RunRecord, "candidates" | "labels"> = {
    format: 1,
    createdAt: "2025-01-02T03:04:05.678Z",
    repo: "/repo",
    baseRef: "main~1",
    candidateRef: "main",
    baseSha: "a".repeat(40),
    candidateSha: "b".repeat(40),
    contract: parseContract(
      { name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", seed_env: "SEED", ...contract },
      "test",
    ),
    contractPath: "/c.json",
    seed: 9,
    runTag: "t1",
    image: "",
    account: "acct",
    partition: "cpu",
    gpuPartition: "",
    gpuAccount: "",
    wakePartition: "",
    wakeQos: "",
    cluster: "",
    arrays: true,
    arrayThrottle: null,
    smoke: false,
    compute: "slurm",
    seedCache: null,
    commandLine: [],
    kind: "measure",
    ...overrides,
  };
  const candidates = overrides.candidates ?? [{ ref: r.candidateRef, sha: r.candidateSha }];
  return { ...r, candidates, labels: overrides.labels ?? candidates.map(() => "") };
}

/** A measurer over `compute` writing under `root`, on a CPU lane `acct`/`cpu` unless `options` say otherwise. */
export function testMeasurer(root: string, compute: Compute, options: Partial<MeasurerOptions> = {}) {
  return new DispatchedMeasurer({
    compute,
    root,
    repoRoot: "/repo",
    image: "",
    lanes: { account: "acct", partition: "cpu", gpuPartition: "", gpuAccount: "", scheduled: true },
    evalMinutes: 5,
    evalMem: "2G",
    evalCpus: 1,
    runTag: "run1",
    pairing: "separate",
    seedCache: null,
    now: Date.now,
    ...options,
  });
}

/** The keys of a baseline cache entry, in the order the reference's `write_baseline_cache` writes them. */
export const REFERENCE_CACHE_KEYS = [
  "value",
  "seed",
  "run",
  "base_sha",
  "image",
  "command",
  "metric",
  "seed_env",
  "gpus",
] as const;
