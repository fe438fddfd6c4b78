/**
 * The compute layer: the `Compute` interface every caller depends on — submit
 * (a job, or an array of tasks `A_T`: `array.ts`), status, one listing of
 * live jobs and tasks, batched states, cancel, resource use, a site's submit
 * limits (`site_limits.ts`, `submit_limit.ts`) —
 * with its three backends, Slurm (`slurm.ts`, over sbatch/squeue/sacct/scancel),
 * Grid Engine (`sge.ts`, over qsub/qstat -xml/qacct/qdel) and local
 * subprocesses (`local.ts`); the `JobSpec` and its sbatch argv;
 * job states; the fields users give a job, checked where they enter
 * (`job_fields.ts`); what a job's environment may hold (`job_env.ts`); which
 * scheduler failures are worth another try and how (`transient.ts`,
 * `retry.ts`). The rule everything rests on: a failed query is "unknown",
 * never "gone".
 *
 * @module
 */
