import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Compute } from "../compute/compute.ts";
import { LaneRefusedError } from "../compute/errors.ts";
import type { JobSpec } from "../compute/job_spec.ts";
import { BadInputError } from "../errors.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";

/**
 * What a fresh run's first pass submitted: how many submissions went
 * through, and the spec of the one the scheduler refused for its account,
 * partition or QOS.
 */
export interface FirstSubmits {
  /** `compute`, counting. */
  readonly compute: Compute;
  sent(): number;
  refused(): JobSpec | null;
}

/** `compute` with its submissions counted and a lane refusal's spec kept. */
export function watchSubmits(compute: Compute): FirstSubmits {
  let sent = 0;
  let refused: JobSpec | null = null;
  const counted =
    (verb: (spec: JobSpec, ...rest: never[]) => Promise<string>) =>
    async (spec: JobSpec, ...rest: never[]): Promise<string> => {
      try {
        const id = await verb(spec, ...rest);
        sent++;
        return id;
      } catch (err) {
        if (err instanceof LaneRefusedError) refused = spec;
        throw err;
      }
    };
  const proxy = new Proxy(compute, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const bound = value.bind(target);
      return key === "submit" || key === "submitArray" ? counted(bound) : bound;
    },
  });
  return { compute: proxy, sent: () => sent, refused: () => refused };
}

/** The entries of a run dir before the run is frozen in it; null when it holds a run.json already. */
export function freshEntries(dir: RunDir): ReadonlySet<string> | null {
  if (existsSync(dir.runRecord)) return null;
  return new Set(readdirSync(dir.path));
}

/**
 * What a fresh run's first pass that failed leaves: when the scheduler
 * refused its account, partition or QOS before any job of it was submitted,
 * the run is bad input, not an outage — no wait or `resume` changes a name
 * frozen in run.json — so everything the start wrote into the run dir is
 * removed (run.json, the eval dirs; the run lock is its holder's to remove)
 * and a BadInputError names the flag, so `measure` with the right value
 * works on the same run dir. Any other failure is returned as it was.
 */
export function refusedStart(
  dir: RunDir,
  r: RunRecord,
  before: ReadonlySet<string> | null,
  watch: FirstSubmits,
  err: unknown,
): unknown {
  const spec = watch.refused();
  if (before === null || spec === null || watch.sent() > 0 || !(err instanceof LaneRefusedError)) return err;
  for (const name of readdirSync(dir.path)) {
    // the lock and its companions are the lock's holder's (this pass) to remove
    if (!before.has(name) && name !== "lock" && !name.startsWith("lock.")) {
      rmSync(join(dir.path, name), { recursive: true, force: true });
    }
  }
  const { flag, variable, value } = laneFlag(r, spec, err.lane);
  const list = err.lane === "account"
    ? `"sacctmgr show assoc user=$USER format=account,partition" lists the ones you may use`
    : err.lane === "qos"
    ? `"sacctmgr show assoc user=$USER format=account,qos" lists the ones you may use`
    : r.compute === "sge"
    ? `"qconf -sql" lists the queues`
    : `"sinfo -s" lists the partitions`;
  return new BadInputError(
    `${flag} ${JSON.stringify(value)} was refused by the scheduler (${err.words}): nothing of the run was kept ` +
      `or submitted; run the same command with the right ${flag} (or ${variable}) on the same --run-dir (${list})`,
    { cause: err },
  );
}

/** The flag and variable that gave the refused submission's account, partition or QOS, and its value. */
function laneFlag(
  r: RunRecord,
  spec: JobSpec,
  lane: LaneRefusedError["lane"],
): { flag: string; variable: string; value: string } {
  const lanes = (flag: string, variable: string, value: string) => ({ flag, variable, value });
  if (lane === "qos") return lanes("--wake-qos", "OUTERLOOP_WAKE_QOS", spec.qos ?? r.wakeQos);
  if (lane === "account") {
    return spec.account === r.gpuAccount && r.gpuAccount !== r.account
      ? lanes("--gpu-account", "OUTERLOOP_GPU_ACCOUNT", spec.account)
      : lanes("--account", "OUTERLOOP_ACCOUNT", spec.account);
  }
  const other = (p: string) => p !== "" && p !== r.partition && spec.partition === p;
  if (other(r.wakePartition)) return lanes("--wake-partition", "OUTERLOOP_WAKE_PARTITION", spec.partition);
  if (other(r.gpuPartition)) return lanes("--gpu-partition", "OUTERLOOP_GPU_PARTITION", spec.partition);
  return lanes("--partition", "OUTERLOOP_PARTITION", spec.partition);
}
