import { BadInputError } from "../errors.ts";

/**
 * Validation of the names that become file names and scheduler job names.
 *
 * A benchmark name becomes `<benchmark>@<base sha>.json` in the baseline
 * cache; a sibling name becomes the measure `sib-<name>-base`, which becomes
 * the eval dir `eval-<slot>` and the prefix of a Slurm job name. So a name
 * must not climb out of a directory, must not break a line- or `|`-separated
 * scheduler listing (`squeue --parsable2`), must not read as an option to a
 * command-line tool, and must leave every derived file name under the 255-byte
 * limit. The reference validates none of this; these are refusals only, so
 * every name accepted here gives the reference's identity unchanged.
 */

/** What a name names; it leads the error message. */
export type NameKind = "benchmark" | "sibling" | "measure";

/**
 * The longest name, in UTF-8 bytes. The longest derived file name is the
 * eval dir `eval-sib-<name>-base-<tree sha>-<40 hex>`: 96 bytes besides the
 * name with a sha1 tree, 120 with a sha256 one, so 128 leaves room under 255.
 */
export const MAX_NAME_BYTES = 128;

/** A name that would escape a directory or break scheduler output; a bad argument. */
export class BadNameError extends BadInputError {
  override name = "BadNameError";
  /** What the name names. */
  readonly kind: NameKind;
  /** The refused name, verbatim. */
  readonly value: string;
  constructor(kind: NameKind, value: string, problem: string) {
    super(
      `Invalid ${kind} name ${JSON.stringify(value)}: ${problem}; ` +
        `use 1 to ${MAX_NAME_BYTES} bytes not starting with "-" and free of "/", "..", "|" and control characters`,
    );
    this.kind = kind;
    this.value = value;
  }
}

/** The first problem with `name`, or null when it is fine. */
function problemWith(name: string): string | null {
  if (name === "") return "it is empty";
  if (name.includes("/")) return 'it contains "/"';
  // Anywhere, not just as a whole component: simpler to state, and no real
  // benchmark name needs two dots in a row.
  if (name.includes("..")) return 'it contains ".."';
  if (name.includes("|")) return 'it contains "|"';
  // deno-lint-ignore no-control-regex -- control characters are what this checks
  const control = /[\u0000-\u001f\u007f]/.exec(name);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `it contains the control character U+${code}`;
  }
  if (name.startsWith("-")) return 'it starts with "-", which reads as an option';
  if (!name.isWellFormed()) return "it contains a lone surrogate, which has no UTF-8 encoding";
  // a UTF-16 code unit is at most 3 bytes of UTF-8: a short name needs no encoding to be known short
  if (name.length * 3 <= MAX_NAME_BYTES) return null;
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > MAX_NAME_BYTES) return `it is ${bytes} bytes long`;
  return null;
}

/**
 * Throws `BadNameError` unless `name` is safe as a file-name part and a job
 * name part. Call it where a name enters the program (the contract, the CLI),
 * before any path or job is built from it.
 */
export function validateName(kind: NameKind, name: string): void {
  const problem = problemWith(name);
  if (problem !== null) throw new BadNameError(kind, name, problem);
}
