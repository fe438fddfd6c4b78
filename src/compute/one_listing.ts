import type { Compute, LiveJob } from "./compute.ts";

/**
 * `compute` with its queue listing asked at most once: every
 * `activeJobs()` call gets the first call's answer (or its failure), every
 * other verb goes through. One poll of `wait` shares one listing between the
 * measures (`runStatus`) and the wake this way, however many looks it reads:
 * the scheduler sees one squeue per poll, never one per job.
 */
export function withOneListing(compute: Compute): Compute {
  let listing: Promise<Map<string, LiveJob[]>> | null = null;
  const activeJobs = () => (listing ??= compute.activeJobs());
  return new Proxy(compute, {
    get(target, key) {
      if (key === "activeJobs") return activeJobs;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
