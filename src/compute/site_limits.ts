import type { SubmitRoom } from "./compute.ts";
import { DEFAULT_MAX_ARRAY_SIZE } from "./array.ts";

/**
 * A site's limits on submitted jobs, read from the controller: the pure
 * part of `submitRoom` and `maxArraySize`, tested on recorded output
 * (tests/fixtures/slurm_arrays/).
 *
 * What Slurm counts (22.05, probed on the testbed): a submit limit counts
 * the jobs that are pending or running (held ones too; not those that ended,
 * even while squeue still lists them), and EVERY array task as one job, the
 * pending ones still collapsed into one record included; an array that would
 * pass a limit is refused as a whole (nothing of it is queued). Limits are
 * enforced only when `AccountingStorageEnforce` has `limits` (or `safe`), and
 * only by a slurmctld started with it. They are:
 * - on the job's association (user, account, partition): `MaxSubmitJobs`
 *   (this user's jobs in it; inherited from the account when not set on the
 *   user, which the controller's record of the user already shows) and
 *   `GrpSubmitJobs` — and `GrpSubmitJobs` of every account above it (all
 *   users' jobs under that account);
 * - on the job's QOS (`--qos`, else the association's default):
 *   `MaxSubmitJobsPerUser`, `MaxSubmitJobsPerAccount`, `GrpSubmitJobs`.
 * The controller's association manager (`scontrol show assoc_mgr`) shows
 * each limit with its count as `LIMIT(COUNT)` (`N` = none); a QOS's per-user
 * and per-account limits only appear once the user or account has a count
 * there, so their values come from sacctmgr. A partition's own QOS
 * (`PartitionName=… QOS=`) is not read.
 */

/** `scontrol show config` → key → value. */
export function parseConfig(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z][A-Za-z0-9_]*)\s*=\s?(.*)$/.exec(line);
    if (m && !out.has(m[1]!)) out.set(m[1]!, m[2]!.trim());
  }
  return out;
}

/** MaxArraySize from a config (`DEFAULT_MAX_ARRAY_SIZE` when it says none). */
export function maxArraySizeOf(config: ReadonlyMap<string, string>): number {
  const v = config.get("MaxArraySize") ?? "";
  return /^[0-9]+$/.test(v) && Number(v) > 0 ? Number(v) : DEFAULT_MAX_ARRAY_SIZE;
}

/** Whether the controller enforces association and QOS limits (`limits`, or `safe`, which implies it). */
export function limitsEnforced(config: ReadonlyMap<string, string>): boolean {
  const words = (config.get("AccountingStorageEnforce") ?? "").split(",").map((w) => w.trim().toLowerCase());
  return words.includes("limits") || words.includes("safe");
}

/** A limit and what it counts now; `limit` null when none is set. */
interface Counted {
  readonly limit: number | null;
  readonly used: number;
}

/** One association record of the controller. */
export interface AssocRecord {
  readonly account: string;
  /** "" for an account's own record. */
  readonly user: string;
  /** The user's uid, or null for an account's record. */
  readonly uid: string | null;
  readonly partition: string;
  /** The parent account's name ("" for root and for users' records). */
  readonly parent: string;
  readonly maxSubmit: Counted | null;
  readonly grpSubmit: Counted | null;
}

/** One QOS record of the controller: its group count, and the per-user and per-account blocks it has. */
export interface QosRecord {
  readonly name: string;
  readonly grpSubmit: Counted | null;
  /** uid → this user's count under its per-user limit. */
  readonly perUser: ReadonlyMap<string, Counted>;
  /** account → its count under the per-account limit. */
  readonly perAccount: ReadonlyMap<string, Counted>;
}

/** `LIMIT(COUNT)` in `key=…` of a record (`N(3)`, `10(10)`); null when absent or empty. */
function counted(text: string, key: string): Counted | null {
  const m = new RegExp(`(?:^|[\\s{])${key}=(N|[0-9]+)\\(([0-9]+)\\)`).exec(text);
  if (!m) return null;
  return { limit: m[1] === "N" ? null : Number(m[1]), used: Number(m[2]) };
}

function field(text: string, key: string): string {
  return new RegExp(`(?:^|\\s)${key}=(\\S*)`).exec(text)?.[1] ?? "";
}

/** `scontrol -o show assoc_mgr flags=assoc,qos …` → its association and QOS records. */
export function parseAssocMgr(text: string): { assocs: AssocRecord[]; qos: QosRecord[] } {
  const assocs: AssocRecord[] = [];
  const qos: QosRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("ClusterName=")) {
      const who = /^(.*?)(?:\(([0-9]+)\))?$/.exec(field(line, "UserName"))!;
      assocs.push({
        account: field(line, "Account"),
        user: who[1]!,
        uid: who[2] ?? null,
        partition: field(line, "Partition"),
        parent: field(line, "ParentAccount").replace(/\([0-9]+\)$/, ""),
        maxSubmit: counted(line, "MaxSubmitJobs"),
        grpSubmit: counted(line, "GrpSubmitJobs"),
      });
    } else if (line.startsWith("QOS=")) {
      const blocks = (key: string, part: string) => {
        const out = new Map<string, Counted>();
        for (const m of part.matchAll(/(\S+)=\{([^}]*)\}/g)) {
          const c = counted(m[2]!, key);
          if (c) out.set(m[1]!, c);
        }
        return out;
      };
      const users = line.indexOf("User Limits=");
      const accounts = line.indexOf("Account Limits=");
      qos.push({
        name: field(line, "QOS").replace(/\([0-9]+\)$/, ""),
        grpSubmit: counted(line.slice(0, accounts < 0 ? undefined : accounts), "GrpSubmitJobs"),
        perUser: users < 0 ? new Map() : blocks("MaxSubmitJobsPU", line.slice(users)),
        perAccount: accounts < 0
          ? new Map()
          : blocks("MaxSubmitJobsPA", line.slice(accounts, users < 0 ? undefined : users)),
      });
    }
  }
  return { assocs, qos };
}

/** A QOS's submit limits as sacctmgr has them (null: none). */
export interface QosLimits {
  readonly maxSubmitPerUser: number | null;
  readonly maxSubmitPerAccount: number | null;
  readonly grpSubmit: number | null;
}

/** The sacctmgr format `parseQosLimits` reads. */
export const QOS_LIMIT_FIELDS = "Name,MaxSubmitPU,MaxSubmitPA,GrpSubmit";

/** `sacctmgr -n -P show qos format=QOS_LIMIT_FIELDS` → name → limits. */
export function parseQosLimits(text: string): Map<string, QosLimits> {
  const num = (v = "") => (/^[0-9]+$/.test(v.trim()) ? Number(v.trim()) : null);
  const out = new Map<string, QosLimits>();
  for (const line of text.split("\n")) {
    const [name = "", pu, pa, grp] = line.trim().split("|");
    if (name === "") continue;
    out.set(name, { maxSubmitPerUser: num(pu), maxSubmitPerAccount: num(pa), grpSubmit: num(grp) });
  }
  return out;
}

/** The sacctmgr format `defaultQos` reads. */
export const ASSOC_QOS_FIELDS = "Account,User,Partition,DefaultQOS,QOS";

/**
 * The QOS a job without `--qos` runs under, as slurmctld picks it: the
 * association's default QOS, else its only QOS, else `normal`. From
 * `sacctmgr -n -P show assoc where user=U account=A format=ASSOC_QOS_FIELDS`;
 * the partition's own association first.
 */
export function defaultQos(text: string, account: string, partition: string): string {
  const rows = text.split("\n").map((l) => l.trim().split("|")).filter((r) => r[0] === account && r.length >= 5);
  const row = rows.find((r) => r[2] === partition) ?? rows.find((r) => r[2] === "");
  if (!row) return "normal";
  const list = row[4]!.split(",").filter((q) => q !== "");
  return row[3] || (list.length === 1 ? list[0]! : "normal");
}

/** What `roomFrom` weighs: the controller's records, the QOS's limits, and where the jobs would go. */
export interface RoomInputs {
  readonly assocs: readonly AssocRecord[];
  readonly qos: readonly QosRecord[];
  readonly qosLimits: ReadonlyMap<string, QosLimits>;
  readonly user: string;
  readonly account: string;
  readonly partition: string;
  readonly qosName: string;
}

/**
 * The room the tightest submit limit leaves (`SubmitRoom`), or null when no
 * limit applies — or when the controller has no association of this user in
 * the account (then sbatch refuses the account itself, which no room helps).
 */
export function roomFrom(i: RoomInputs): SubmitRoom | null {
  const mine = i.assocs.filter((a) => a.user === i.user && a.account === i.account);
  const assoc = mine.find((a) => a.partition === i.partition) ?? mine.find((a) => a.partition === "");
  if (!assoc) return null;
  const rooms: SubmitRoom[] = [];
  const add = (c: Counted | null | undefined, limit: number | null | undefined, what: string, counts: string) => {
    const max = limit ?? c?.limit ?? null;
    if (max === null) return;
    const used = c?.used ?? 0;
    rooms.push({ jobs: Math.max(0, max - used), limit: `${what}=${max} ${counts} (${used} pending or running)` });
  };
  const inAccount = `of user ${i.user} in account ${i.account}`;
  add(assoc.maxSubmit, null, "MaxSubmitJobs", inAccount);
  add(assoc.grpSubmit, null, "GrpSubmitJobs", inAccount);
  const seen = new Set<string>();
  for (let a = i.account; a !== "" && !seen.has(a);) {
    seen.add(a);
    const rec = i.assocs.find((r) => r.account === a && r.user === "");
    if (!rec) break;
    add(rec.grpSubmit, null, "GrpSubmitJobs", `of account ${a}`);
    a = rec.parent;
  }
  const limits = i.qosLimits.get(i.qosName);
  const rec = i.qos.find((q) => q.name === i.qosName);
  if (limits) {
    const perUser = assoc.uid === null ? undefined : rec?.perUser.get(assoc.uid);
    add(perUser, limits.maxSubmitPerUser, "MaxSubmitJobsPerUser", `of QOS ${i.qosName} for user ${i.user}`);
    add(
      rec?.perAccount.get(i.account),
      limits.maxSubmitPerAccount,
      "MaxSubmitJobsPerAccount",
      `of QOS ${i.qosName} for account ${i.account}`,
    );
    add(rec?.grpSubmit, limits.grpSubmit, "GrpSubmitJobs", `of QOS ${i.qosName}`);
  }
  if (rooms.length === 0) return null;
  return rooms.reduce((a, b) => (b.jobs < a.jobs ? b : a));
}
