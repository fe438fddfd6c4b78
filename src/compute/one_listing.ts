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

/** The verbs that change the queue: after one, a listing taken before it is out of date. */
const CHANGES_QUEUE = new Set<PropertyKey>(["submit", "submitArray", "cancel", "cancelMany"]);

/**
 * `compute` with its queue listing shared until this process changes the
 * queue: every `activeJobs()` gets the last listing's answer until a submit
 * or a cancel goes through, and the next one lists again. One pass reads
 * its measures and its wake from one `squeue` this way when it submits
 * nothing (a pass over a parked run), and never judges a job it has just
 * submitted or cancelled from a listing taken before.
 */
export function withListingUntilChange(compute: Compute): Compute {
  let listing: Promise<Map<string, LiveJob[]>> | null = null;
  const activeJobs = () => {
    const now = listing ??= compute.activeJobs();
    now.catch(() => {
      if (listing === now) listing = null; // a failed listing is asked again, not remembered
    });
    return now;
  };
  return new Proxy(compute, {
    get(target, key) {
      if (key === "activeJobs") return activeJobs;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!CHANGES_QUEUE.has(key)) return value.bind(target);
      return (...args: unknown[]) => {
        listing = null;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
