import { formatStat } from "../text/numbers.ts";
import { renderColumns } from "../text/columns.ts";
import { COMPARED_PAIRS, type PairingComparison } from "../evaluation/pairing_choice.ts";

/**
 * `calibrate --pairing all` for people: one row per pairing — its A/A pairs,
 * the spread of one pair's improvement, the improvement a design of
 * `COMPARED_PAIRS` pairs finds with 80% power, and the calibration's own
 * suggested keys — then the node-to-node share of the noise and the
 * recommendation with its reason.
 */
export function formatPairingComparison(c: PairingComparison, benchmark: string): string {
  const rows = c.rows.map((r) => [
    r.pairing,
    String(r.n),
    formatStat(r.sd),
    formatStat(r.detectable),
    formatStat(r.minEffect),
    `${r.repeats} / ${r.maxRepeats}`,
  ]);
  const header = ["pairing", "A/A pairs", "sd", `found at ${COMPARED_PAIRS} pairs`, "min_effect", "repeats / max"];
  const share = c.nodeShare === null
    ? []
    : [`measuring apart (separate) adds ${Math.round(c.nodeShare * 100)}% of its variance: the node-to-node share`];
  return [
    `pairings of ${benchmark}: the base against itself under each`,
    renderColumns(header, rows, new Set([1, 2, 3, 4])),
    ...share,
    `recommended: "pairing": ${JSON.stringify(c.recommended)} — ${c.reason}`,
  ].join("\n") + "\n";
}

/** The comparison as `--json` prints it. */
export function pairingComparisonJson(c: PairingComparison) {
  return {
    compared_at_pairs: COMPARED_PAIRS,
    pairings: c.rows.map((r) => ({
      pairing: r.pairing,
      n: r.n,
      sd: r.sd,
      detectable: r.detectable,
      suggestion: { min_effect: r.minEffect, repeats: r.repeats, max_repeats: r.maxRepeats },
    })),
    node_share: c.nodeShare,
    recommended: c.recommended,
    reason: c.reason,
  };
}
