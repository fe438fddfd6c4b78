// Tested by tests/run/watch_test.ts
import { formatDuration } from "../text/duration.ts";
import type { MeasureStateRow } from "../report/verdict_table.ts";

/**
 * What `wait` says while it waits: how many of the run's measures are done,
 * running and pending, how long it has waited, and the measure that has been
 * pending longest with the scheduler's reason — the one line a person needs
 * to tell "the queue is slow" from "something is wrong". Pure: the caller
 * passes the clock.
 */

/** The measures of a look by where they stand. */
export interface ProgressCounts {
  readonly total: number;
  readonly done: number;
  readonly running: number;
  readonly pending: number;
  /** Measures no job was sent for yet (a --smoke run's look, sent once its candidates ran once). */
  readonly notSent: number;
  readonly failed: number;
}

/** Counts the rows of `runStatus`: a measure not yet dispatched apart from a pending job's. */
export function countStates(rows: readonly MeasureStateRow[]): ProgressCounts {
  const n = (...states: string[]) => rows.filter((r) => states.includes(r.state)).length;
  return {
    total: rows.length,
    done: n("done"),
    running: n("running"),
    pending: n("pending"),
    notSent: n("not dispatched"),
    failed: n("failed", "crashed", "cancelled"),
  };
}

/** The measure pending longest, as `PendingTracker` saw it. */
export interface LongestPending {
  readonly measure: string;
  readonly jobId: string;
  /** The scheduler's reason (`Resources`, `Priority`, …); "" when it gave none. */
  readonly reason: string;
  /** Seconds since its job was submitted (else since this wait first saw it pending). */
  readonly seconds: number;
}

/**
 * Remembers, across polls, since when each pending measure has been out:
 * from its job's submission when the run dir tells it (`submittedMs`, the
 * marker's mtime: the listing does not say when a job was queued), else
 * from the first poll that saw it pending.
 */
export class PendingTracker {
  readonly #since = new Map<string, number>();

  /**
   * Takes one poll's rows at `now` (epoch ms), with when each measure's job
   * was submitted where known; the job pending longest, or null when none is.
   */
  see(
    rows: readonly MeasureStateRow[],
    now: number,
    submittedMs: Readonly<Record<string, number>> = {},
  ): LongestPending | null {
    const pending = rows.filter((r) => r.state === "pending" && r.jobId !== undefined);
    const key = (r: MeasureStateRow) => `${r.name}\0${r.jobId}`;
    const keys = new Set(pending.map(key));
    for (const k of [...this.#since.keys()]) if (!keys.has(k)) this.#since.delete(k);
    let longest: LongestPending | null = null;
    for (const r of pending) {
      // a submission after the clock's reading (a file server's skewed clock) is not believed
      const submitted = submittedMs[r.name];
      const since = submitted !== undefined && submitted <= now ? submitted : this.#since.get(key(r)) ?? now;
      this.#since.set(key(r), since);
      const seconds = (now - since) / 1000;
      if (longest === null || seconds > longest.seconds) {
        longest = { measure: r.name, jobId: r.jobId!, reason: r.reason ?? "", seconds };
      }
    }
    return longest;
  }
}

/**
 * The progress line: `2 done, 1 running, 1 pending of 4 measures; waited
 * 3m05s; longest pending: candidate (job 123, Resources) for 2m40s`, with
 * `5 not yet sent` after the pending when a look is sent later. `wake`
 * adds what the wake job is doing once every measure is in.
 */
export function progressLine(
  c: ProgressCounts,
  waitedS: number,
  longest: LongestPending | null,
  wake: string | null,
): string {
  const parts = [`${c.done} done`, `${c.running} running`, `${c.pending} pending`];
  // a pending measure's job is in the queue; one not yet sent has none
  if (c.notSent > 0) parts.push(`${c.notSent} not yet sent`);
  if (c.failed > 0) parts.push(`${c.failed} failed`);
  let line = `${parts.join(", ")} of ${c.total} measures; waited ${formatDuration(waitedS)}`;
  if (longest !== null) {
    const why = longest.reason ? `, ${longest.reason}` : "";
    line += `; longest pending: ${longest.measure} (job ${longest.jobId}${why}) for ${formatDuration(longest.seconds)}`;
  }
  if (wake !== null) line += `; ${wake}`;
  return line;
}
