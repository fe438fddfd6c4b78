/**
 * What one job runs: the eval job script (a fresh checkout of the pinned sha,
 * the command under `env -i`, its result, `exit-code` last and atomically),
 * the pair job script that runs a pair's eval scripts in one job, the files of
 * an eval dir, the job spec, reading a result, where and when it ran
 * (provenance), and pinning shas under `refs/dispatch/`.
 *
 * @module
 */
export { EVAL_FILES, evalDirPath } from "./eval_files.ts";
export { EvalError } from "./eval_error.ts";
export { writeEvalJob } from "./write_eval_job.ts";
export { writePairJob } from "./pair_job.ts";
export { readEvalResult } from "./read_result.ts";
export { type Provenance, readProvenance } from "./provenance.ts";
export { pinSha, resolveRef } from "./pin.ts";
