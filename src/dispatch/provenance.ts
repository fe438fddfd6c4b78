import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "./eval_files.ts";

/**
 * Where and when a measure's command ran, as its eval job recorded it
 * (`provenance` in its eval dir, `key=value` lines written by the job script
 * before its exit code): the host, the command's start and end, the Slurm job
 * id and node list, the CPU model, the CPUs it was allowed (a duet's half),
 * and with GPUs the devices' UUIDs (`nvidia-smi -L`). An eval dir written by
 * the reference, or by an earlier outerloop, has none: null.
 */
export interface Provenance {
  readonly host: string;
  /** ISO 8601 UTC, to the second; "" when unknown. */
  readonly startedAt: string;
  readonly endedAt: string;
  /** The Slurm job id the command ran in; "" outside Slurm (the local backend). */
  readonly jobId: string;
  readonly nodeList: string;
  readonly cpuModel: string;
  /** The CPU list it was allowed (`Cpus_allowed_list`), e.g. `0-3`. */
  readonly cpus: string;
  /** GPU UUIDs; [] without GPUs. */
  readonly gpus: readonly string[];
}

/** The largest provenance file read: a few short lines are expected. */
const MAX_BYTES = 64 * 1024;

/** The provenance in `evalDir`, or null when it has none (or it cannot be read). */
export function readProvenance(evalDir: string): Provenance | null {
  let text: string;
  try {
    text = readFileSync(join(evalDir, EVAL_FILES.provenance), "utf8");
  } catch {
    return null;
  }
  return parseProvenance(text.slice(0, MAX_BYTES));
}

/** Parses the `key=value` lines (unknown keys are ignored; a later `gpu` line adds a device). */
function parseProvenance(text: string): Provenance {
  const one: Record<string, string> = {};
  const gpus: string[] = [];
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    if (key === "gpu") {
      if (value !== "") gpus.push(value);
    } else one[key] = value;
  }
  return {
    host: one["host"] ?? "",
    startedAt: one["started_at"] ?? "",
    endedAt: one["ended_at"] ?? "",
    jobId: one["job_id"] ?? "",
    nodeList: one["node_list"] ?? "",
    cpuModel: one["cpu_model"] ?? "",
    cpus: one["cpus"] ?? "",
    gpus,
  };
}

/** The snake_case form `decision.json` and `--json` keep. */
export function provenanceJson(p: Provenance) {
  return {
    host: p.host,
    started_at: p.startedAt,
    ended_at: p.endedAt,
    job_id: p.jobId,
    node_list: p.nodeList,
    cpu_model: p.cpuModel,
    cpus: p.cpus,
    gpus: [...p.gpus],
  };
}
