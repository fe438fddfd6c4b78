import { log } from "../log.ts";
import type { SpawnResult } from "../runtime/spawn_types.ts";
import { safeText } from "../text/terminal.ts";
import { SlurmError, SlurmQueryError } from "./errors.ts";
import type { Retries } from "./retry.ts";
import { failureOf, type Runner } from "./runner.ts";
import { parseSbatchId } from "./slurm_parse.ts";
import { sbatchRefusal } from "./submit_limit.ts";
import { classifyFailure, type FailureKind } from "./transient.ts";

/**
 * How far before a submission its lookup by name reaches: the controller
 * stamps the submit time in whole seconds, on its own clock.
 */
const LOOKUP_MARGIN_MS = 2000;
/** Clean "not there" answers (queue and accounting) needed before an sbatch that may have worked is tried again. */
const LOOKUP_ROUNDS = 2;

/** What a submission needs of its Slurm client: how to run sbatch, the retry state, and the lookup by name. */
export interface SubmitContext {
  readonly runner: Runner;
  readonly timeoutMs: number;
  readonly retries: Retries;
  /** `SlurmCompute.findSubmitted`: ids (an array's by its array id) of this user's jobs named so, since then. */
  readonly findSubmitted: (name: string, since: Date) => Promise<string[]>;
}

/**
 * One sbatch of `argv` — a job, or an array — named `name`; the id it
 * printed, logged as `as(id)` says. A refusal is never retried (a submit
 * limit's is a SubmitLimitError: `submit_limit.ts`); a transient failure is,
 * as `retry.ts` says — but one that may have submitted anyway ("Socket timed
 * out on send/recv operation") only once the job was looked up by name, in
 * the queue and in accounting, since the first try began, and not found: one
 * call makes at most one job (or array) of its name.
 */
export async function sbatchWithCare(
  ctx: SubmitContext,
  argv: string[],
  name: string,
  as: (id: string) => string,
): Promise<string> {
  const retries = ctx.retries;
  const started = retries.now();
  const since = new Date(started - LOOKUP_MARGIN_MS);
  for (let attempt = 1;; attempt++) {
    let result: SpawnResult;
    try {
      result = await ctx.runner(argv, ctx.timeoutMs);
    } catch (err) {
      throw new SlurmError(`sbatch did not run: ${(err as Error).message}`, { cause: err });
    }
    let why: string;
    let kind: FailureKind;
    if (result.exitCode === 0 && !result.timedOut) {
      const jobId = parseSbatchId(result.stdout);
      if (jobId !== null) {
        retries.succeeded();
        log.info(`submitted ${name} as ${as(jobId)}`);
        return jobId;
      }
      // it says it submitted: the job may well exist
      why = `returned no job id: ${safeText(JSON.stringify(result.stdout.trim()), 500)}`;
      kind = "maybe-sent";
    } else {
      why = failureOf(result, ctx.timeoutMs);
      kind = classifyFailure(result);
      if (kind === "final") throw sbatchRefusal(result.stderr, why);
    }
    if (kind === "maybe-sent") {
      const found = await lookUp(ctx, name, since, attempt);
      if (typeof found === "string") {
        log.warn(`sbatch ${why}; but job ${found} named ${name} was submitted: using it`);
        return found;
      }
      if (found.kind === "unknown") {
        throw new SlurmError(
          `sbatch ${why}; whether job ${name} was submitted cannot be told (${found.why}), ` +
            "so it is not submitted again: a later pass finds it by name if it exists",
        );
      }
    }
    if (!retries.mayRetry(attempt, started)) throw new SlurmError(`sbatch ${why} ${retries.giveUp(attempt)}`);
    const wait = retries.backoff(attempt);
    log.info(`sbatch ${why.split("\n")[0]}; submitting ${name} again in ${wait} ms (try ${attempt + 1})`);
    await retries.sleep(wait);
  }
}

/**
 * Whether an sbatch that may have worked did: the id of this user's job
 * named `name` submitted since `since` (the queue first, then accounting
 * for a job that already ended), or "absent" after LOOKUP_ROUNDS clean
 * rounds that found none — one empty answer is not proof — or "unknown".
 */
async function lookUp(
  ctx: SubmitContext,
  name: string,
  since: Date,
  attempt: number,
): Promise<string | { kind: "absent" } | { kind: "unknown"; why: string }> {
  let clean = 0;
  let why = "";
  for (let round = 1; round <= LOOKUP_ROUNDS + 1 && clean < LOOKUP_ROUNDS; round++) {
    await ctx.retries.sleep(ctx.retries.backoff(attempt + round - 1));
    try {
      const ids = await ctx.findSubmitted(name, since);
      if (ids.length > 0) {
        if (ids.length > 1) log.warn(`several jobs named ${name} since the submission: ${ids.join(", ")}`);
        return ids[0]!;
      }
      clean++;
    } catch (err) {
      if (!(err instanceof SlurmQueryError)) throw err;
      why = err.message;
    }
  }
  return clean >= LOOKUP_ROUNDS ? { kind: "absent" } : { kind: "unknown", why };
}
