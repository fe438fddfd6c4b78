import * as z from "zod/mini";
import { lazy, strict } from "../schema/zod.ts";
import type { JobUsage } from "../compute/usage.ts";

/** One usage as a run file and `--json` keep it. */
export function usageJson(u: JobUsage) {
  return {
    job_id: u.jobId,
    state: u.state,
    elapsed_s: u.elapsedS,
    timelimit_s: u.timelimitS,
    max_rss_bytes: u.maxRssBytes,
    req_mem_bytes: u.reqMemBytes,
    alloc_cpus: u.allocCpus,
    total_cpu_s: u.totalCpuS,
    cpu_efficiency: u.cpuEfficiency,
  };
}

const figure = lazy(() => z.nullable(z.number().check(z.minimum(0))));

/** The schema of `usageJson`'s output. */
export const usageSchema = lazy(() =>
  strict({
    job_id: z.string(),
    state: z.string(),
    elapsed_s: figure(),
    timelimit_s: figure(),
    max_rss_bytes: figure(),
    req_mem_bytes: figure(),
    alloc_cpus: figure(),
    total_cpu_s: figure(),
    cpu_efficiency: figure(),
  })
);

/** A usage read back from a run file. */
export function usageFromJson(j: z.output<ReturnType<typeof usageSchema>>): JobUsage {
  return {
    jobId: j.job_id,
    state: j.state,
    elapsedS: j.elapsed_s,
    timelimitS: j.timelimit_s,
    maxRssBytes: j.max_rss_bytes,
    reqMemBytes: j.req_mem_bytes,
    allocCpus: j.alloc_cpus,
    totalCpuS: j.total_cpu_s,
    cpuEfficiency: j.cpu_efficiency,
  };
}
