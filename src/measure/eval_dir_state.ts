import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { EVAL_FILES } from "../dispatch/eval_files.ts";
import { type Provenance, readProvenance } from "../dispatch/provenance.ts";
import { FORGOTTEN_FILE, RETRIED_FILE } from "./attempts.ts";

/**
 * What one measure's eval dir says, read at most once per pass: a pass over
 * a thousand measures opens each of their files once, not once per question
 * (`observe`, the dispatch, the reading of results all ask the same value).
 * Each file is read when first asked for — a pending measure's result is
 * never opened — and remembered; `forget` drops what a write of the pass
 * itself changed (a marker it recorded, files it moved aside).
 */
export class EvalDirState {
  readonly dir: string;
  #marker: string | undefined;
  #markerMs: number | null | undefined;
  #exitCode: string | null | undefined;
  #exitCodeMs: number | null | undefined;
  #started: boolean | undefined;
  #retried: readonly string[] | undefined;
  #forgotten: readonly string[] | undefined;
  #provenance: Provenance | null | undefined;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The job id recorded at dispatch (`submitted`), or "" when there is none. */
  get marker(): string {
    return this.#marker ??= readOptional(join(this.dir, EVAL_FILES.submitted))?.trim() ?? "";
  }

  /**
   * When the marker was written (epoch ms), null without one: asked only of
   * jobs the listing misses (a stat, no open).
   */
  get markerMs(): number | null {
    if (this.#markerMs === undefined) {
      try {
        this.#markerMs = this.marker === "" ? null : statSync(join(this.dir, EVAL_FILES.submitted)).mtimeMs;
      } catch {
        this.#markerMs = null;
      }
    }
    return this.#markerMs;
  }

  /**
   * The trimmed `exit-code` (the job is over), or null while it has none: a
   * pending measure's is looked for, not opened (a failed read throws, and a
   * thousand throws cost more than the rest of the pass's own work).
   */
  get exitCode(): string | null {
    if (this.#exitCode === undefined) {
      const path = join(this.dir, EVAL_FILES.exitCode);
      this.#exitCode = existsSync(path) ? readOptional(path)?.trim() ?? null : null;
    }
    return this.#exitCode;
  }

  /** Re-reads `exit-code`: a job may finish while the scheduler is answering (asked only of jobs it misses). */
  recheckExitCode(): string | null {
    if (this.#exitCode === null) this.#exitCode = undefined;
    return this.exitCode;
  }

  /** When `exit-code` was written (epoch ms), null without one: asked only of a signal's exit (a stat, no open). */
  get exitCodeMs(): number | null {
    if (this.#exitCodeMs === undefined) {
      try {
        this.#exitCodeMs = this.exitCode === null ? null : statSync(join(this.dir, EVAL_FILES.exitCode)).mtimeMs;
      } catch {
        this.#exitCodeMs = null;
      }
    }
    return this.#exitCodeMs;
  }

  /** Whether the eval started (its `started` line). */
  get started(): boolean {
    if (this.#started === undefined) this.#started = existsSync(join(this.dir, EVAL_FILES.started));
    return this.#started;
  }

  /** The jobs sent again after a death that was nobody's code (attempts.ts), oldest first. */
  get retried(): readonly string[] {
    return this.#retried ??= lines(readOptional(join(this.dir, RETRIED_FILE)));
  }

  /** The jobs of failed attempts set aside for a later pass (`forgetFailed`), oldest first. */
  get forgotten(): readonly string[] {
    return this.#forgotten ??= lines(readOptional(join(this.dir, FORGOTTEN_FILE)));
  }

  /** Where and when the command ran, or null (dispatch/provenance.ts). */
  get provenance(): Provenance | null {
    if (this.#provenance === undefined) this.#provenance = readProvenance(this.dir);
    return this.#provenance;
  }

  /** Drops every remembered file: the pass itself changed the dir. */
  forget(): void {
    this.#marker =
      this.#markerMs =
      this.#exitCode =
      this.#exitCodeMs =
      this.#started =
        undefined;
    this.#retried = this.#forgotten = this.#provenance = undefined;
  }

  /** Records the marker the pass itself just wrote, without reading it back. */
  marked(id: string, atMs: number): void {
    this.#marker = id;
    this.#markerMs = atMs;
  }
}

/** A marker file's text, "" when it does not exist. */
export function readMarker(path: string): string {
  return readOptional(path)?.trim() ?? "";
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function lines(text: string | undefined): string[] {
  return (text ?? "").split("\n").filter((l) => l !== "");
}
