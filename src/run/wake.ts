import { splitRef } from "../compute/array.ts";
import type { Compute, LiveJob } from "../compute/compute.ts";
import { SlurmError } from "../compute/errors.ts";
import { ownJobId } from "../compute/job_env.ts";
import { isPending } from "../compute/states.ts";
import type { JobSpec } from "../compute/job_spec.ts";
import { quoteCommand } from "../compute/quote.ts";
import { log } from "../log.ts";
import type { MeasurementPending } from "../measure/pending.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { readWakeRecord, wakeJobName, type WakeRecord, writeWakeRecord } from "../rundir/wake_record.ts";

/** A deadline wake (no ids to depend on) re-checks after this long, unless the pending set says sooner. */
export const BLIND_WAKE_SECONDS = 300;
/** A wake only reads results, decides or submits: minutes, one CPU and a little memory are plenty. */
const WAKE_MINUTES = 10;
const WAKE_MEM = "512M";

/**
 * The sbatch spec of the wake: `<self> resume --wake <run dir>` after the
 * pending jobs, or at a deadline — on the wake's own lane when the run has
 * one (`--wake-partition`, `--wake-qos`), asking for what a pass needs, and
 * exiting 0 whenever its pass ran (`--wake`): the verdict is in decision.json
 * and the log, and sacct does not show a parked or rejected run as FAILED.
 */
function wakeSpec(r: RunRecord, dir: RunDir, self: readonly string[], dependency: string, begin: string): JobSpec {
  return {
    jobName: wakeJobName(r.runTag, dir),
    account: r.account,
    partition: r.wakePartition || r.partition,
    ...(r.wakeQos === "" ? {} : { qos: r.wakeQos }),
    timeMinutes: WAKE_MINUTES,
    mem: WAKE_MEM,
    cpus: 1,
    // built from trusted parts only, every part quoted
    command: quoteCommand([...self, "resume", "--wake", dir.path]),
    output: dir.wakeLog,
    extra: ["--open-mode=append"],
    ...(dependency ? { dependency } : { begin }),
  };
}

/** What the wake functions need of the pass: how to run this program again, our environment, the clock. */
export interface WakeContext {
  readonly self: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
}

/**
 * Parks the run behind one wake job and records it in `wake.json`.
 *
 * One wake per run, found by NAME (`wakeJobName`), not by what `wake.json`
 * says: a wake whose sbatch succeeded but reported failure, or whose submitter
 * died before writing `wake.json`, is still in the queue and would run
 * `resume` later. So the queue is listed once, and:
 * - a queued wake that already waits on exactly these job ids (as `wake.json`
 *   records it, and still pending in the listing) is kept: nothing is
 *   submitted, so a manual `resume` of a parked run replaces nothing;
 * - otherwise a new wake is submitted (a deadline wake stands in when sbatch
 *   refuses the dependency: a pending id already left the controller's memory);
 * - then every other wake of this run that cannot start yet is cancelled,
 *   except the job we run inside (`ownJobId`: a wake resuming the run); a
 *   running wake, or one about to start, is left to end by itself
 *   (`cancelOthers`).
 * When the queue cannot be listed, a new wake is submitted and only the one
 * `wake.json` names is cancelled.
 */
export async function submitWake(
  compute: Compute,
  r: RunRecord,
  dir: RunDir,
  pending: MeasurementPending,
  ctx: WakeContext,
): Promise<WakeRecord> {
  const { self, env } = ctx;
  const name = wakeJobName(r.runTag, dir);
  const previous = readWakeRecord(dir);
  const listing = await listed(compute);
  const live = listing && (listing.get(name) ?? []);
  const kept = previous && live ? keepable(previous, pending, live, ownJobId(env)) : null;
  if (kept) {
    log.info(`wake job ${kept.jobId} already waits on ${kept.dependency ?? kept.begin}: kept`);
    await cancelOthers(compute, { jobs: live ?? [], listing, recorded: previous }, kept.jobId, env);
    return kept;
  }
  // Grid Engine's hold has no "or": only Slurm's wake also starts on a candidate's crash
  let dependency = r.compute === "slurm" ? pending.slurmDependency() : pending.afterany();
  const begin = `now+${pending.recheckSeconds ?? BLIND_WAKE_SECONDS}`;
  let jobId: string;
  try {
    jobId = await compute.submit(wakeSpec(r, dir, self, dependency, begin));
  } catch (err) {
    if (!(err instanceof SlurmError) || !dependency || !/depend/i.test(err.message)) throw err;
    log.warn(`the wake's dependency was refused (${err.message}); submitting a deadline wake instead`);
    dependency = "";
    jobId = await compute.submit(wakeSpec(r, dir, self, dependency, begin));
  }
  const wake: WakeRecord = {
    jobId,
    dependency: dependency || null,
    begin: dependency ? null : begin,
    submittedAt: new Date(ctx.now()).toISOString(),
    pending: [...pending.jobIds],
  };
  writeWakeRecord(dir, wake);
  const stale = live ?? (previous ? [{ id: previous.jobId }] : []);
  await cancelOthers(compute, { jobs: stale, listing, recorded: previous }, jobId, env);
  return wake;
}

/**
 * A decided run needs no wake: cancels every wake of the run that cannot
 * start yet but the one we run inside, so nothing of a decided run is left
 * queued (a deadline wake would otherwise run `resume` minutes later); a
 * wake running or about to start is left to find the run decided and end
 * COMPLETED (`cancelOthers`). Best effort: a queue that cannot be read is
 * left alone, with a warning. Nothing to do for a run that never parked, or
 * on the local backend.
 */
export async function retireWakes(compute: Compute, r: RunRecord, dir: RunDir, ctx: WakeContext): Promise<void> {
  const recorded = r.compute === "local" ? null : readWakeRecord(dir);
  if (recorded === null) return;
  const listing = await listed(compute);
  if (listing === null) {
    log.warn(`cannot list the queue to cancel the run's leftover wake jobs: they will find the run decided`);
    return;
  }
  const jobs = listing.get(wakeJobName(r.runTag, dir)) ?? [];
  await cancelOthers(compute, { jobs, listing, recorded }, "", ctx.env);
}

/** The queue, from one listing; null when it cannot be read. */
async function listed(compute: Compute): Promise<ReadonlyMap<string, readonly LiveJob[]> | null> {
  try {
    return await compute.activeJobs();
  } catch (err) {
    log.warn(`cannot list the queue for the run's wake jobs: ${(err as Error).message}`);
    return null;
  }
}

/**
 * The recorded wake, when it is still pending in the listing (and can still
 * start) and was submitted for exactly `pending`'s ids (none, for a blind
 * park's deadline wake); null when a new one is needed.
 */
function keepable(
  previous: WakeRecord,
  pending: MeasurementPending,
  live: readonly LiveJob[],
  selfId: string | undefined,
): WakeRecord | null {
  const job = live.find((j) => j.id === previous.jobId);
  if (!job || job.id === selfId || !isPending(job.state) || job.reason === "DependencyNeverSatisfied") return null;
  const same = [...pending.jobIds].sort().join(":") === [...previous.pending].sort().join(":");
  return same ? previous : null;
}

/** The wakes to cancel, with what tells whether each can start: the whole listing and the wake `wake.json` records. */
interface WakesSeen {
  readonly jobs: readonly { readonly id: string; readonly state?: string }[];
  /** The queue the jobs were listed from; null when it could not be read. */
  readonly listing: ReadonlyMap<string, readonly LiveJob[]> | null;
  readonly recorded: WakeRecord | null;
}

/**
 * Cancels each of the wakes seen that cannot start yet, but `keep` and the
 * job we run inside. A running wake is never cancelled: it is deciding, or
 * waiting for the run lock to do so, and finds the run as the pass leaves it
 * (its own pass then exits 0, so sacct shows it COMPLETED); a job whose
 * state the listing did not give is left alone for the same reason. So is
 * the recorded wake once every job it waits on has left the queue: its
 * dependency is met, the scheduler starts it at any moment, and a cancel
 * sent now would kill it as it runs (the pass that decides a run is usually
 * the one that saw its last eval end, the same moment the wake became free
 * to start).
 */
async function cancelOthers(
  compute: Compute,
  seen: WakesSeen,
  keep: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  for (const { id, state } of seen.jobs) {
    if (id === keep || id === ownJobId(env)) continue;
    if (state === undefined || !isPending(state)) {
      log.info(`wake job ${id} is ${state?.toLowerCase() ?? "in an unknown state"}: left to end by itself`);
      continue;
    }
    if (aboutToStart(id, seen)) {
      log.info(`wake job ${id} is about to start (the jobs it waits on have ended): left to end by itself`);
      continue;
    }
    log.info(`cancelling wake job ${id}: the run has ${keep ? `wake job ${keep}` : "been decided"}`);
    await compute.cancel(id);
  }
}

/** Whether wake `id` is the recorded dependency wake and none of the jobs it waits on is in the listing. */
function aboutToStart(id: string, { listing, recorded }: WakesSeen): boolean {
  if (listing === null || recorded === null || recorded.jobId !== id || recorded.dependency === null) return false;
  const waitedOn = new Set(recorded.pending);
  for (const jobs of listing.values()) {
    if (jobs.some((j) => waitedOn.has(j.id) || waitedOn.has(j.arrayId ?? splitRef(j.id).jobId))) return false;
  }
  return true;
}
