// Tested by tests/compute/cluster_test.ts
import { BadInputError } from "../errors.ts";
import { checkSchedulerName } from "./job_fields.ts";

/**
 * Slurm's multi-cluster flag (`-M` / `--clusters`, `SLURM_CLUSTERS`): which
 * cluster of a federation of controllers sharing one slurmdbd the jobs go
 * to. outerloop works on ONE cluster: the wake job depends on the evals'
 * jobs, and a dependency never crosses clusters (nor does a job id name a
 * job on another one). The cluster is named explicitly on every Slurm
 * command (`withCluster`), never through the environment, which a job's
 * commands do not carry (job_env.ts drops `SLURM_*`).
 */

/** The Slurm clients that take `-M`; sacctmgr (cluster-wide QOS records) and `id` do not. */
const CLUSTER_AWARE: ReadonlySet<string> = new Set(["sbatch", "squeue", "sacct", "scancel", "scontrol"]);

/**
 * The cluster named by `value` (from the flag or variable `from`), "" for
 * none; refused when it names several, or all, or holds white space.
 */
export function checkCluster(from: string, value: string): string {
  const name = checkSchedulerName(from, value.trim());
  if (name === "") return "";
  if (name.includes(",") || name.toLowerCase() === "all") {
    throw new BadInputError(
      `Invalid ${from} ${JSON.stringify(value)}: outerloop works on one cluster (the wake job depends on the ` +
        "evals' jobs, and a dependency cannot cross clusters); name the one to use",
    );
  }
  return name;
}

/** `argv` of a Slurm command with `-M cluster` after the command's name when it takes one; as is for "". */
export function withCluster(argv: readonly string[], cluster: string): string[] {
  if (cluster === "" || !CLUSTER_AWARE.has(argv[0] ?? "")) return [...argv];
  return [argv[0]!, "-M", cluster, ...argv.slice(1)];
}
