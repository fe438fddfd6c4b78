// Tested by tests/rundir/calibration_file_test.ts
import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { evalDirPath } from "../dispatch/eval_files.ts";
import { BadInputError } from "../errors.ts";
import { randomHex } from "../runtime/digest.ts";

/**
 * A run directory and every path in it: the one place the on-disk layout is
 * spelled out, so compatibility with the reference (and between our own
 * versions) is checked here and nowhere else. Every other module asks this
 * class for a path; none joins a file name onto a run dir itself.
 *
 * ```text
 * <climb dir>/                      run dirs side by side (`outerloop runs` lists them)
 * ├── baselines/                    the shared baseline cache: <benchmark>@<base sha>.json
 * │                                 (the reference's `run_dir.parent / "baselines"`)
 * └── <run dir>/
 *     ├── run.json                  every input of the plan, frozen by `measure`
 *     ├── decision.json             the verdict; its presence marks the run decided
 *     ├── calibration.json          a calibration's noise report (an A/A run: `outerloop calibrate`)
 *     ├── wake.json                 the wake job of the latest park
 *     ├── wake.out                  the wake jobs' scheduler log (appended)
 *     ├── baseline-cached.json      the cache entry this run took its baseline from
 *     ├── failure.json              the eval failure that ended the run (exit 3), when one did
 *     ├── cancelled.json            the user cancelled the run (`outerloop cancel RUN_DIR`)
 *     ├── lock                      the run lock (O_EXCL), naming its holder
 *     ├── lock.children             the lock holder's running child process groups (sbatch, a local job)
 *     ├── lock.break                held for a few syscalls while a stale lock is broken
 *     ├── lock.stale-<pid>-<hex>    a lock being moved aside by a breaker (transient)
 *     ├── .write-probe-<pid>-<hex>  made and removed at once to prove the dir writable (transient)
 *     └── eval-<slot>/              one per measure; the reference's names (dispatch/eval_files.ts):
 *         ├── job.sh  submitted  started  output.log  stdout.log
 *         └── result.json  exit-code  slurm.out
 * ```
 */
export class RunDir {
  /** The run dir, absolute. */
  readonly path: string;

  constructor(path: string) {
    this.path = resolve(path);
  }

  /** `run.json`: the frozen inputs (`RunRecord`). */
  get runRecord(): string {
    return join(this.path, "run.json");
  }

  /** `decision.json`: the verdict. */
  get decision(): string {
    return join(this.path, "decision.json");
  }

  /** `calibration.json`: what an A/A run says about the benchmark's noise. */
  get calibration(): string {
    return join(this.path, "calibration.json");
  }

  /** `wake.json`: the wake job of the latest park. */
  get wakeRecord(): string {
    return join(this.path, "wake.json");
  }

  /** `wake.out`: where the wake jobs' scheduler output is appended. */
  get wakeLog(): string {
    return join(this.path, "wake.out");
  }

  /** `baseline-cached.json`: the run's own copy of the cache entry its baseline came from. */
  get cachedBaseline(): string {
    return join(this.path, "baseline-cached.json");
  }

  /** `failure.json`: the eval failure that ended the run, written by the pass that met it. */
  get failure(): string {
    return join(this.path, "failure.json");
  }

  /** `cancelled.json`: the run was cancelled by the user; no pass dispatches anything after it. */
  get failureHistory(): string {
    return join(this.path, "failure-history.json");
  }

  get crashes(): string {
    return join(this.path, "crashes.json");
  }

  get cancelled(): string {
    return join(this.path, "cancelled.json");
  }

  /** `lock`: the run lock. Its holder's children are in `lock.children`; breakers use `lock.break` and `lock.stale-*`. */
  get lock(): string {
    return join(this.path, "lock");
  }

  /**
   * The baseline cache shared by every run dir beside this one: a climb's
   * runs on one base reuse one measurement (`baseline: "cached"`).
   */
  get baselineCache(): string {
    return join(dirname(this.path), "baselines");
  }

  /** The eval dir of one measure's slot. */
  evalDir(slot: string): string {
    return evalDirPath(this.path, slot);
  }

  /** The path, for messages. */
  toString(): string {
    return this.path;
  }

  /**
   * Refuses a path no run can live at, before anything is written: the file
   * system root (its parent would hold the shared baseline cache), an
   * existing non-directory. `what` names the flag in the message.
   */
  static checked(path: string, what: string): RunDir {
    if (path.trim() === "") {
      throw new BadInputError(`Invalid ${what} ${JSON.stringify(path)}: name a directory for the run`);
    }
    const dir = new RunDir(path);
    if (dirname(dir.path) === dir.path) {
      throw new BadInputError(`Invalid ${what} ${JSON.stringify(path)}: the file system root cannot be a run dir`);
    }
    let isDir: boolean | null = null;
    try {
      isDir = statSync(dir.path).isDirectory();
    } catch {
      // absent: created when the run starts
    }
    if (isDir === false) {
      throw new BadInputError(`Invalid ${what} ${JSON.stringify(path)}: it exists and is not a directory`);
    }
    return dir;
  }

  /**
   * Creates the run dir (and parents) and proves it writable; a dir that
   * cannot be made or written is the user's to fix (exit 2), before the
   * first real write. `what` names the flag in the message.
   */
  create(what: string): void {
    try {
      mkdirSync(this.path, { recursive: true });
    } catch (err) {
      throw new BadInputError(
        `Cannot create ${what} ${JSON.stringify(this.path)}: ${(err as Error).message}; pick a writable directory`,
        { cause: err },
      );
    }
    this.checkWritable(what, "pick a writable directory");
  }

  /**
   * Refuses a run dir this process cannot create files in — a read-only file
   * system, a directory it has no write permission on, a pseudo file system —
   * by creating and removing a probe file: `access(W_OK)` answers "yes" to
   * root on any mode and, under Deno, on a read-only mount. `what` names the
   * flag or argument in the message, `fix` ends it.
   */
  checkWritable(what: string, fix: string): void {
    // the global `process`: importing node:process costs every command that reads a run dir ~0.2M instructions
    const probe = join(this.path, `.write-probe-${process.pid}-${randomHex(4)}`);
    try {
      closeSync(openSync(probe, "wx"));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === "EROFS"
        ? "it is on a read-only file system"
        : code === "EACCES" || code === "EPERM"
        ? "this user may not create files in it"
        : (err as Error).message;
      throw new BadInputError(
        `Cannot write in ${what} ${JSON.stringify(this.path)}: ${why}; ${fix}`,
        { cause: err },
      );
    }
    unlinkSync(probe);
  }
}
