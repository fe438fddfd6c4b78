/**
 * Grid Engine's answers, parsed: pure functions over the text of `qsub
 * -terse`, `qstat -xml` and `qacct -j` as Son of Grid Engine 8.1.9 prints them
 * (recorded in tests/fixtures/sge/). GE numbers array tasks from 1; outside
 * the backend a task is Slurm-style `A_T` with T from 0, so every task here
 * is mapped T = GE task − 1 on the way out.
 */
import type { LiveJob } from "./compute.ts";
import { expandIndices } from "./array.ts";

/** `qsub -terse`'s job id: `4` for a job, `3.1-6:1` for an array (its id is `3`); null when it printed none. */
export function parseQsubId(stdout: string): string | null {
  const line = stdout.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
  return /^([0-9]+)(?:\.[0-9]+-[0-9]+:[0-9]+)?$/.exec(line)?.[1] ?? null;
}

/** One `<job_list>` of `qstat -xml`: a job, or one row of an array (its `tasks` as GE prints them). */
export interface QstatRow {
  readonly jobNumber: string;
  readonly name: string;
  readonly owner: string;
  /** GE's state letters: `qw`, `hqw`, `r`, `t`, `Rq`, `Eqw`, `dr`, `z`, … */
  readonly state: string;
  readonly queue: string;
  /** `1`, `3-6:1`, `4-8:1,10` (GE's 1-based task ids); null for a plain job. */
  readonly tasks: string | null;
}

const XML_ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (e) => XML_ENTITIES[e]!);
}

function field(block: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>|<${tag}/>`).exec(block);
  return m === null ? null : unescapeXml(m[1] ?? "");
}

/** The rows of `qstat -xml` (running ones first, as GE lists them). Throws when the text is not a qstat answer. */
export function parseQstatXml(xml: string): QstatRow[] {
  if (!/<job_info[\s>]/.test(xml)) throw new SyntaxError("qstat -xml printed no <job_info>");
  const rows: QstatRow[] = [];
  for (const m of xml.matchAll(/<job_list[^>]*>([\s\S]*?)<\/job_list>/g)) {
    const block = m[1]!;
    const jobNumber = field(block, "JB_job_number");
    if (jobNumber === null || !/^[0-9]+$/.test(jobNumber)) continue;
    rows.push({
      jobNumber,
      name: field(block, "JB_name") ?? "",
      owner: field(block, "JB_owner") ?? "",
      state: field(block, "state") ?? "",
      queue: field(block, "queue_name") ?? "",
      tasks: field(block, "tasks"),
    });
  }
  return rows;
}

/**
 * What a GE state means in the states the rest of outerloop knows
 * (states.ts): `qw` and the holds wait (PENDING), `r`/`t` run, `Rq`/`Rr`
 * (rescheduled) are pending or running again, `d…` is being deleted
 * (COMPLETING: not over yet), `s`/`S`/`T` suspended, `E…` is an error
 * state in which GE keeps the job queued and holds its dependents (PENDING,
 * with a reason that says so: `qstat -j` tells why).
 */
export function liveState(ge: string): { readonly state: string; readonly reason: string } {
  if (ge.includes("E")) return { state: "PENDING", reason: "GE error state (Eqw): see qstat -j" };
  if (ge.includes("d")) return { state: "COMPLETING", reason: "" };
  if (/[sST]/.test(ge)) return { state: "SUSPENDED", reason: "" };
  if (/[rt]/.test(ge)) return { state: "RUNNING", reason: "None" };
  if (ge.includes("h")) return { state: "PENDING", reason: "Dependency" };
  if (ge.includes("w")) return { state: "PENDING", reason: "Resources" };
  return { state: ge === "" ? "" : "PENDING", reason: "" };
}

/**
 * The live jobs of one listing by name, array tasks one row each with id
 * `A_T` (T = GE task − 1; a pending range `4-10:1` is expanded). A row
 * whose tasks cannot be read is kept as the array itself (id A, no task).
 */
export function liveJobs(rows: readonly QstatRow[]): Map<string, LiveJob[]> {
  const out = new Map<string, LiveJob[]>();
  // pushed, not copied: an array of a thousand tasks lists one name a thousand times
  const add = (j: LiveJob) => {
    const same = out.get(j.name);
    if (same === undefined) out.set(j.name, [j]);
    else same.push(j);
  };
  for (const r of rows) {
    const { state, reason } = liveState(r.state);
    const base = { name: r.name, state, reason, partition: r.queue.split("@")[0] ?? "", script: "" };
    const tasks = r.tasks === null ? null : expandIndices(r.tasks);
    if (r.tasks === null) add({ ...base, id: r.jobNumber, arrayId: null, taskId: null });
    else if (tasks === null) add({ ...base, id: r.jobNumber, arrayId: r.jobNumber, taskId: null });
    else for (const t of tasks) add({ ...base, id: `${r.jobNumber}_${t - 1}`, arrayId: r.jobNumber, taskId: t - 1 });
  }
  return out;
}

/** One accounting record of `qacct -j` (a rescheduled job has several, in the order it ran). */
export interface QacctRecord {
  readonly jobNumber: string;
  /** The GE task id (1-based); null for a plain job (`undefined`). */
  readonly geTask: number | null;
  readonly jobName: string;
  /** `failed`'s code: 0 when GE saw nothing wrong. */
  readonly failed: number;
  /** `failed`'s words (`qmaster enforced h_rt, h_cpu, or h_vmem limit`). */
  readonly failedText: string;
  readonly exitStatus: number;
  readonly fields: ReadonlyMap<string, string>;
}

/** The records of `qacct -j` (blocks under a line of `=`). */
export function parseQacct(text: string): QacctRecord[] {
  const out: QacctRecord[] = [];
  for (const block of text.split(/^=+\s*$/m)) {
    const fields = new Map<string, string>();
    for (const line of block.split("\n")) {
      const m = /^([a-z_]+)\s+(.*?)\s*$/.exec(line);
      if (m) fields.set(m[1]!, m[2]!);
    }
    const jobNumber = fields.get("jobnumber");
    if (jobNumber === undefined || !/^[0-9]+$/.test(jobNumber)) continue;
    const failed = /^([0-9]+)\s*(?::\s*(.*))?$/.exec(fields.get("failed") ?? "0");
    const task = fields.get("taskid") ?? "undefined";
    out.push({
      jobNumber,
      geTask: /^[0-9]+$/.test(task) ? Number(task) : null,
      jobName: fields.get("jobname") ?? "",
      failed: failed ? Number(failed[1]) : 0,
      failedText: failed?.[2] ?? "",
      exitStatus: Number(/^-?[0-9]+/.exec(fields.get("exit_status") ?? "0")?.[0] ?? "0"),
      fields,
    });
  }
  return out;
}

/** The outerloop ref of a record: `A` for a job, `A_T` (T = GE task − 1) for an array task. */
export function recordRef(r: QacctRecord): string {
  return r.geTask === null ? r.jobNumber : `${r.jobNumber}_${r.geTask - 1}`;
}

/** GE's `failed` codes (sge_status(5), sge_shepherd) that end a job. */
const FAILED_TIMEOUT = 37; // qmaster enforced h_rt, h_cpu, or h_vmem limit
const FAILED_KILLED = 100; // assumedly after job: qdel of a running job (exit_status 137)
const FAILED_RESCHEDULING = 25; // exit 99, or a rescheduled job: it runs again
const FAILED_APPLICATION = 30; // exit 100: the job is put in Eqw, it stays queued

/**
 * The state a record ends the job in, or null when the record does not end
 * it (exit 99 or 100: GE runs it again or keeps it queued in error — the
 * job wrapper maps both away, so only a job submitted without it gets here).
 */
export function endState(r: QacctRecord): string | null {
  if (r.failed === FAILED_RESCHEDULING || r.failed === FAILED_APPLICATION) return null;
  if (r.failed === FAILED_TIMEOUT) return "TIMEOUT";
  if (r.failed === FAILED_KILLED) return "CANCELLED";
  if (r.failed !== 0) return "FAILED";
  return r.exitStatus === 0 ? "COMPLETED" : "FAILED";
}

/** The last record of each ref (a rescheduled job's latest run). */
export function lastRecords(records: readonly QacctRecord[]): Map<string, QacctRecord> {
  const out = new Map<string, QacctRecord>();
  for (const r of records) out.set(recordRef(r), r);
  return out;
}

/** Seconds from `ru_wallclock` (`12s`, `12`, `0.5s`); null when absent. */
export function wallclockSeconds(r: QacctRecord): number | null {
  const m = /^([0-9.]+)s?$/.exec(r.fields.get("ru_wallclock") ?? "");
  return m ? Number(m[1]) : null;
}

/** A qacct size (`4.520KB`, `1.2M`, `0.000B`) in bytes; null when unreadable. */
export function sizeBytes(text: string | undefined): number | null {
  const m = /^([0-9.]+)\s*([KMGT]?)B?$/i.exec(text ?? "");
  if (!m) return null;
  const unit = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[m[2]!.toUpperCase()]!;
  return Math.round(Number(m[1]) * unit);
}
