import { createHash } from "node:crypto";
import type { Compute } from "../compute/compute.ts";
import { SlurmError } from "../compute/errors.ts";
import type { JobSpec } from "../compute/job_spec.ts";
import { quoteCommand } from "../compute/quote.ts";
import { log } from "../log.ts";
import { codePointPrefix } from "../measure/identity.ts";
import type { MeasurementPending } from "../measure/pending.ts";
import type { RunDir } from "./run_dir.ts";
import type { RunRecord } from "./run_record.ts";
import { readWakeRecord, type WakeRecord, writeWakeRecord } from "./wake_record.ts";

/** A deadline wake (no ids to depend on) re-checks after this long. */
export const BLIND_WAKE_SECONDS = 300;
/** The wake only reads results and maybe submits: minutes are plenty. */
const WAKE_MINUTES = 15;

/** The wake job's name: readable run tag plus a hash of the run dir, so two runs never share one. */
export function wakeJobName(runTag: string, dir: RunDir): string {
  const h = createHash("sha1").update(dir.path).digest("hex").slice(0, 12);
  return `wake-${codePointPrefix(runTag, 10)}-${h}`;
}

/** The sbatch spec of the wake: `<self> resume <run dir>` after the pending jobs, or at a deadline. */
export function wakeSpec(r: RunRecord, dir: RunDir, self: readonly string[], dependency: string): JobSpec {
  return {
    jobName: wakeJobName(r.runTag, dir),
    account: r.account,
    partition: r.partition,
    timeMinutes: WAKE_MINUTES,
    // built from trusted parts only, every part quoted
    command: quoteCommand([...self, "resume", dir.path]),
    output: dir.wakeLog,
    extra: ["--open-mode=append"],
    ...(dependency ? { dependency } : { begin: `now+${BLIND_WAKE_SECONDS}` }),
  };
}

/**
 * Parks the run: submits the wake job and records it in `wake.json`. A wake
 * left queued by an earlier park is cancelled (unless it is the job running
 * us), so one wake stands per run. If sbatch refuses the dependency — a
 * pending id already left the controller's memory — a deadline wake stands in.
 */
export async function submitWake(
  compute: Compute,
  r: RunRecord,
  dir: RunDir,
  pending: MeasurementPending,
  ctx: {
    readonly self: readonly string[];
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly now: () => number;
  },
): Promise<WakeRecord> {
  const { self, env } = ctx;
  const previous = readWakeRecord(dir);
  let dependency = pending.afterany();
  let jobId: string;
  try {
    jobId = await compute.submit(wakeSpec(r, dir, self, dependency));
  } catch (err) {
    if (!(err instanceof SlurmError) || !dependency || !/depend/i.test(err.message)) throw err;
    log.warn(`the wake's dependency was refused (${err.message}); submitting a deadline wake instead`);
    dependency = "";
    jobId = await compute.submit(wakeSpec(r, dir, self, dependency));
  }
  const wake: WakeRecord = {
    jobId,
    dependency: dependency || null,
    begin: dependency ? null : `now+${BLIND_WAKE_SECONDS}`,
    submittedAt: new Date(ctx.now()).toISOString(),
    pending: [...pending.jobIds],
  };
  writeWakeRecord(dir, wake);
  if (previous && previous.jobId !== jobId && previous.jobId !== env["SLURM_JOB_ID"]) {
    await compute.cancel(previous.jobId);
  }
  return wake;
}
