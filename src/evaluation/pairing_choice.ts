import type { Pairing } from "../contract/contract.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";

/**
 * Which pairing to time a benchmark with, from an A/A calibration under each
 * (`outerloop calibrate --pairing all`): the spread of the paired
 * improvements under `separate` (each measure its own job, its own node),
 * `same-job` (a pair in one job, one after the other) and `duet` (both at
 * once, each on half the CPUs), side by side. What `separate` adds to the
 * spread of `same-job` is the noise of being measured apart — node to node,
 * hour to hour — a share no peer measures:
 *
 *   node share = 1 − sd(same-job)² / sd(separate)²   (0 when negative)
 *
 * The recommendation is the pairing whose calibration finds the smallest
 * improvement with 80% power at `COMPARED_PAIRS` pairs (every calibration's
 * power table has that row, at the same confidence, so the rows compare
 * like for like); a pairing that costs less — `separate` (any queue, cached
 * baselines allowed), then `same-job`, then `duet` (twice the CPUs, two
 * commands sharing a node's memory bandwidth) — is preferred while it finds
 * no more than `CLOSE_ENOUGH` times the best one's effect.
 */

/** The pairs the comparison reads each calibration's power table at. */
export const COMPARED_PAIRS = 10;
/** A cheaper pairing wins while its detectable effect is within this factor of the best. */
const CLOSE_ENOUGH = 1.1;
/** The pairings, cheapest first. */
const BY_COST: readonly Pairing[] = ["separate", "same-job", "duet"];

/** One pairing's calibration, side by side with the others'. */
export interface PairingRow {
  readonly pairing: Pairing;
  /** A/A pairs measured. */
  readonly n: number;
  /** The spread (sd) of one pair's improvement. */
  readonly sd: number;
  /** The improvement beyond min_effect a fixed design of `COMPARED_PAIRS` pairs finds with 80% power. */
  readonly detectable: number;
  /** The calibration's own suggested keys. */
  readonly minEffect: number;
  readonly repeats: number;
  readonly maxRepeats: number;
}

/** The comparison and what it recommends. */
export interface PairingComparison {
  readonly rows: readonly PairingRow[];
  /** The share of `separate`'s variance that measuring apart adds; null without both calibrations. */
  readonly nodeShare: number | null;
  readonly recommended: Pairing;
  /** Why, in a sentence with the numbers. */
  readonly reason: string;
}

/** Compares calibrations of one benchmark under several pairings (at least one). */
export function comparePairings(
  calibrations: readonly { readonly pairing: Pairing; readonly calibration: CalibrationRecord }[],
): PairingComparison {
  if (calibrations.length === 0) throw new RangeError("comparePairings() needs at least one calibration");
  const rows = [...calibrations]
    .sort((a, b) => BY_COST.indexOf(a.pairing) - BY_COST.indexOf(b.pairing))
    .map(({ pairing, calibration: c }): PairingRow => ({
      pairing,
      n: c.n,
      sd: c.sd,
      detectable: c.detectable.find((d) => d.pairs === COMPARED_PAIRS)?.effect ?? Number.NaN,
      minEffect: c.suggestion.minEffect,
      repeats: c.suggestion.repeats,
      maxRepeats: c.suggestion.maxRepeats,
    }));
  const best = rows.reduce((a, b) => (b.detectable < a.detectable ? b : a));
  const chosen = rows.find((r) => r.detectable <= CLOSE_ENOUGH * best.detectable) ?? best;
  const sep = rows.find((r) => r.pairing === "separate");
  const same = rows.find((r) => r.pairing === "same-job");
  const nodeShare = sep && same && sep.sd > 0 ? Math.max(0, 1 - (same.sd / sep.sd) ** 2) : null;
  const fmt = (x: number) => Number(x.toPrecision(3)).toString();
  const at = `at ${COMPARED_PAIRS} pairs`;
  const reason = chosen === best
    ? `${chosen.pairing} finds the smallest improvement ${at} (${fmt(chosen.detectable)} beyond min_effect, with 80% ` +
      `power)${rows.length > 1 ? `; ${others(rows, chosen, fmt)}` : ""}`
    : `${chosen.pairing} costs less and finds ${fmt(chosen.detectable)} ${at}, within ${
      Math.round((CLOSE_ENOUGH - 1) * 100)
    }% of ${best.pairing}'s ${fmt(best.detectable)}`;
  return { rows, nodeShare, recommended: chosen.pairing, reason };
}

function others(rows: readonly PairingRow[], chosen: PairingRow, fmt: (x: number) => string): string {
  return rows.filter((r) => r !== chosen).map((r) => `${r.pairing} ${fmt(r.detectable)}`).join(", ");
}
