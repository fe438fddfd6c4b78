import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { escapeControls, safeTail, type TailLimits } from "../text/terminal.ts";
import { isAbsent } from "../fs/absent.ts";
import { EvalError } from "./eval_error.ts";
import { EVAL_FILES, evalDirPath } from "./eval_files.ts";
import { DEFAULT_SUMMARY, type SampleSpread, sampleSpread, summarize, type Summary } from "../stats/samples.ts";

/** How much of `output.log` an EvalError shows: the last 20 lines, each and all capped. */
export const TAIL: TailLimits = { lines: 20, lineBytes: 500, totalBytes: 6000 };
/** Only the end of `output.log` is read: a job can write gigabytes. */
const TAIL_READ_BYTES = 64 * 1024;
/** The most samples one measure may report: more is a benchmark writing a trace, not a metric. */
export const MAX_SAMPLES = 100_000;

/** A measure's value and, when the benchmark reported several samples, their spread. */
export interface EvalReading {
  /** The metric's value: the number reported, or the summary of the samples. */
  readonly value: number;
  /** The samples' spread; null for a plain number. */
  readonly samples: SampleSpread | null;
  /**
   * The result object's other finite numbers by key (every top-level key but
   * the metric whose value is a finite JSON number): what a guard reads from
   * the same result.
   */
  readonly metrics: Readonly<Record<string, number>>;
}

/**
 * The metric of a finished eval job (`readEvalReading`'s value): a finite
 * number, or the `summary` (default median) of an array of them.
 */
export function readEvalResult(runDir: string, slot: string, metric: string, summary?: Summary): number {
  return readEvalReading(runDir, slot, metric, summary).value;
}

/**
 * The metric of a finished eval job, from `result.json` when the command
 * wrote one (that file then decides, even when it is bad), else from the last
 * non-empty line of its stdout. The value must be a JSON number and finite: a
 * numeric string is refused too, so a metric that is "12.5" by accident of
 * formatting is fixed at its source rather than guessed at. Or it is an array
 * of 1 to `MAX_SAMPLES` such numbers, the samples of one run, whose `summary`
 * (default median; src/stats/samples.ts) is the value and whose spread comes
 * back with it. Anything else — not finished, a non-zero exit code, no JSON
 * object, a missing key, a non-number, an empty or oversized array, an
 * element that is not a finite number — is an EvalError naming what was
 * found, with the output's tail.
 */
export function readEvalReading(
  runDir: string,
  slot: string,
  metric: string,
  summary: Summary = DEFAULT_SUMMARY,
): EvalReading {
  const dir = evalDirPath(runDir, slot);
  const code = readText(join(dir, EVAL_FILES.exitCode));
  if (code === undefined) fail(dir, `Eval job has not finished: no ${EVAL_FILES.exitCode} in ${JSON.stringify(dir)}`);
  const rc = code.trim();
  if (!/^-?\d+$/.test(rc)) {
    fail(dir, `Eval job left an unreadable exit code ${JSON.stringify(rc)} in ${JSON.stringify(dir)}`);
  }
  if (rc !== "0") fail(dir, `Eval command exited with code ${rc}`);

  const resultFile = join(dir, EVAL_FILES.result);
  // most commands print their metric rather than write result.json: looked for, not opened (isAbsent)
  const fileText = isAbsent(resultFile) ? undefined : readText(resultFile);
  let source: string;
  let obj: Record<string, unknown> | string;
  if (fileText !== undefined) {
    source = JSON.stringify(resultFile);
    obj = parseObject(fileText);
    if (typeof obj === "string") fail(dir, `Eval result ${source} ${obj}`);
  } else {
    source = "the last line of stdout";
    const line = lastLine(readText(join(dir, EVAL_FILES.stdout)) ?? "");
    if (line === undefined) fail(dir, `Eval command gave no result: no ${EVAL_FILES.result} and nothing on stdout`);
    obj = parseObject(line);
    if (typeof obj === "string") {
      fail(dir, `Eval command gave no result: no ${EVAL_FILES.result}, and the last line of stdout ${obj}`);
    }
  }
  if (!Object.hasOwn(obj, metric)) {
    const keys = Object.keys(obj).map((k) => JSON.stringify(k)).join(", ") || "none";
    fail(dir, `Eval result has no metric ${JSON.stringify(metric)} in ${source}: keys present are ${keys}`);
  }
  const value = obj[metric];
  const metrics = otherNumbers(obj, metric);
  const where = `Eval metric ${JSON.stringify(metric)} in ${source}`;
  if (Array.isArray(value)) {
    const samples = checkSamples(dir, where, value);
    return { value: summarize(samples, summary), samples: sampleSpread(samples), metrics };
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    const what = typeof value === "string"
      ? `the string ${JSON.stringify(value)}; write the metric as a JSON number`
      : `${typeof value === "number" ? String(value) : JSON.stringify(value)}, not a finite number`;
    fail(dir, `${where} is ${what}`);
  }
  return { value, samples: null, metrics };
}

/** Every finite number of `obj` but `metric`'s, by key (own data properties: a `__proto__` key is a key). */
function otherNumbers(obj: Record<string, unknown>, metric: string): Readonly<Record<string, number>> {
  return Object.fromEntries(
    Object.entries(obj).filter((e): e is [string, number] =>
      e[0] !== metric && typeof e[1] === "number" && Number.isFinite(e[1])
    ),
  );
}

/** The samples of an array-valued metric, or an EvalError saying what is wrong with them. */
function checkSamples(dir: string, where: string, value: unknown[]): number[] {
  if (value.length === 0) {
    fail(dir, `${where} is an empty array; report at least one sample (or a single number)`);
  }
  if (value.length > MAX_SAMPLES) {
    fail(
      dir,
      `${where} holds ${value.length} samples, more than the ${MAX_SAMPLES} one measure may report; ` +
        "report fewer (or their summary as a single number)",
    );
  }
  const bad = value.findIndex((x) => typeof x !== "number" || !Number.isFinite(x));
  if (bad >= 0) {
    const x = value[bad];
    const what = typeof x === "string"
      ? `the string ${JSON.stringify(x)}; write each sample as a JSON number`
      : `${typeof x === "number" ? String(x) : clipJson(x)}, not a finite number`;
    fail(dir, `${where} is an array of ${value.length} samples, and sample ${bad + 1} is ${what}`);
  }
  return value as number[];
}

/** A JSON value, quoted short enough for a message. */
function clipJson(x: unknown): string {
  const j = JSON.stringify(x) ?? String(x);
  return j.length > 80 ? `${j.slice(0, 80)}… [${j.length - 80} more characters cut]` : j;
}

/** Fails with `what` (which may quote the job's own text) and the output's tail, all fit for a terminal. */
function fail(dir: string, what: string): never {
  throw new EvalError(escapeControls(what) + tail(dir));
}

/** The parsed JSON object, or why the text is not one (a phrase to follow the source). */
function parseObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Python's json.dumps writes NaN / Infinity, which no JSON parser reads
    const bare = /\b(NaN|-?Infinity)\b/.exec(text);
    if (bare) return `holds ${bare[1]}, not a finite number: ${clip(text)}`;
    return `is not JSON (${(err as Error).message}): ${clip(text)}`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `is not a JSON object: ${clip(text)}`;
  }
  return value as Record<string, unknown>;
}

function lastLine(text: string): string | undefined {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.at(-1);
}

/** A quoted excerpt of the job's text (escaped by `fail`, which every message goes through). */
function clip(text: string): string {
  const t = text.trim();
  return JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}… [${t.length - 200} more characters cut]` : t);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new EvalError(`Cannot read ${JSON.stringify(path)}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The last lines of the job's output, as a block to append to a message; ""
 * when there is none. Escaped and capped (`TAIL`): the job's text must not
 * drive the terminal, and one huge line must not become a huge message.
 */
function tail(dir: string): string {
  const file = join(dir, EVAL_FILES.output);
  const end = readEnd(file, TAIL_READ_BYTES);
  if (end === undefined) return "";
  const text = end.text.trimEnd();
  if (text === "") return "";
  const { lines, note } = safeTail(text, TAIL, end.skipped);
  const body = note === null ? lines : [note, ...lines];
  return `\n--- last ${lines.length} line(s) of ${escapeControls(file)} ---\n${body.join("\n")}`;
}

/** The last `maxBytes` of a file and how many bytes came before them; undefined when it does not exist. */
function readEnd(path: string, maxBytes: number): { text: string; skipped: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new EvalError(`Cannot read ${JSON.stringify(path)}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const size = fstatSync(fd).size;
    const skipped = Math.max(0, size - maxBytes);
    const buf = new Uint8Array(size - skipped);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, skipped + got);
      if (n === 0) break;
      got += n;
    }
    // a character cut at the start decodes as U+FFFD, which the note before it explains
    return { text: new TextDecoder().decode(buf.subarray(0, got)), skipped };
  } finally {
    closeSync(fd);
  }
}
