import * as z from "zod/mini";
import { lazy, wholeNumber, withJsonForm } from "../schema/zod.ts";
import { closestKey, contractObject as strict } from "./did_you_mean.ts";
import { DEFAULT_CPUS, DEFAULT_MEM, isMemorySize } from "../compute/job_spec.ts";
import { BadInputError } from "../errors.ts";
import { readTextFile, TextFileError, type TextFileProblem } from "../fs/read_text_file.ts";
import { fastContractJson } from "./contract_fast.ts";
import { type NameKind, validateName } from "./names.ts";
import { firstDuplicateKey } from "./duplicate_key.ts";
import { jsonSyntaxError } from "./json_syntax.ts";
import { DEFAULT_SUMMARY, SUMMARIES, type Summary } from "../stats/samples.ts";
import type { CalibratedNoise } from "../stats/calibrated_screen.ts";
import {
  DEFAULT_CONFIDENCE,
  DEFAULT_PAIRING,
  DEFAULT_REPEATS,
  isThreshold,
  PERCENT,
  seedEnvProblem,
  textProblem,
  unitProblem,
} from "./field_checks.ts";

/**
 * The benchmark contract file: what to run, which number to read, which way
 * is better (required: a default once inverted timing verdicts), the suite
 * siblings and the guards (further metrics of the same result) that must not
 * regress. JSON with the reference's snake_case field names. Unknown keys are
 * refused with the key most likely meant (did_you_mean.ts): a typo such as
 * `min_efect` silently ignored would change the verdict. `min_effect` and a
 * `tolerance` may be relative ("2%"), judged on the log ratio
 * (src/stats/relative.ts).
 */

/** A string the program turns into file and job names: checked by `validateName`. */
function nameField(kind: NameKind) {
  return z.string().check(z.superRefine((value, ctx) => {
    try {
      validateName(kind, value);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message, input: value });
    }
  }));
}

/** How a pair's measures are dispatched: each its own job (the reference's), both in one job one after the other, or both at once. */
export type Pairing = "separate" | "same-job" | "duet";

/** Any string of the contract: free of NUL and of lone surrogates (`textProblem`). */
const text = () =>
  z.string().check(z.superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: `${problem}; remove it`, input: value });
  }));
const nonEmpty = () => text().check(z.minLength(1, { error: "expected a non-empty string" }));
/** The command: something to run, not blanks. */
const command = () =>
  text().check(
    z.minLength(1, { error: "expected a command, got an empty string", abort: true }),
    z.refine((c) => c.trim() !== "", { error: "expected a command, got only white space", abort: true }),
  );

/** `unit`: what the metric is measured in, printed beside its values (`unitProblem`). */
const unit = () =>
  z.string().check(z.superRefine((value, ctx) => {
    const problem = unitProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem, input: value });
  }));

/** `seed_env`: "" or a variable the job may export the seed under (`seedEnvProblem`). */
const seedEnv = () =>
  z._default(
    text().check(z.superRefine((name, ctx) => {
      const problem = seedEnvProblem(name);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem, input: name });
    })),
    "",
  );
/**
 * `direction`, required: a contract that left it out was once read as
 * maximize, and a timing benchmark's verdicts came out inverted. The refusal
 * says what each value means.
 */
const DIRECTION_FIX = 'add "direction": "minimize" (lower is better: a time, a size, a loss) or ' +
  '"direction": "maximize" (higher is better: a rate, a score, an accuracy)';
const direction = () => choice(["maximize", "minimize"], `"direction" is missing; ${DIRECTION_FIX}`);

/**
 * One of `values`, whose refusal of a string near one of them names it
 * (`"minimise"` reads did you mean "minimize"?), as an unknown key's does;
 * `missing` words the refusal of an absent value.
 */
function choice<const T extends readonly [string, ...string[]]>(values: T, missing?: string) {
  return z.enum(values, {
    error: (issue) => {
      if (issue.input === undefined) return missing;
      if (typeof issue.input !== "string") return undefined;
      const near = closestKey(issue.input, values);
      const all = values.map((v) => JSON.stringify(v)).join("|");
      return `Invalid option ${JSON.stringify(issue.input)}: expected one of ${all}` +
        (near === null ? "" : `; did you mean ${JSON.stringify(near)}?`);
    },
  });
}

/** Whether a threshold is absolute (in the metric's units) or relative (a factor, judged on the log ratio). */
export type Scale = "absolute" | "relative";

/**
 * `min_effect` and `tolerance`: a number >= 0 in the metric's units, or a
 * percentage ("2%"), which the verdict judges on the log scale of the paired
 * ratio (src/stats/relative.ts) so that a time and its rate read one verdict.
 */
const threshold = () =>
  z._default(
    withJsonForm(
      z.custom<number | string>(
        isThreshold,
        { error: 'expected a number >= 0 (in the metric\'s units) or a percentage such as "2%" (relative)' },
      ),
      {
        anyOf: [{ type: "number", minimum: 0 }, { type: "string", pattern: PERCENT.source }],
        description: 'in the metric\'s units, or a percentage ("2%": relative, judged on the log ratio)',
      },
    ),
    0,
  );

/** A threshold as the contract writes it, read: "2%" is 0.02 relative, 0.5 is 0.5 absolute. */
function thresholdOf(written: number | string): { readonly value: number; readonly scale: Scale } {
  return typeof written === "number"
    ? { value: written, scale: "absolute" }
    : { value: Number(written.slice(0, -1)) / 100, scale: "relative" };
}

/** A threshold back in its written form: the number, or "2%" for relative 0.02. */
function thresholdJson(value: number, scale: Scale): number | string {
  return scale === "absolute" ? value : `${Number((value * 100).toPrecision(12))}%`;
}
/**
 * `noise`: what an A/A calibration measured (`outerloop calibrate` suggests
 * it): the sd of one pair's improvement in the metric's units, and the pairs
 * it rests on. The verdict then sets outlying pairs aside beyond a fence at
 * that scale (src/stats/calibrated_screen.ts) instead of by the look's own
 * spread.
 */
const noise = () =>
  z.optional(strict({
    sd: z.number().check(
      z.refine((x) => Number.isFinite(x) && x > 0, {
        error: "expected a number above 0 (the sd of a pair's improvement)",
      }),
    ),
    pairs: wholeNumber(2),
  }));

/** How a metric reported as an array of samples becomes the measure's value (src/stats/samples.ts). */
const summary = lazy(() => z._default(choice(SUMMARIES as [Summary, ...Summary[]]), DEFAULT_SUMMARY));
const count = (min: number, fallback: number) => z._default(wholeNumber(min), fallback);

const siblingSchema = lazy(() =>
  strict({
    name: nameField("sibling"),
    command: command(),
    metric: nonEmpty(),
    seed_env: seedEnv(),
    gpus: count(0, 0),
    direction: direction(),
    tolerance: threshold(),
    summary: summary(),
  })
);

/** A guard: another metric of the benchmark's own result line, judged paired like a sibling (no job of its own). */
const guardSchema = lazy(() =>
  strict({
    metric: nonEmpty(),
    direction: direction(),
    tolerance: threshold(),
    summary: summary(),
  })
);

/**
 * The contract's on-disk form, with defaults. Exported so the run record can
 * validate the contract it froze with the same rules and field paths.
 */
export const contractSchema = lazy(() =>
  strict({
    // where an editor finds this file's JSON Schema (`outerloop schema contract`): accepted, never read
    $schema: z.optional(z.string()),
    name: nameField("benchmark"),
    command: command(),
    metric: nonEmpty(),
    direction: direction(),
    // what the metric is measured in ("s", "ms", "bpb", "MB"): printed beside its values, and it picks the
    // relative words (a time reads faster / slower, anything else lower / higher: verdict/relative_words.ts)
    unit: z.optional(unit()),
    summary: summary(),
    seed_env: seedEnv(),
    gpus: count(0, 0),
    eval_minutes: count(1, 60),
    eval_mem: z._default(
      z.string().check(z.refine(isMemorySize, {
        error: "expected a Slurm memory size such as 2G, 500M or 1024 (megabytes)",
      })),
      DEFAULT_MEM,
    ),
    eval_cpus: count(1, DEFAULT_CPUS),
    baseline: z._default(choice(["cached", "measure"]), "measure"),
    min_effect: threshold(),
    noise: noise(),
    siblings: z._default(z.array(siblingSchema()), []).check(z.superRefine((sibs, ctx) => {
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
    })),
    guards: z._default(z.array(guardSchema()), []),
    pairing: z._default(choice(["separate", "same-job", "duet"]), DEFAULT_PAIRING),
    repeats: count(1, DEFAULT_REPEATS),
    // its default is `repeats`, which a field default cannot see: filled in by contractFromJson
    max_repeats: z.optional(wholeNumber(1)),
    confidence: z._default(
      z.number().check(
        z.gt(0.5, { error: "expected a number above 0.5 and below 1" }),
        z.lt(1, { error: "expected a number above 0.5 and below 1" }),
      ),
      DEFAULT_CONFIDENCE,
    ),
  }).check(z.superRefine((c, ctx) => {
    const guardsSeen = new Set<string>();
    (Array.isArray(c.guards) ? c.guards : []).forEach((g, i) => {
      const problem = g.metric === c.metric
        ? `Guard metric ${JSON.stringify(g.metric)} is the benchmark's own metric; a guard watches another metric ` +
          "of the same result line: name that one"
        : guardsSeen.has(g.metric)
        ? `Guard metric ${JSON.stringify(g.metric)} is listed twice; give each guard one entry`
        : null;
      guardsSeen.add(g.metric);
      if (problem !== null) ctx.addIssue({ code: "custom", path: ["guards", i, "metric"], message: problem, input: g });
    });
    if (c.pairing !== "separate" && c.baseline === "cached") {
      ctx.addIssue({
        code: "custom",
        path: ["baseline"],
        message: `"cached" cannot go with pairing ${JSON.stringify(c.pairing)}: a pair job measures its own ` +
          'baseline beside the candidate by construction; use "measure", or pairing "separate" to reuse a cache',
        input: c.baseline,
      });
    }
    const gpus = [c.gpus, ...(Array.isArray(c.siblings) ? c.siblings.map((s) => s.gpus) : [])];
    if (c.pairing === "duet" && gpus.some((g) => typeof g === "number" && g > 0)) {
      ctx.addIssue({
        code: "custom",
        path: ["pairing"],
        message: '"duet" runs both measures of a pair at once, each pinned to half the job\'s CPUs, and cannot ' +
          'split GPUs between them; for a benchmark with gpus use "same-job"',
        input: c.pairing,
      });
    }
    if (c.noise !== undefined && typeof c.min_effect === "string") {
      ctx.addIssue({
        code: "custom",
        path: ["noise"],
        message: `"noise" is in the metric's units, and a relative min_effect (${JSON.stringify(c.min_effect)}) is ` +
          "judged on the log ratio: give min_effect in the metric's units, or leave noise out",
        input: c.noise,
      });
    }
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
  }))
);

/** The contract in its on-disk (snake_case) form, defaults filled in (max_repeats may be absent: = repeats). */
export type ContractJson = z.output<ReturnType<typeof contractSchema>>;

/** One suite sibling: measured on base and candidate, must not regress past `tolerance`. */
export interface SiblingContract {
  readonly name: string;
  readonly command: string;
  readonly metric: string;
  /** The sibling's own seed variable; "" = it does not resample. */
  readonly seedEnv: string;
  readonly gpus: number;
  readonly direction: "maximize" | "minimize";
  /** How far the sibling may get worse before the candidate is rejected: in its metric's units, or a fraction (`toleranceScale`). */
  readonly tolerance: number;
  /** "relative": `tolerance` is a fraction (0.01 for "1%"), judged on the log ratio; "absolute": in the metric's units. */
  readonly toleranceScale: Scale;
  /** How samples reported as an array become the sibling's value; default median. */
  readonly summary: Summary;
}

/**
 * A guard: a metric of the benchmark's own result line besides `metric`
 * (`{"t": 1.21, "size": 3.4e6}`), measured by the same jobs and judged
 * paired exactly like a sibling: reject when it regressed past `tolerance`,
 * an accept held back while it may have.
 */
export interface GuardContract {
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  readonly tolerance: number;
  readonly toleranceScale: Scale;
  readonly summary: Summary;
}

/** A validated contract with every default applied. */
export interface Contract {
  readonly name: string;
  readonly command: string;
  readonly metric: string;
  readonly direction: "maximize" | "minimize";
  /** What the metric is measured in (`s`, `ms`, `bpb`, `MB`); null when the contract does not say. */
  readonly unit: string | null;
  /** How samples reported as an array (`{"ms": [12.1, 11.9]}`) become the measure's value; default median. */
  readonly summary: Summary;
  /** The seed variable; "" = the benchmark does not resample. */
  readonly seedEnv: string;
  readonly gpus: number;
  /** The walltime hint for one measurement, in minutes. */
  readonly evalMinutes: number;
  /** Memory per eval job, a Slurm size (`16G`); the reference's 2G by default. */
  readonly evalMem: string;
  /** CPUs per eval job; the reference's 1 by default. */
  readonly evalCpus: number;
  /** "cached": reuse a stored base-tree measurement when one matches; "measure": always measure. */
  readonly baseline: "cached" | "measure";
  /**
   * The improvement the candidate must exceed to be accepted; at or below it,
   * inconclusive. In the metric's units, or — `minEffectScale` "relative" —
   * a fraction (0.02 for "2%"): a factor 1.02 in the direction's favour.
   */
  readonly minEffect: number;
  /** "relative": `minEffect` is a fraction judged on the log ratio (src/stats/relative.ts); "absolute": units. */
  readonly minEffectScale: Scale;
  /**
   * The benchmark's noise as an A/A calibration measured it (the sd of one
   * pair's improvement, in the metric's units, over `pairs` pairs); null when
   * the contract does not give it. With it, the verdict's screen is the
   * calibrated fence (src/stats/calibrated_screen.ts).
   */
  readonly noise: CalibratedNoise | null;
  readonly siblings: readonly SiblingContract[];
  /** Extra metrics of the benchmark's own result, judged like siblings; none by default. */
  readonly guards: readonly GuardContract[];
  /** Pairs (baseline + candidate on one seed) per batch; the verdict is looked at after each batch. */
  readonly repeats: number;
  /** The most pairs a climb may use (≥ repeats); more than `repeats` makes the verdict sequential. */
  readonly maxRepeats: number;
  /** The confidence of the verdict: false accepts stay at or below 1 − confidence (0.5 < confidence < 1). */
  readonly confidence: number;
  /** How each pair's measures are dispatched (see `Pairing`). */
  readonly pairing: Pairing;
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
  const quick = fastContractJson(json);
  if (quick !== null) return contractFromJson(quick);
  const parsed = contractSchema().safeParse(json);
  if (!parsed.success) {
    throw new ContractError(source, `Invalid contract ${JSON.stringify(source)}: ${oneLine(parsed.error.issues)}`);
  }
  return contractFromJson(parsed.data);
}

/**
 * A refusal's issues on one line, each after the field it is at
 * (`direction: Invalid option …; siblings[0].name: …`): bad input is
 * refused in one line.
 */
function oneLine(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => {
    const at = i.path.map((p, n) => typeof p === "number" ? `[${p}]` : `${n === 0 ? "" : "."}${String(p)}`).join("");
    return `${at === "" ? "" : `${at}: `}${i.message.replaceAll("\n", " ")}`;
  }).join("; ");
}

/** The camelCase `Contract` of a validated on-disk contract. */
export function contractFromJson(c: ContractJson): Contract {
  return {
    name: c.name,
    command: c.command,
    metric: c.metric,
    direction: c.direction,
    unit: c.unit ?? null,
    summary: c.summary,
    seedEnv: c.seed_env,
    gpus: c.gpus,
    evalMinutes: c.eval_minutes,
    evalMem: c.eval_mem,
    evalCpus: c.eval_cpus,
    baseline: c.baseline,
    minEffect: thresholdOf(c.min_effect).value,
    minEffectScale: thresholdOf(c.min_effect).scale,
    noise: c.noise === undefined ? null : { sd: c.noise.sd, pairs: c.noise.pairs },
    siblings: c.siblings.map((s) => ({
      name: s.name,
      command: s.command,
      metric: s.metric,
      seedEnv: s.seed_env,
      gpus: s.gpus,
      direction: s.direction,
      tolerance: thresholdOf(s.tolerance).value,
      toleranceScale: thresholdOf(s.tolerance).scale,
      summary: s.summary,
    })),
    guards: c.guards.map((g) => ({
      metric: g.metric,
      direction: g.direction,
      tolerance: thresholdOf(g.tolerance).value,
      toleranceScale: thresholdOf(g.tolerance).scale,
      summary: g.summary,
    })),
    repeats: c.repeats,
    maxRepeats: c.max_repeats ?? c.repeats,
    confidence: c.confidence,
    pairing: c.pairing,
  };
}

/** What to do about each way a contract file can be unusable. */
const FILE_FIX: Readonly<Record<TextFileProblem["kind"], string>> = {
  "missing": "check the --contract path",
  "not-a-file": "write the contract to a file and pass its path to --contract",
  "too-large": "a contract is a small JSON file: check the --contract path",
  "bom": "remove the byte-order mark (save the file as UTF-8 without BOM)",
  "not-utf8": "save the file as UTF-8",
  "unreadable": "check the --contract path",
};

/**
 * Reads and validates the contract file at `path`; every failure is a
 * `ContractError` naming the file. Only a regular file of UTF-8 text up to
 * 1 MiB is read (`readTextFile`): a FIFO, a device or an endless file is
 * refused before the read, a BOM or a non-UTF-8 byte with its place.
 */
export function loadContract(path: string): Contract {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    const { kind, what } = err.problem;
    throw new ContractError(path, `Cannot read contract ${JSON.stringify(path)}: ${what}; ${FILE_FIX[kind]}`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // the place is our own scan's: each runtime's parser words (or omits) it its own way
    const e = jsonSyntaxError(text);
    const why = e === null ? "it cannot be parsed" : `line ${e.line}, column ${e.column}: ${e.problem}`;
    throw new ContractError(path, `Contract ${JSON.stringify(path)} is not JSON: ${why}; fix it there`, {
      cause: err,
    });
  }
  const twice = firstDuplicateKey(text);
  if (twice !== null) {
    const where = twice.path === "" ? "" : ` in ${twice.path}`;
    throw new ContractError(
      path,
      `Invalid contract ${JSON.stringify(path)}: the key ${JSON.stringify(twice.key)} is given twice${where} ` +
        "(JSON keeps only the last); give it once",
    );
  }
  return parseContract(json, path);
}

/**
 * The contract back in its snake_case file form: what the run record
 * freezes (never `$schema`, which is not read). Every field explicit, except that unit, guards, noise, eval_mem, eval_cpus, repeats,
 * max_repeats, confidence, pairing and summary (the benchmark's and each
 * sibling's) appear only when they differ from their defaults (2G, 1, 1,
 * repeats, 0.95, separate, median; guards and noise when there are none), so the run record of a contract that does
 * not use them is byte-identical to one written before they existed (and its
 * run identity the same).
 */
export function contractToJson(c: Contract): z.input<ReturnType<typeof contractSchema>> {
  const json: z.input<ReturnType<typeof contractSchema>> = {
    name: c.name,
    command: c.command,
    metric: c.metric,
    direction: c.direction,
    seed_env: c.seedEnv,
    gpus: c.gpus,
    eval_minutes: c.evalMinutes,
    baseline: c.baseline,
    min_effect: thresholdJson(c.minEffect, c.minEffectScale),
    siblings: c.siblings.map((s) => ({
      name: s.name,
      command: s.command,
      metric: s.metric,
      seed_env: s.seedEnv,
      gpus: s.gpus,
      direction: s.direction,
      tolerance: thresholdJson(s.tolerance, s.toleranceScale),
      ...(s.summary === DEFAULT_SUMMARY ? {} : { summary: s.summary }),
    })),
  };
  if (c.guards.length > 0) {
    json.guards = c.guards.map((g) => ({
      metric: g.metric,
      direction: g.direction,
      tolerance: thresholdJson(g.tolerance, g.toleranceScale),
      ...(g.summary === DEFAULT_SUMMARY ? {} : { summary: g.summary }),
    }));
  }
  if (c.unit !== null) json.unit = c.unit;
  if (c.noise !== null) json.noise = { sd: c.noise.sd, pairs: c.noise.pairs };
  if (c.summary !== DEFAULT_SUMMARY) json.summary = c.summary;
  if (c.evalMem !== DEFAULT_MEM) json.eval_mem = c.evalMem;
  if (c.evalCpus !== DEFAULT_CPUS) json.eval_cpus = c.evalCpus;
  if (c.repeats !== DEFAULT_REPEATS) json.repeats = c.repeats;
  if (c.maxRepeats !== c.repeats) json.max_repeats = c.maxRepeats;
  if (c.confidence !== DEFAULT_CONFIDENCE) json.confidence = c.confidence;
  if (c.pairing !== DEFAULT_PAIRING) json.pairing = c.pairing;
  return json;
}
