import { OuterloopError } from "../../errors.ts";
import { evaluateRun } from "../../evaluation/evaluate.ts";
import { readRunSnapshot } from "../../evaluation/snapshot.ts";
import { failureJson } from "../../rundir/failure_file.ts";
import { RunDir } from "../../rundir/run_dir.ts";
import { sayOnStop } from "../../runtime/live_groups.ts";
import type { ErrorJson, InterruptedJson } from "../../output/error_output.ts";

/** Says `line(signal)` on stdout when a signal stops the command; returns the function that takes it back. */
export function onStopJson(line: (sig: string) => string): () => void {
  return sayOnStop(line, 1);
}

/**
 * The one JSON object a `--json` command prints on stdout when it ends with
 * an error (exit 2, 3, 4, 75 from a held run, 1 for a bug): what went wrong
 * and, when the command acted on a run dir whose files can be read, where
 * the run stands — so a script always has an answer to parse, never an empty
 * stdout and a sentence on stderr:
 *
 * ```json
 * {"status": "error", "command": "resume", "exit_code": 3,
 *  "error": {"kind": "eval-failed", "message": "measure baseline: Eval command exited with code 1 …"},
 *  "run_dir": "/runs/r4", "state": "failed", "verdict": null,
 *  "failure": {"measure": "baseline", "job_id": "1234_0", "kind": "exit",
 *              "cause": "eval command exited with code 1", "message": "…", "failed_at": "…"},
 *  "cancelled": null}
 * ```
 *
 * `error.kind` is the exit code's meaning (`bad-input`, `eval-failed`,
 * `scheduler`, `parked`, `interrupted`, `internal`); `state` the run's
 * standing (null when the command had no run dir or its files cannot be
 * read). The message is the one stderr has.
 */
export function errorJson(command: string, err: unknown, code: number, runDir: RunDir | null): ErrorJson {
  const kind = err instanceof OuterloopError ? err.exit : "internal";
  const message = err instanceof Error ? err.message : String(err);
  return {
    status: "error",
    command,
    exit_code: code,
    error: { kind, message },
    run_dir: runDir?.path ?? null,
    ...runFacts(runDir),
  };
}

/** The run's standing as the JSON of an error gives it; nulls when there is no readable run. */
function runFacts(runDir: RunDir | null): Pick<ErrorJson, "state" | "verdict" | "failure" | "cancelled"> {
  const none = { state: null, verdict: null, failure: null, cancelled: null };
  if (runDir === null) return none;
  let s;
  try {
    s = evaluateRun(readRunSnapshot(runDir)).standing;
  } catch {
    return none; // no run.json yet, or a damaged one: the error says which
  }
  return {
    state: s.kind,
    verdict: s.kind === "decided" ? s.decision.verdict : null,
    failure: s.kind === "failed" ? failureJson(s.failure) : null,
    cancelled: s.kind === "cancelled" ? { cancelled_at: s.cancel.cancelledAt, jobs: [...s.cancel.jobs] } : null,
  };
}

/** The line a `--json` command prints on stdout when a signal stops it (it then dies of the signal). */
export function interruptedJson(command: string, signal: string, runDir: RunDir | null): string {
  const code = signal === "SIGINT" ? 130 : signal === "SIGHUP" ? 129 : 143;
  const out: InterruptedJson = {
    status: "interrupted",
    command,
    exit_code: code,
    error: { kind: "interrupted", message: `stopped by ${signal}` },
    run_dir: runDir?.path ?? null,
    state: null,
    verdict: null,
    failure: null,
    cancelled: null,
  };
  return JSON.stringify(out);
}

/** The run dir a command's options name, for the error's JSON: `runDir`, a run's `request.runDir`, a run `target`. */
export function runDirOfOptions(o: unknown): RunDir | null {
  if (typeof o !== "object" || o === null) return null;
  const x = o as { runDir?: unknown; request?: { runDir?: unknown }; target?: { dir?: unknown } };
  for (const d of [x.runDir, x.request?.runDir, x.target?.dir]) if (d instanceof RunDir) return d;
  return null;
}
