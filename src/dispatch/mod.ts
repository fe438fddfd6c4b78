/**
 * What one job runs: the eval job script (a fresh checkout of the pinned sha,
 * the command under `env -i`, its result, `exit-code` last and atomically),
 * the pair job script that runs a pair's eval scripts in one job, the files of
 * an eval dir, the job spec, reading a result, where and when it ran
 * (provenance), and pinning shas under `refs/dispatch/`.
 *
 * @module
 */
