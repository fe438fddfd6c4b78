import { readFileSync } from "node:fs";
import { z } from "zod";
import { BadInputError } from "../errors.ts";
import { type NameKind, validateName } from "../measure/names.ts";

/**
 * The benchmark contract file: what to run, which number to read, which way
 * is better, and the suite siblings that must not regress. JSON with the
 * reference's snake_case field names. Unknown keys are refused, naming the
 * key: a typo such as `min_efect` silently ignored would change the verdict.
 */

/** A string the program turns into file and job names: checked by `validateName`. */
function nameField(kind: NameKind) {
  return z.string().superRefine((value, ctx) => {
    try {
      validateName(kind, value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message, input: value });
    }
  });
}

/** Paired repeats default to one pair: exactly the single-pair verdict of a contract that does not ask for more. */
export const DEFAULT_REPEATS = 1;
/** The default confidence of the verdict's intervals. */
export const DEFAULT_CONFIDENCE = 0.95;

const nonEmpty = () => z.string().min(1, { error: "expected a non-empty string" });
const direction = z.enum(["maximize", "minimize"]).default("maximize");
const count = (min: number, fallback: number) =>
  z.number().int({ error: "expected a whole number" }).min(min, { error: `expected a whole number >= ${min}` })
    .default(fallback);

/**
 * `z.strictObject` whose refusal of an unknown key names it and the keys it
 * knows, so a typo reads as one. Shared by every run-dir file schema.
 */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  const known = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}; the known keys are ${known}`
        : undefined,
  });
}

const siblingSchema = strict({
  name: nameField("sibling"),
  command: nonEmpty(),
  metric: nonEmpty(),
  seed_env: z.string().default(""),
  gpus: count(0, 0),
  direction,
  tolerance: z.number().min(0, { error: "expected a number >= 0" }).default(0),
});

/**
 * The contract's on-disk form, with defaults. Exported so the run record can
 * validate the contract it froze with the same rules and field paths.
 */
export const contractSchema = strict({
  name: nameField("benchmark"),
  command: nonEmpty(),
  metric: nonEmpty(),
  direction,
  seed_env: z.string().default(""),
  gpus: count(0, 0),
  eval_minutes: count(1, 60),
  baseline: z.enum(["cached", "measure"]).default("measure"),
  min_effect: z.number().min(0, { error: "expected a number >= 0" }).default(0),
  siblings: z.array(siblingSchema).default([]).superRefine((sibs, ctx) => {
    const seen = new Set<string>();
    sibs.forEach((sib, i) => {
      if (seen.has(sib.name)) {
        ctx.addIssue({
          code: "custom",
          path: [i, "name"],
          message: `Sibling name ${JSON.stringify(sib.name)} is listed twice; give each sibling one entry`,
          input: sib.name,
        });
      }
      seen.add(sib.name);
    });
  }),
  repeats: count(1, DEFAULT_REPEATS),
  // its default is `repeats`, which a field default cannot see: filled in by contractFromJson
  max_repeats: z.number().int({ error: "expected a whole number" }).min(1, { error: "expected a whole number >= 1" })
    .optional(),
  confidence: z.number().gt(0.5, { error: "expected a number above 0.5 and below 1" })
    .lt(1, { error: "expected a number above 0.5 and below 1" }).default(DEFAULT_CONFIDENCE),
}).superRefine((c, ctx) => {
  // only between two valid counts: a bad one already has its own message
  const valid = (n: number | undefined) => Number.isInteger(n) && n! >= 1;
  if (valid(c.max_repeats) && valid(c.repeats) && c.max_repeats! < c.repeats) {
    ctx.addIssue({
      code: "custom",
      path: ["max_repeats"],
      message:
        `expected a whole number >= repeats (${c.repeats}); max_repeats caps the pairs, so it cannot be below them`,
      input: c.max_repeats,
    });
  }
});

/** The contract in its on-disk (snake_case) form, defaults filled in (max_repeats may be absent: = repeats). */
export type ContractJson = z.output<typeof contractSchema>;

/** One suite sibling: measured on base and candidate, must not regress past `tolerance`. */
export interface SiblingContract {
  readonly name: string;
  readonly command: string;
  readonly metric: string;
  /** The sibling's own seed variable; "" = it does not resample. */
  readonly seedEnv: string;
  readonly gpus: number;
  readonly direction: "maximize" | "minimize";
  /** How far the sibling may get worse (in its metric's units) before the candidate is rejected. */
  readonly tolerance: number;
}

/** A validated contract with every default applied. */
export interface Contract {
  readonly name: string;
  readonly command: string;
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  /** The seed variable; "" = the benchmark does not resample. */
  readonly seedEnv: string;
  readonly gpus: number;
  /** The walltime hint for one measurement, in minutes. */
  readonly evalMinutes: number;
  /** "cached": reuse a stored base-tree measurement when one matches; "measure": always measure. */
  readonly baseline: "cached" | "measure";
  /** The improvement the candidate must exceed to be accepted; at or below it, inconclusive. */
  readonly minEffect: number;
  readonly siblings: readonly SiblingContract[];
  /** Pairs (baseline + candidate on one seed) per batch; the verdict is looked at after each batch. */
  readonly repeats: number;
  /** The most pairs a climb may use (≥ repeats); more than `repeats` makes the verdict sequential. */
  readonly maxRepeats: number;
  /** The confidence of the verdict: false accepts stay at or below 1 − confidence (0.5 < confidence < 1). */
  readonly confidence: number;
}

/** A contract file that cannot be read or does not validate; bad input (exit 2). */
export class ContractError extends BadInputError {
  override name = "ContractError";
  /** The file (or other source) the contract came from. */
  readonly source: string;
  constructor(source: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.source = source;
  }
}

/**
 * Validates a parsed contract object. `source` names where it came from (a
 * file path) and leads the error message, followed by every bad field's
 * path and what was expected.
 */
export function parseContract(json: unknown, source: string): Contract {
  const parsed = contractSchema.safeParse(json);
  if (!parsed.success) {
    throw new ContractError(source, `Invalid contract ${JSON.stringify(source)}:\n${z.prettifyError(parsed.error)}`);
  }
  return contractFromJson(parsed.data);
}

/** The camelCase `Contract` of a validated on-disk contract. */
export function contractFromJson(c: ContractJson): Contract {
  return {
    name: c.name,
    command: c.command,
    metric: c.metric,
    direction: c.direction,
    seedEnv: c.seed_env,
    gpus: c.gpus,
    evalMinutes: c.eval_minutes,
    baseline: c.baseline,
    minEffect: c.min_effect,
    siblings: c.siblings.map((s) => ({
      name: s.name,
      command: s.command,
      metric: s.metric,
      seedEnv: s.seed_env,
      gpus: s.gpus,
      direction: s.direction,
      tolerance: s.tolerance,
    })),
    repeats: c.repeats,
    maxRepeats: c.max_repeats ?? c.repeats,
    confidence: c.confidence,
  };
}

/** Reads and validates the contract file at `path`; every failure is a `ContractError` naming the file. */
export function loadContract(path: string): Contract {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : (err as Error).message;
    throw new ContractError(path, `Cannot read contract ${JSON.stringify(path)}: ${why}; check the --contract path`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ContractError(path, `Contract ${JSON.stringify(path)} is not JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return parseContract(json, path);
}

/**
 * The contract back in its snake_case file form: what the run record
 * freezes. Every field explicit, except that repeats, max_repeats and
 * confidence appear only when they differ from their defaults (1, repeats,
 * 0.95), so the run record of a contract that does not use them is
 * byte-identical to one written before they existed.
 */
export function contractToJson(c: Contract): z.input<typeof contractSchema> {
  const json: z.input<typeof contractSchema> = {
    name: c.name,
    command: c.command,
    metric: c.metric,
    direction: c.direction,
    seed_env: c.seedEnv,
    gpus: c.gpus,
    eval_minutes: c.evalMinutes,
    baseline: c.baseline,
    min_effect: c.minEffect,
    siblings: c.siblings.map((s) => ({
      name: s.name,
      command: s.command,
      metric: s.metric,
      seed_env: s.seedEnv,
      gpus: s.gpus,
      direction: s.direction,
      tolerance: s.tolerance,
    })),
  };
  if (c.repeats !== DEFAULT_REPEATS) json.repeats = c.repeats;
  if (c.maxRepeats !== c.repeats) json.max_repeats = c.maxRepeats;
  if (c.confidence !== DEFAULT_CONFIDENCE) json.confidence = c.confidence;
  return json;
}
