// Tested by tests/run/watch_test.ts
import type { Compute, LiveJob } from "../compute/compute.ts";
import { runsFrom } from "../compute/job_owner.ts";
import { log } from "../log.ts";
import { dispatchUnits } from "../measure/dispatch_unit.ts";
import { codePointPrefix, unitJobName } from "../measure/identity.ts";
import { cachedBaseline } from "./baseline_source.ts";
import { runPlan } from "./run_plan.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { wakeJobName } from "../rundir/wake_record.ts";

/**
 * A run's jobs as the scheduler lists them, found by NAME — the names are a
 * pure function of the run's record and dir, so a job whose submitter died
 * before recording its id is found too: every eval of every pair the design
 * may ever run (up to max_repeats), and the run's wake.
 */

/**
 * A run's job names: the ones it knows (a set), and, for a round's pair
 * jobs, a pattern every other of its names matches (`has` asks both).
 */
class JobNames extends Set<string> {
  readonly #pattern: RegExp | null;
  constructor(names: Iterable<string>, pattern: RegExp | null = null) {
    super(names);
    this.#pattern = pattern;
  }
  override has(name: string): boolean {
    return super.has(name) || (this.#pattern?.test(name) ?? false);
  }
}

/**
 * Every job name the run can have: its evals (or pair jobs), pair by pair up
 * to max_repeats (a round: every candidate up to repeats + max_repeats), and
 * its wake. A round's pair jobs hold the candidates still in play at their
 * pair — which only its results tell — so every `eval-<tag>-same#<i>-<hex>`
 * counts, and so does every job array's `eval-<tag>-array-<hex>` (its name
 * hashes its manifest): a job is the run's only when its script lies in the
 * run dir too.
 */
export function runJobNames(dir: RunDir, r: RunRecord): JobNames {
  const all = runPlan(r, cachedBaseline(dir, r, false)).all.plan;
  const names = dispatchUnits(all, r.contract.pairing).map((u) => unitJobName(r.runTag, r.image, u));
  names.push(wakeJobName(r.runTag, dir));
  const tag = codePointPrefix(r.runTag, 10).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const roundPairJob = r.candidates.length < 2 || r.contract.pairing === "separate" ? [] : [`same#[0-9]+`];
  return new JobNames(names, new RegExp(`^eval-${tag}-(${[...roundPairJob, "array"].join("|")})-[0-9a-f]{16}$`));
}

/**
 * The run's queued and running jobs in one listing (`Compute.activeJobs`), in
 * listed order: those of the run's names whose script lies in the run dir.
 * A name alone is not an owner — two runs with one run tag (two climbs' `r1`)
 * measuring the same tree share eval job names — and `cancel` must never
 * stop another run's job.
 */
export function liveJobsOf(
  listing: ReadonlyMap<string, readonly LiveJob[]>,
  names: ReadonlySet<string>,
  dir: RunDir,
): LiveJob[] {
  return namedJobs(listing, names).filter((j) => runsFrom(j, dir.path));
}

/** The listed jobs of `names`, in listed order, whoever's they are. */
function namedJobs(listing: ReadonlyMap<string, readonly LiveJob[]>, names: ReadonlySet<string>): LiveJob[] {
  return [...listing.entries()].filter(([name]) => names.has(name)).flatMap(([, jobs]) => jobs);
}

/**
 * Cancels every queued or running job of the run (not one completing) but those in `except` (the
 * job this process runs in), from ONE listing and ONE scancel; the ids it
 * cancelled. A job of one of the run's names whose script lies elsewhere is
 * left alone, with a warning naming it: it is another run's — or this run's,
 * seen through a mount under another path, which the user can then cancel by
 * id. A failed listing or scancel rejects (a ComputeError): the caller says
 * what that means.
 */
export async function cancelLiveJobs(
  compute: Compute,
  dir: RunDir,
  r: RunRecord,
  except: readonly string[] = [],
): Promise<string[]> {
  const listing = await compute.activeJobs();
  const names = runJobNames(dir, r);
  const live = liveJobsOf(listing, names, dir);
  for (const j of namedJobs(listing, names).filter((x) => !live.includes(x))) {
    log.warn(
      `left job ${j.id} alone: it has a job name of this run (${j.name}) but runs ${JSON.stringify(j.script)}, ` +
        `outside ${JSON.stringify(dir.path)}: another run's job (if it is this run's, cancel it by id)`,
    );
  }
  // an array of the run is cancelled whole, by its id: its tasks not yet listed go with it. A job listed
  // COMPLETING has ended (the failed eval itself, often: Slurm 24.11 lists it a moment longer): nothing to stop
  const ids = [...new Set(live.filter((j) => j.state !== "COMPLETING").map((j) => j.arrayId ?? j.id))]
    .filter((id) => !except.includes(id));
  if (ids.length > 0) await compute.cancelMany(ids);
  return ids;
}
