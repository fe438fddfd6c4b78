import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log } from "../log.ts";
import { LaneRefusedError, SlurmError, SubmitLimitError } from "./errors.ts";
import type { JobSpec } from "./job_spec.ts";
import type { Retries } from "./retry.ts";
import { failureOf, type Runner } from "./runner.ts";
import { parseQsubId } from "./sge_parse.ts";
import { qsubArgv, shebang, WRAPPER } from "./sge_submit.ts";
import { classifySge } from "./sge_transient.ts";
import { laneRefusalOf } from "./submit_limit.ts";

/** How far before a submission a lookup by name reaches (GE stamps whole seconds). */
const LOOKUP_MARGIN_MS = 2000;

/** What a submission needs of its GE client: how to run qsub, the retry state, the PE, the lookup by name. */
export interface QsubContext {
  readonly runner: Runner;
  readonly timeoutMs: number;
  readonly retries: Retries;
  /** The parallel environment CPUs are asked from. */
  readonly pe: string;
  /** `SgeCompute.findSubmitted`: ids of this user's jobs named so, since then. */
  readonly findSubmitted: (name: string, since: Date) => Promise<string[]>;
}

/**
 * One qsub of the spec (an array when `array` is given) through the job
 * wrapper, written to a temp file that qsub spools (so it goes at once);
 * the id. A refusal is never retried (a per-user job limit's is a
 * SubmitLimitError); a failure that may have submitted (a timeout, or no id
 * printed) is looked up by name before another try, so one call makes at
 * most one job.
 */
export async function qsubWithCare(
  ctx: QsubContext,
  spec: JobSpec,
  as: (id: string) => string,
  array?: { readonly tasks: number; readonly throttle?: number },
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "outerloop-qsub-"));
  try {
    const wrapper = join(dir, "wrapper.sh");
    writeFileSync(wrapper, WRAPPER, { mode: 0o755 });
    const { retries } = ctx;
    const started = retries.now();
    const interpreter = spec.script ? shebang(firstLine(spec.script)) : [];
    const argv = qsubArgv(spec, { wrapper, interpreter, now: started, pe: ctx.pe, ...array });
    const since = new Date(started - LOOKUP_MARGIN_MS);
    for (let attempt = 1;; attempt++) {
      const result = await ctx.runner(argv, ctx.timeoutMs).catch((err) => {
        throw new SlurmError(`qsub did not run: ${(err as Error).message}`, { cause: err });
      });
      let why: string;
      if (result.exitCode === 0 && !result.timedOut) {
        const id = parseQsubId(result.stdout);
        if (id !== null) {
          retries.succeeded();
          log.info(`submitted ${spec.jobName} as ${as(id)}`);
          return id;
        }
        why = `returned no job id: ${JSON.stringify(result.stdout.trim().slice(0, 200))}`;
      } else why = failureOf(result, ctx.timeoutMs);
      const kind = result.exitCode === 0 ? "maybe-sent" : classifySge(result);
      if (kind === "final") {
        const limit = /Only [0-9]+ jobs are allowed per user|max_u_jobs|exceeds max_jobs|max_aj_tasks/.exec(
          result.stderr,
        );
        if (limit) throw new SubmitLimitError(`qsub ${why}`, limit[0]);
        const lane = laneRefusalOf(result.stderr);
        if (lane !== null) throw new LaneRefusedError(`qsub ${why}`, lane.lane, lane.words);
        throw new SlurmError(`qsub ${why}`);
      }
      if (kind === "maybe-sent") {
        await retries.sleep(retries.backoff(attempt));
        const found = await ctx.findSubmitted(spec.jobName, since).catch((err) => {
          throw new SlurmError(
            `qsub ${why}; whether job ${spec.jobName} was submitted cannot be told (${(err as Error).message}), ` +
              "so it is not submitted again: a later pass finds it by name if it exists",
          );
        });
        if (found.length > 0) {
          log.warn(`qsub ${why}; but job ${found[0]} named ${spec.jobName} was submitted: using it`);
          return found[0]!;
        }
      }
      if (!retries.mayRetry(attempt, started)) throw new SlurmError(`qsub ${why} ${retries.giveUp(attempt)}`);
      const wait = retries.backoff(attempt);
      log.info(`qsub ${why.split("\n")[0]}; submitting ${spec.jobName} again in ${wait} ms (try ${attempt + 1})`);
      await retries.sleep(wait);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first line of a script file ("" when it cannot be read: qsub then says why). */
function firstLine(path: string): string {
  try {
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.alloc(256);
      const n = readSync(fd, buf, 0, 256, 0);
      return buf.subarray(0, n).toString("utf8").split("\n")[0] ?? "";
    } finally {
      closeSync(fd);
    }
  } catch {
    return "";
  }
}
