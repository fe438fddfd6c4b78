import type { RunSummary } from "./model.ts";

/**
 * Which runs of a climb measure against another base than the climb's best
 * so far: the first run's base, then each accepted candidate (a round's
 * winner) in turn. A climb whose runs all do is one descent, each run
 * starting where the last accepted one ended; a run on another base (an
 * older commit, a branch) is not on that line, and a chart joining the
 * accepted candidates across it would draw a descent that never happened.
 */

/** A run measured against another base than the best so far. */
export interface OffBase {
  /** The run's number in the climb. */
  readonly number: number;
  readonly tag: string;
  /** The base it measured against. */
  readonly baseSha: string;
  /** The climb's best so far when it started: the base it would have had on the line. */
  readonly bestSha: string;
}

/** The runs of `runs` (oldest first, each with its number) on another base than the best so far; [] for one descent. */
export function offBaseRuns(runs: readonly { readonly number: number; readonly run: RunSummary }[]): OffBase[] {
  let best: string | null = null;
  const off: OffBase[] = [];
  for (const { number, run } of runs) {
    best ??= run.baseSha;
    if (run.baseSha !== best) off.push({ number, tag: run.tag, baseSha: run.baseSha, bestSha: best });
    if (run.verdict === "accept" && run.candidateSha !== null) best = run.candidateSha;
  }
  return off;
}
