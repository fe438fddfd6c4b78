// Tested by tests/run/watch_test.ts
import { rmSync } from "node:fs";
import * as z from "zod/mini";
import { lazy, strict } from "../schema/zod.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile } from "./run_record.ts";

/**
 * `failure.json`: the evaluation failure that ended a run. The first pass
 * that meets the failure (exit 3) records it — the measure, the job it ran
 * in, how it failed and the cause, and the message with the output's tail —
 * and `show`, `wait`, `runs` and the reports read the run as failed from the
 * files alone, without asking the scheduler, naming the same measure, job
 * and cause. The first failure is kept: later passes meet the same one.
 * `job_id`, `kind` and `cause` are absent from a file written before they
 * were kept (read as null).
 */

const facts = lazy(() => ({
  measure: z.nullable(z.string()),
  job_id: z.optional(z.nullable(z.string())),
  kind: z.optional(z.nullable(z.string())),
  cause: z.optional(z.nullable(z.string())),
  message: z.string(),
  failed_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
}));

const failureSchema = lazy(() => strict(facts()));

/** Why and when a run failed. */
export interface RunFailure {
  /** The measure whose eval failed, or null when the message names none of the run's. */
  readonly measure: string | null;
  /** The job or array task (`A_T`) it ran in; null when it had none, or the failure was recorded without it. */
  readonly jobId: string | null;
  /** How it failed (measure/look_results.ts `FailureKind`: `exit`, `no-metric`, `lost`, …); null when unknown. */
  readonly kind: string | null;
  /** The cause in one line (`eval command exited with code 1`); null when unknown. */
  readonly cause: string | null;
  /**
   * The failure's message as the pass met it: its first line says what went
   * wrong, and the lines after it, when the job left output, are the tail of
   * that output (escaped and capped by the reader of the result), so `show`
   * and `wait` can say why without opening the eval dir. A failure.json
   * written before the tail was kept holds the first line alone.
   */
  readonly message: string;
  /** When the pass met it (ISO 8601). */
  readonly failedAt: string;
}

/**
 * The failure an EvalError's message describes, when nothing but the
 * message is known: the whole message (the output's tail included), and the
 * measure its first line names (`measure <name>: …` or `measure <name> was
 * …`), the longest of `measures` that fits, since a sibling's name may hold
 * spaces; no job, kind or cause.
 */
export function failureFrom(message: string, measures: readonly string[], now: number): RunFailure {
  const first = failureHeadline(message);
  const named = measures
    .filter((m) => first.startsWith(`measure ${m}:`) || first.startsWith(`measure ${m} `))
    .sort((a, b) => b.length - a.length)[0];
  return {
    measure: named ?? null,
    jobId: null,
    kind: null,
    cause: null,
    message: message.trimEnd(),
    failedAt: new Date(now).toISOString(),
  };
}

/** The failure's keys as failure.json, `show --json` and every `--json` error give them. */
export function failureJson(f: RunFailure) {
  return {
    measure: f.measure,
    job_id: f.jobId,
    kind: f.kind,
    cause: f.cause,
    message: f.message,
    failed_at: f.failedAt,
  };
}

function fromJson(j: z.infer<ReturnType<typeof failureSchema>>): RunFailure {
  return {
    measure: j.measure,
    jobId: j.job_id ?? null,
    kind: j.kind ?? null,
    cause: j.cause ?? null,
    message: j.message,
    failedAt: j.failed_at,
  };
}

/** A failure message's first line: what went wrong, without the output's tail (for one-line views). */
export function failureHeadline(message: string): string {
  return message.split("\n")[0] ?? "";
}

/** The message with `note` added to its first line, before the output's tail. */
export function withHeadlineNote(message: string, note: string): string {
  const [first = "", ...rest] = message.split("\n");
  return [`${first} ${note}`, ...rest].join("\n");
}

/** Records the failure, atomically, unless one is recorded already (the first one ended the run). */
export function writeFailure(dir: RunDir, f: RunFailure): void {
  if (readFailure(dir) !== null) return;
  atomicWriteJson(dir.failure, failureJson(f));
}

/** The recorded failure, or null; a damaged file is a `RunRecordError` naming it, left as it is. */
export function readFailure(dir: RunDir): RunFailure | null {
  const j = readRunFile(dir.failure, failureSchema, "failure record");
  return j === null ? null : fromJson(j);
}

const historySchema = lazy(() =>
  strict({
    failures: z.array(strict({
      ...facts(),
      retried_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
    })),
  })
);

/** A failure a `resume --retry-failed` took the run up after: the failure, and when it was retried. */
export interface RetiredFailure extends RunFailure {
  readonly retriedAt: string;
}

/** The failures the run was taken up after, oldest first (`failure-history.json`); [] when none. */
function readFailureHistory(dir: RunDir): RetiredFailure[] {
  const j = readRunFile(dir.failureHistory, historySchema, "failure history");
  return (j?.failures ?? []).map((f) => ({ ...fromJson(f), retriedAt: f.retried_at }));
}

/**
 * Takes the run's failure off (`resume --retry-failed`, once its cause is
 * fixed): the failure goes into `failure-history.json` first, then
 * `failure.json` is removed, so a crash between the two leaves the failure
 * in both, never in neither. The failure retired, or null when there was none.
 */
export function retireFailure(dir: RunDir, now: number): RunFailure | null {
  const f = readFailure(dir);
  if (f === null) return null;
  const history = [...readFailureHistory(dir), { ...f, retriedAt: new Date(now).toISOString() }];
  atomicWriteJson(dir.failureHistory, {
    failures: history.map((h) => ({ ...failureJson(h), retried_at: h.retriedAt })),
  });
  rmSync(dir.failure, { force: true });
  return f;
}
