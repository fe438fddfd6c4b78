import { z } from "zod";
import { strict } from "./contract.ts";
import { atomicWriteJson } from "../fs/atomic_write.ts";
import type { Decision } from "./decide.ts";
import type { RunDir } from "./run_dir.ts";
import { readRunFile, shaSchema } from "./run_record.ts";

/**
 * `decision.json`: the verdict of a finished run, written once the last
 * measurement is in, with what it was decided on — the shas, the direction,
 * min_effect and where the baseline value came from — so the file alone
 * answers "why". Its presence is what marks a run as decided.
 */

const decisionSchema = strict({
  verdict: z.enum(["accept", "reject", "inconclusive"]),
  values: z.record(z.string(), z.number()),
  deltas: z.record(z.string(), z.number()),
  reasons: z.array(z.string()),
  base_sha: shaSchema,
  candidate_sha: shaSchema,
  decided_at: z.iso.datetime({ offset: true, error: "expected an ISO 8601 timestamp" }),
  direction: z.enum(["maximize", "minimize"]),
  min_effect: z.number().min(0),
  baseline_source: z.enum(["cached", "measured"]),
});

/** A decision with the facts it was made on, as stored in `decision.json`. */
export interface DecisionRecord extends Decision {
  readonly baseSha: string;
  readonly candidateSha: string;
  /** When the decision was made (ISO 8601). */
  readonly decidedAt: string;
  /** The benchmark's direction. */
  readonly direction: "maximize" | "minimize";
  readonly minEffect: number;
  /** "cached": the baseline value came from the baseline cache; "measured": from this run. */
  readonly baselineSource: "cached" | "measured";
}

/** Writes the decision to `<runDir>/decision.json`, atomically: a reader sees no decision or the whole one. */
export function writeDecision(dir: RunDir, d: DecisionRecord): void {
  const json = {
    verdict: d.verdict,
    values: { ...d.values },
    deltas: { ...d.deltas },
    reasons: [...d.reasons],
    base_sha: d.baseSha,
    candidate_sha: d.candidateSha,
    decided_at: d.decidedAt,
    direction: d.direction,
    min_effect: d.minEffect,
    baseline_source: d.baselineSource,
  };
  const checked = decisionSchema.safeParse(json);
  if (!checked.success) {
    throw new TypeError(`Refusing to write an invalid decision:\n${z.prettifyError(checked.error)}`);
  }
  atomicWriteJson(dir.decision, json);
}

/**
 * The run's decision, or null when it has not been decided. A damaged file
 * is a `RunRecordError` naming it and the bad field, and is left as it is.
 */
export function readDecision(dir: RunDir): DecisionRecord | null {
  const j = readRunFile(dir.decision, decisionSchema, "decision");
  if (j === null) return null;
  return {
    verdict: j.verdict,
    values: j.values,
    deltas: j.deltas,
    reasons: j.reasons,
    baseSha: j.base_sha,
    candidateSha: j.candidate_sha,
    decidedAt: j.decided_at,
    direction: j.direction,
    minEffect: j.min_effect,
    baselineSource: j.baseline_source,
  };
}
