/**
 * Every exit code outerloop gives, in one table, and what each means to each
 * kind of command: `--help` (`cli/help.ts`), the README's "Exit codes"
 * section and the docs are written from `EXIT_CODE_TABLE`
 * (`exitCodesMarkdown`), and tests/exit_codes_test.ts checks the README
 * against it, so no text retypes a code. Errors say which kind they are
 * (`OuterloopError.exit`), verdicts which verdict; this module maps both to
 * the number. It imports nothing, so every layer can reach it.
 */

/** The process exit codes, by meaning. */
export const EXIT = {
  /** Accepted (a verdict), calibrated, or any other command's success. */
  ok: 0,
  /** A bug in outerloop: the stack trace is printed. */
  internal: 1,
  /** A flag, a contract field, a ref, a damaged run file, the user's set-up. */
  badInput: 2,
  /** An evaluation gave no usable result, or the user cancelled the run. */
  evalFailed: 3,
  /** The scheduler refused or could not be reached; nothing is lost. */
  scheduler: 4,
  /** The verdict is reject. */
  rejected: 10,
  /** The verdict is inconclusive. */
  inconclusive: 11,
  /**
   * The candidate crashed: its eval exited non-zero, printed no usable metric, or ran past eval_minutes
   * (a round: every candidate crashed). A verdict on the proposal, not a failure of the run: read its log,
   * fix or discard it.
   */
  crashed: 12,
  /** Parked: a wake job resumes the run (or another process holds it); `wait` detached or timed out. */
  parked: 75,
  /**
   * Interrupted by Ctrl-C (SIGINT) during a pass, measuring locally above all: nothing of the interrupted evals
   * is kept; `resume` goes on. Not returned but died of: outerloop re-raises the signal after stopping its
   * children, and a shell reports that as 128 + 2 (so a shell loop running outerloop stops on Ctrl-C too).
   */
  interrupted: 130,
  /** Terminated by TERM, as `interrupted` otherwise: a shell reports the death as 128 + 15 (a HUP: 129). */
  terminated: 143,
} as const;

/** What an error means for the caller, in the exit-code vocabulary. */
export type ExitKind = "bad-input" | "eval-failed" | "scheduler" | "parked" | "interrupted";

/** The exit code of each error kind. */
export const EXIT_OF: Readonly<Record<ExitKind, number>> = {
  "bad-input": EXIT.badInput,
  "eval-failed": EXIT.evalFailed,
  "scheduler": EXIT.scheduler,
  "parked": EXIT.parked,
  "interrupted": EXIT.interrupted,
};

/** The exit code of each verdict of `measure`, `resume` and `wait`. */
export const VERDICT_EXIT: Readonly<Record<"accept" | "reject" | "inconclusive" | "crashed", number>> = {
  accept: EXIT.ok,
  reject: EXIT.rejected,
  inconclusive: EXIT.inconclusive,
  crashed: EXIT.crashed,
};

/** The commands by what their exit codes mean: the table's columns. */
const EXIT_GROUPS = {
  /** The commands that decide a run, or wait for its decision: they exit with its verdict. */
  decide: ["measure", "resume", "wait"],
  /** A calibration: it parks and fails like a measure, and ends calibrated instead of with a verdict. */
  calibrate: ["calibrate"],
} as const;

/** A column of the table: `decide`, `calibrate`, or every other command. */
export type ExitGroup = keyof typeof EXIT_GROUPS | "other";

/** What a code means to one group: a few words for `--help`, and the whole of it for the README and the docs. */
export interface ExitMeaning {
  readonly brief: string;
  /** The README's and the docs' text; `brief` when absent. */
  readonly full?: string;
}

/** One row of the table: what the code means to each group; `same` as to `decide`; null: that group never exits with it. */
export interface ExitCodeRow {
  readonly code: number;
  readonly decide: ExitMeaning;
  readonly calibrate: ExitMeaning | "same" | null;
  readonly other: ExitMeaning | "same" | null;
}

/** The one exit-code table, in the order a reader looks for a code: the verdicts, a park, the failures. */
export const EXIT_CODE_TABLE: readonly ExitCodeRow[] = [
  {
    code: EXIT.ok,
    decide: { brief: "accepted (a round: it named a winner)" },
    calibrate: { brief: "calibrated" },
    other: { brief: "success" },
  },
  {
    code: EXIT.rejected,
    decide: { brief: "rejected (a round: every candidate rejected or crashed, not all crashed)" },
    calibrate: null,
    other: null,
  },
  {
    code: EXIT.inconclusive,
    decide: { brief: "inconclusive (a round: no winner, some candidate neither rejected nor crashed)" },
    calibrate: null,
    other: null,
  },
  {
    code: EXIT.crashed,
    decide: {
      brief: "the candidate crashed (a round: every candidate crashed): a verdict on the proposal, not a failure",
      full: "the candidate crashed (a round: every candidate crashed): its eval exited non-zero, gave no usable " +
        "metric, or ran past `eval_minutes` — a verdict on the proposal, not a failure of the run",
    },
    calibrate: null,
    other: null,
  },
  {
    code: EXIT.parked,
    decide: {
      brief: "parked: a wake job will resume (or another resume holds the run); wait: detached or --timeout",
      full: "parked: a wake job will resume (or another resume holds the run); `wait`: detached (Ctrl-C) or " +
        "`--timeout`",
    },
    calibrate: "same",
    other: null,
  },
  {
    code: EXIT.evalFailed,
    decide: {
      brief: "the run failed (the message says why; resume --retry-failed once fixed) or was cancelled",
      full: "the run failed: its baseline's eval failed, a pair job split over hosts, or a job was lost to the " +
        "machine more often than it is sent again (the message says why, with the tail of the job's output; " +
        "`resume --retry-failed` takes it up once the cause is fixed), or the run was cancelled by the user",
    },
    calibrate: "same",
    other: null,
  },
  {
    code: EXIT.interrupted,
    decide: {
      brief: "interrupted by Ctrl-C (SIGINT); resume goes on",
      full: "interrupted by Ctrl-C (SIGINT); a pass says on stderr what it stopped, and `resume` goes on (see below)",
    },
    calibrate: "same",
    other: "same",
  },
  {
    code: EXIT.terminated,
    decide: { brief: "terminated (SIGTERM; 129 for a hang-up), as for 130" },
    calibrate: "same",
    other: "same",
  },
  {
    code: EXIT.scheduler,
    decide: {
      brief: "the scheduler refused or was unreachable; nothing is lost",
      full: "the scheduler refused or was unreachable; nothing is lost, run `resume` later",
    },
    calibrate: "same",
    other: "same",
  },
  {
    code: EXIT.badInput,
    decide: { brief: "bad input: a flag, a contract field, a ref, a damaged run file" },
    calibrate: "same",
    other: "same",
  },
  {
    code: EXIT.internal,
    decide: { brief: "internal error (a bug: please report it with the stack trace printed)" },
    calibrate: "same",
    other: "same",
  },
];

/** The group a command's exit codes belong to: `decide`, `calibrate`, or `other`. */
export function exitGroupOf(command: string): ExitGroup {
  for (const [group, names] of Object.entries(EXIT_GROUPS)) {
    if ((names as readonly string[]).includes(command)) return group as ExitGroup;
  }
  return "other";
}

/** What `row`'s code means to `group`, or null when no command of it exits with the code. */
export function exitMeaning(row: ExitCodeRow, group: ExitGroup): ExitMeaning | null {
  const cell = group === "decide" ? row.decide : row[group];
  return cell === "same" ? row.decide : cell;
}

/** The codes `command` can exit with, each with what it means there, in the table's order. */
export function exitCodesOf(command: string): readonly { readonly code: number; readonly meaning: ExitMeaning }[] {
  const group = exitGroupOf(command);
  return EXIT_CODE_TABLE.flatMap((row) => {
    const meaning = exitMeaning(row, group);
    return meaning === null ? [] : [{ code: row.code, meaning }];
  });
}

/**
 * The table as Markdown, for the README's "Exit codes" section and the docs:
 * a column per group, `same` where a group's meaning is `decide`'s, cells
 * padded as `deno fmt` lays a table out (so the README stays formatted).
 */
export function exitCodesMarkdown(): string {
  const header = ["code", "`measure` / `resume` / `wait`", "`calibrate`", "other commands"];
  const text = (cell: ExitMeaning | "same" | null) =>
    cell === null ? "" : cell === "same" ? "same" : cell.full ?? cell.brief;
  const rows = EXIT_CODE_TABLE.map((r) => [String(r.code), text(r.decide), text(r.calibrate), text(r.other)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}
