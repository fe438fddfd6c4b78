import { hexDigest } from "../runtime/digest.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import { type Measure, measureEnv } from "./measure.ts";
import { splitPairName } from "./measure_name.ts";

/**
 * A measure's on-disk and on-cluster identity: the determinant, the slot (eval
 * dir) and the job name, byte-identical to the reference's `_det`, `_slot`
 * and `_job_name` so a run dir written by either implementation reads in the
 * other.
 *
 * Python slices and sorts strings by CODE POINT; JavaScript indexes and
 * compares UTF-16 units. The two differ on astral characters (emoji, 𝔘), so
 * slicing and sorting here go by code point explicitly.
 *
 * Lone surrogates: Python's `str.encode()` raises on them, so the reference
 * has no identity for such a measure; JavaScript would silently hash U+FFFD
 * instead. Rather than invent an identity the reference cannot reproduce,
 * every function here refuses them with a `TypeError` naming the field.
 */

/** The first `n` code points of `s` — Python's `s[:n]`. */
export function codePointPrefix(s: string, n: number): string {
  // without surrogates a code point is a UTF-16 unit: a pass names a thousand jobs, most of them so
  if (s.length <= n) return s;
  if (!/[\ud800-\udfff]/.test(s)) return s.slice(0, n);
  return Array.from(s).slice(0, n).join("");
}

/**
 * Compares by code point — Python's `str` order. UTF-16 order differs only
 * when one unit is a surrogate (an astral char) and the other is in
 * U+E000–U+FFFF; remapping those two ranges at the first differing unit
 * (ICU's fix-up) puts astral characters after the whole BMP.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

function fixup(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** Refuses a string Python could not UTF-8 encode (a lone surrogate). */
function assertEncodable(field: string, value: string): void {
  if (!value.isWellFormed()) {
    throw new TypeError(
      `Cannot build a measure identity: the ${field} ${JSON.stringify(value)} contains a lone surrogate, ` +
        "which has no UTF-8 encoding (the Python reference refuses it too); remove it",
    );
  }
}

function sha1Hex(text: string): string {
  return hexDigest("sha1", text);
}

/**
 * Everything a measure's RESULT depends on that can vary across a park and
 * resume: the image, the role, the tree, the command, the metric and the
 * env sorted by key, NUL-separated so `a`+`bc` differs from `ab`+`c`.
 * (Account and walltime change whether a job completes, not its value.)
 */
export function determinant(image: string, m: Measure): string {
  const known = determinants.get(m);
  if (known !== undefined && known.image === image) return known.text;
  const text = determinantOf(image, m);
  determinants.set(m, { image, text });
  return text;
}

/**
 * Each measure's determinant, remembered with its image: a pass asks a
 * thousand measures for their slot and their job name, and both hash it. A
 * measure is immutable, so its determinant is too.
 */
const determinants = new WeakMap<Measure, { readonly image: string; readonly text: string }>();

function determinantOf(image: string, m: Measure): string {
  assertEncodable("image", image);
  assertEncodable("measure name", m.name);
  assertEncodable("tree sha", m.treeSha);
  assertEncodable("command", m.command);
  assertEncodable("metric", m.metric);
  const entries = Object.entries(measureEnv(m)).sort(([a], [b]) => compareCodePoints(a, b));
  let env = "";
  for (const [key, value] of entries) {
    assertEncodable("env key", key);
    assertEncodable(`value of env ${JSON.stringify(key)}`, value);
    env += `\0${key}=${value}`;
  }
  return `${image}\0${m.name}\0${m.treeSha}\0${m.command}\0${m.metric}${env}`;
}

/**
 * The storage identity, nothing truncated: `<name>-<full tree sha>-<sha1 hex
 * of the determinant>`. The eval dir is the durable result cache, so any
 * prefix could alias two measurements into one stale read.
 */
export function slot(image: string, m: Measure): string {
  return `${m.name}-${m.treeSha}-${sha1Hex(determinant(image, m))}`;
}

/** Code points of a measure name a job name keeps. */
const JOB_NAME_CHARS = 12;

/**
 * A LIVENESS HINT, not a durable key: `eval-<runTag[:10]>-<name[:12]>-<16
 * hex>`, the hex over run tag + determinant. Slurm caps name length, so the
 * hash is bounded (64 bits); a collision can only make one measure see
 * another's job as live and park, never return a stale result. The run tag
 * disambiguates runs sharing one account; the prefixes are for humans.
 *
 * The readable part of a pair i ≥ 2 keeps its `#i` and cuts the stem shorter
 * (`sib-lat-base#2` → `sib-lat-ba#2`, `baseline#2` as it is), and a round's
 * candidate k keeps its k (`cand-2#3`), so `squeue` tells the pairs and the
 * candidates apart; a pair-1 name of one candidate (no `#i`) is cut as the
 * reference cuts it, byte for byte.
 */
export function jobName(runTag: string, image: string, m: Measure): string {
  assertEncodable("run tag", runTag);
  const h = sha1Hex(`${runTag}\0${determinant(image, m)}`).slice(0, 16);
  return `eval-${codePointPrefix(runTag, 10)}-${readableName(m.name)}-${h}`;
}

/**
 * The name's first 12 code points; for pair i ≥ 2, the stem's first 12 −
 * len("#i") and then `#i`. A round's candidate k (a name no reference run
 * has) is read `cand-k` there, so its number survives the cut
 * (`candidate-2#3` → `cand-2#3`, `sib-lat-cand-2` → `sib-lat-c2`).
 */
function readableName(name: string): string {
  const { name: stem, pair } = splitPairName(name);
  const short = stem.replace(/^candidate-(?=[0-9])/, "cand-").replace(/-cand-(?=[0-9]+$)/, "-c");
  if (pair === 1 && short === stem) return codePointPrefix(name, JOB_NAME_CHARS);
  const suffix = pair === 1 ? "" : `#${pair}`;
  const arm = /(?:-c|cand-)[0-9]+$/.exec(short)?.[0] ?? "";
  const room = Math.max(0, JOB_NAME_CHARS - suffix.length - arm.length);
  return codePointPrefix(short.slice(0, short.length - arm.length), room) + arm + suffix;
}

/** The determinants of a unit's members in run order, with its mode: what its slot and job name hash. */
function unitDeterminant(image: string, u: DispatchUnit): string {
  return [u.mode, ...u.members.map((m) => determinant(image, m))].join("\0\0");
}

/**
 * The storage identity of a dispatch unit: a unit of one measure is that
 * measure's slot (its eval dir holds the job script and its marker, as the
 * reference's do); a pair unit's is `pair<i>-<sha1 hex of its mode and every
 * member's determinant>`, the name of the dir that holds its job script and
 * marker (`dispatch/eval_files.ts` `unitDirPath`).
 */
export function unitSlot(image: string, u: DispatchUnit): string {
  if (u.mode === "one") return slot(image, u.members[0]!);
  return `pair${u.pair}-${sha1Hex(unitDeterminant(image, u))}`;
}

/**
 * The job name a unit's liveness is asked by: a measure's own (`jobName`)
 * for a unit of one; for a pair unit `eval-<runTag[:10]>-<same#i|duet#i>-<16
 * hex>`, the hex over the run tag and every member's determinant — derived
 * from both measures, so a pass that lost the job's id (a crash between
 * sbatch and the marker) finds it again by name.
 */
export function unitJobName(runTag: string, image: string, u: DispatchUnit): string {
  if (u.mode === "one") return jobName(runTag, image, u.members[0]!);
  assertEncodable("run tag", runTag);
  const h = sha1Hex(`${runTag}\0${unitDeterminant(image, u)}`).slice(0, 16);
  const label = `${u.mode === "duet" ? "duet" : "same"}#${u.pair}`;
  return `eval-${codePointPrefix(runTag, 10)}-${label}-${h}`;
}

/**
 * The job name of a look's job array (dispatch/array_job.ts), from its run
 * tag and its manifest's hash: `eval-<runTag[:10]>-array-<16 hex>` — what a
 * pass that lost the array's id finds it again by, and what `cancel` knows
 * the run's arrays by.
 */
export function arrayJobName(runTag: string, manifestHash: string): string {
  assertEncodable("run tag", runTag);
  const h = sha1Hex(`${runTag}\0${manifestHash}`).slice(0, 16);
  return `eval-${codePointPrefix(runTag, 10)}-array-${h}`;
}
