import type { Provenance } from "../dispatch/provenance.ts";
import { renderColumns } from "../text/columns.ts";

/**
 * `show`'s "where and when" table: for each measure whose eval recorded it,
 * the host it ran on, its Slurm job, when its command started and ended
 * (UTC), the CPUs it was allowed (a duet's half), the CPU model, and with GPUs
 * their UUIDs — so two measures of a pair can be seen to have shared a
 * machine, or not.
 */
export function formatProvenanceTable(provenance: Readonly<Record<string, Provenance>>): string {
  const time = (iso: string) => iso.replace(/^\d{4}-\d\d-\d\dT/, "").replace(/Z$/, "");
  const day = Object.values(provenance).map((p) => p.startedAt.slice(0, 10)).find((d) => d !== "") ?? "";
  const rows = Object.entries(provenance).map(([name, p]) => [
    name,
    p.host,
    p.jobId,
    time(p.startedAt),
    time(p.endedAt),
    p.cpus,
    p.cpuModel,
    p.gpus.join(" "),
  ]);
  const header = [
    "measure",
    "host",
    "job",
    `started${day ? ` (${day} UTC)` : ""}`,
    "ended",
    "CPUs",
    "CPU model",
    "GPUs",
  ];
  const used = header.map((_, i) => i < 3 || rows.some((r) => r[i] !== ""));
  const keep = <T>(xs: readonly T[]) => xs.filter((_, i) => used[i]);
  return renderColumns(keep(header), rows.map(keep), new Set()) + "\n";
}
