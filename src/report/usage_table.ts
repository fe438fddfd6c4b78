// Tested by tests/run/watch_test.ts
import type { JobUsage } from "../compute/usage.ts";
import { formatDuration } from "../text/duration.ts";
import { renderColumns } from "../text/columns.ts";
import { formatShare } from "../text/numbers.ts";

/**
 * Resource use for people (`show`): one line per finished measure, and a
 * warning for each measure that came close to a limit — the walltime kills
 * the job (TIMEOUT, a failed eval), the memory limit kills it too
 * (OUT_OF_MEMORY). Plain text, like every table of the CLI.
 */

/** Above this share of a limit, `show` warns: the next, slightly slower run may not fit. */
const NEAR_LIMIT = 0.8;

/** Bytes in binary units, 3 significant digits: `74.6 MiB`, `2 GiB`; "" when unknown. */
export function formatBytes(n: number | null): string {
  if (n === null) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${Number(v.toPrecision(3))} ${units[i]}`;
}

const duration = (s: number | null) => formatDuration(s);

/** The resource-use table: measure, job, elapsed of walltime, max RSS of memory, CPUs and their efficiency. */
export function formatUsageTable(usage: Readonly<Record<string, JobUsage>>): string {
  const rows = Object.entries(usage).map(([name, u]) => [
    name,
    u.jobId,
    duration(u.elapsedS),
    duration(u.timelimitS),
    formatBytes(u.maxRssBytes),
    formatBytes(u.reqMemBytes),
    u.allocCpus === null ? "" : String(u.allocCpus),
    u.cpuEfficiency === null ? "" : formatShare(u.cpuEfficiency),
  ]);
  const header = ["measure", "job", "elapsed", "walltime", "max RSS", "memory", "CPUs", "CPU use"];
  return renderColumns(header, rows, new Set([2, 3, 4, 5, 6, 7])) + "\n";
}

/**
 * A sentence for each limit a measure came within 20% of: more than
 * `NEAR_LIMIT` of its walltime ("raise eval_minutes") or of its memory
 * ("raise eval_mem").
 */
export function usageWarnings(name: string, u: JobUsage): string[] {
  const out: string[] = [];
  if (u.elapsedS !== null && u.timelimitS !== null && u.timelimitS > 0 && u.elapsedS > NEAR_LIMIT * u.timelimitS) {
    out.push(
      `measure ${name} ran ${duration(u.elapsedS)} of its ${duration(u.timelimitS)} walltime ` +
        `(${formatShare(u.elapsedS / u.timelimitS)}): raise eval_minutes in the contract`,
    );
  }
  if (
    u.maxRssBytes !== null && u.reqMemBytes !== null && u.reqMemBytes > 0 && u.maxRssBytes > NEAR_LIMIT * u.reqMemBytes
  ) {
    out.push(
      `measure ${name} peaked at ${formatBytes(u.maxRssBytes)} of its ${formatBytes(u.reqMemBytes)} memory ` +
        `(${formatShare(u.maxRssBytes / u.reqMemBytes)}): raise eval_mem in the contract`,
    );
  }
  return out;
}
