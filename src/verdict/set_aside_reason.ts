import { CALIBRATED_WORDS } from "../stats/calibrated_screen.ts";
import { ESD_WORDS } from "../stats/screened_t.ts";

/**
 * Why an estimate's pairs were set aside, from the method its decision names
 * (an estimate's `method`): `outlying by the generalized ESD test`, `beyond
 * the fence of the calibrated noise (sd 0.71 over 20 A/A pairs)`, or, for a
 * decision made before the ESD test (issue 22), `outlying by the Hampel rule`.
 */
export function setAsideReason(method: string): string {
  const at = method.indexOf(CALIBRATED_WORDS);
  if (at >= 0) {
    const rest = method.slice(at + CALIBRATED_WORDS.length);
    const scale = /^ \(sd [^)]*\)/.exec(rest);
    return CALIBRATED_WORDS + (scale?.[0] ?? "");
  }
  return method.includes(ESD_WORDS) ? `outlying ${ESD_WORDS}` : "outlying by the Hampel rule";
}
