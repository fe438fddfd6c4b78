import { isTerminal } from "./states.ts";
import { parseElapsed } from "./elapsed.ts";

/**
 * What a finished job used, as sacct accounts it: the figures `seff` shows
 * and the two limits they are compared with. Every figure is null when the
 * scheduler does not say (a site without per-step accounting has no MaxRSS;
 * the local backend knows only how long a job ran).
 */
export interface JobUsage {
  readonly jobId: string;
  /** The job's state (`COMPLETED`, `TIMEOUT`, …); "" when unknown. */
  readonly state: string;
  /** Seconds it ran (sacct Elapsed). */
  readonly elapsedS: number | null;
  /** The walltime it had, in seconds (Timelimit); null when unlimited or unknown. */
  readonly timelimitS: number | null;
  /** The largest resident set of any of its steps, in bytes (MaxRSS of `.batch`, `.0`, …). */
  readonly maxRssBytes: number | null;
  /** The memory it asked for, in bytes (ReqMem, for the whole job). */
  readonly reqMemBytes: number | null;
  /** CPUs it was given (AllocCPUS). */
  readonly allocCpus: number | null;
  /** CPU seconds its processes used (TotalCPU, user + system). */
  readonly totalCpuS: number | null;
  /**
   * TotalCPU / (Elapsed × AllocCPUS), as `seff` computes it: 1 = every CPU
   * busy the whole time; never above 1. sacct has no elapsed finer than a
   * whole second (Elapsed, ElapsedRaw, Start and End all count seconds),
   * while TotalCPU counts milliseconds: a one-CPU job that computed for 1.6 s
   * within Elapsed `00:00:01` would read 160%. The ratio is capped at 1
   * (all it asked for, busy) rather than shown above what the job was given.
   */
  readonly cpuEfficiency: number | null;
}

/** The sacct fields `parseUsage` reads, in order (`sacct -o …`, without `-X` so the steps come too). */
export const USAGE_FIELDS = "JobID,State,Elapsed,Timelimit,TotalCPU,AllocCPUS,ReqMem,MaxRSS";

/** A usage with only what the local backend knows: how long the job ran. */
export function elapsedOnly(jobId: string, state: string, elapsedS: number | null): JobUsage {
  return {
    jobId,
    state,
    elapsedS,
    timelimitS: null,
    maxRssBytes: null,
    reqMemBytes: null,
    allocCpus: null,
    totalCpuS: null,
    cpuEfficiency: null,
  };
}

/**
 * `sacct -o JobID,State,Elapsed,Timelimit,TotalCPU,AllocCPUS,ReqMem,MaxRSS
 * --parsable2 --noheader` (with steps) → job id → usage. The job's own line
 * gives the state, the times, the CPUs and the request; its steps
 * (`123.batch`, `123.extern`, `123.0`) give MaxRSS, of which the largest is
 * kept. TotalCPU is the job line's (sacct sums the steps there), or the
 * steps' sum when the job line has none.
 *
 * TotalCPU comes from the kernel's accounting of the finished processes,
 * MaxRSS from samples taken while they run (every JobAcctGatherFrequency
 * seconds): a job shorter than one sample has a TotalCPU and no MaxRSS
 * (seen on the testbed for every sub-second job: `00:00.042`, MaxRSS
 * blank), so a non-zero TotalCPU counts on its own. Only a TotalCPU of zero
 * with no MaxRSS anywhere is read as "not measured", not "idle" (a site
 * without per-step accounting, `JobAcctGatherType=jobacct_gather/none`): null.
 *
 * A record is left out — not known yet, asked again later — while it is not
 * final: a job line without a Timelimit (every job has one: a duration,
 * `UNLIMITED`, `Partition_Limit`) is a record whose start has not reached the
 * accounting database yet — seen on a real slurmdbd for a second or two
 * after a short job ends, `COMPLETED` with no limit and a ReqMem of `16?`;
 * and a job not over yet (Slurm 24.11 accounts a job PENDING the moment it
 * is submitted), a job whose step is still running, or a completed job with
 * no step yet, has its figures still to come (the step's end, which carries MaxRSS,
 * reaches the database on its own message). Kept too early, the blanks
 * would stay in decision.json for good.
 */
export function parseUsage(stdout: string): Map<string, JobUsage> {
  interface Acc {
    job: string[] | null;
    stepCpu: number;
    maxRss: number | null;
    anyRss: boolean;
    steps: number;
    /** A step whose state is not terminal yet (RUNNING, PENDING, …). */
    stepOpen: boolean;
  }
  const jobs = new Map<string, Acc>();
  for (const raw of stdout.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const f = line.split("|");
    const [id = "", ...rest] = f;
    // a job (`123`, steps `123.batch`) or an array task (`123_4`, steps `123_4.batch`); not a collapsed `123_[5-9]`
    const m = /^([0-9]+(?:_[0-9]+)?)(?:\.(.+))?$/.exec(id);
    if (!m || rest.length < 7) continue;
    const acc = jobs.get(m[1]!) ?? { job: null, stepCpu: 0, maxRss: null, anyRss: false, steps: 0, stepOpen: false };
    jobs.set(m[1]!, acc);
    if (m[2] === undefined) {
      acc.job ??= f;
      continue;
    }
    acc.steps += 1;
    if (!isTerminal((f[1] ?? "").trim())) acc.stepOpen = true;
    const rss = parseMemory(f[7] ?? "");
    if (rss !== null) {
      acc.anyRss = true;
      acc.maxRss = Math.max(acc.maxRss ?? 0, rss);
    }
    acc.stepCpu += parseCpuTime(f[4] ?? "") ?? 0;
  }
  const out = new Map<string, JobUsage>();
  for (const [jobId, acc] of jobs) {
    if (acc.job === null) continue;
    const [, state = "", elapsed = "", limit = "", cpu = "", cpus = "", reqMem = "", rss = ""] = acc.job;
    if (limit.trim() === "") continue; // the job's start has not reached the accounting database yet
    // figures still to come: the job itself not over (24.11 lists a job PENDING the moment it is submitted,
    // 22.05 only once it starts), a step still running, or a completed job with no step yet
    if (!isTerminal(state.trim()) || acc.stepOpen || (acc.steps === 0 && state.trim().startsWith("COMPLETED"))) {
      continue;
    }
    const elapsedS = parseElapsed(elapsed);
    const allocCpus = /^[0-9]+$/.test(cpus) ? Number(cpus) : null;
    const jobCpu = parseCpuTime(cpu);
    const measuredRss = acc.anyRss || parseMemory(rss) !== null;
    const cpuSeen = jobCpu !== null && jobCpu > 0 ? jobCpu : acc.stepCpu;
    const totalCpuS = cpuSeen > 0 || measuredRss ? cpuSeen : null;
    const maxRss = acc.maxRss ?? parseMemory(rss);
    out.set(jobId, {
      jobId,
      state: state.trim(),
      elapsedS,
      timelimitS: parseElapsed(limit),
      maxRssBytes: maxRss,
      reqMemBytes: parseReqMem(reqMem, allocCpus),
      allocCpus,
      totalCpuS,
      cpuEfficiency: totalCpuS !== null && elapsedS !== null && elapsedS > 0 && allocCpus !== null && allocCpus > 0
        ? Math.min(1, totalCpuS / (elapsedS * allocCpus)) // whole-second Elapsed: see JobUsage.cpuEfficiency
        : null,
    });
  }
  return out;
}

const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
  P: 1024 ** 5,
};

/**
 * Bytes in a sacct memory field: `76372K`, `1.50G`, `100M`, `2048` (bytes);
 * null for "" and anything else. sacct's units are binary (K = 1024).
 */
export function parseMemory(text: string): number | null {
  const m = /^([0-9]+(?:\.[0-9]+)?)([KMGTP]?)$/.exec(text.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

/**
 * Bytes a job asked for, from ReqMem: `2G` (the job's), or the older
 * `2Gn` (per node: one node here) and `512Mc` (per CPU: times AllocCPUS).
 */
export function parseReqMem(text: string, allocCpus: number | null): number | null {
  const t = text.trim();
  const m = /^(.*?)([nc]?)$/.exec(t)!;
  const bytes = parseMemory(m[1]!);
  if (bytes === null) return null;
  if (m[2] === "c") return allocCpus === null ? null : bytes * allocCpus;
  return bytes;
}

/**
 * Seconds in a sacct TotalCPU field: `MM:SS.mmm`, `HH:MM:SS` or
 * `D-HH:MM:SS` (fractions kept); null for anything else.
 */
export function parseCpuTime(text: string): number | null {
  const m = /^(.*?)(?:\.([0-9]+))?$/.exec(text.trim())!;
  const whole = parseElapsed(m[1]!);
  if (whole === null || m[1] === "") return null;
  return whole + (m[2] === undefined ? 0 : Number(`0.${m[2]}`));
}
