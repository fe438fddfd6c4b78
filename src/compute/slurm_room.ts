import type { SubmitRoom, SubmitTarget } from "./compute.ts";
import {
  ASSOC_QOS_FIELDS,
  defaultQos,
  parseAssocMgr,
  parseQosLimits,
  QOS_LIMIT_FIELDS,
  roomFrom,
} from "./site_limits.ts";

/**
 * The room `user` has under the submit limits of a cluster that enforces
 * them (`SlurmCompute.submitRoom`; what is counted: `site_limits.ts`): the
 * controller's association manager for the association limits and every
 * count (`scontrol -o show assoc_mgr users=U flags=assoc,qos`: what it
 * enforces), sacctmgr for the QOS's limits and, when `target` names no QOS,
 * for the association's default QOS. `ask` runs one query and resolves to its
 * stdout (rejecting with a SlurmQueryError); `config` is `scontrol show
 * config`'s (its ClusterName).
 */
export async function roomUnderLimits(
  ask: (argv: string[]) => Promise<string>,
  user: string,
  config: ReadonlyMap<string, string>,
  target: SubmitTarget,
): Promise<SubmitRoom | null> {
  const { assocs, qos } = parseAssocMgr(
    await ask(["scontrol", "-o", "show", "assoc_mgr", `users=${user}`, "flags=assoc,qos"]),
  );
  const partition = target.partition ?? "";
  let qosName = target.qos ?? "";
  if (qosName === "") {
    const where = [`user=${user}`, `account=${target.account}`, `cluster=${config.get("ClusterName") ?? ""}`];
    const rows = await ask(["sacctmgr", "-n", "-P", "show", "assoc", "where", ...where, `format=${ASSOC_QOS_FIELDS}`]);
    qosName = defaultQos(rows, target.account, partition);
  }
  const qosLimits = parseQosLimits(
    await ask(["sacctmgr", "-n", "-P", "show", "qos", qosName, `format=${QOS_LIMIT_FIELDS}`]),
  );
  return roomFrom({ assocs, qos, qosLimits, user, account: target.account, partition, qosName });
}
