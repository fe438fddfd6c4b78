// Tested by tests/dispatch/eval_script_test.ts
import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { atomicWriteFile } from "../fs/atomic_write.ts";
import { FULL_SHA } from "./pin.ts";
import { EVAL_FILES, evalDirPath } from "./eval_files.ts";
import { DEFAULT_ALLOWED_ENV, renderEvalScript } from "./eval_script.ts";

/** What one eval job runs, and where from. */
export interface EvalJobOptions {
  /** The repo whose `refs/dispatch/<sha>` pins the snapshot. */
  readonly repoRoot: string;
  /** The sealed commit: full lower-case sha. */
  readonly snapshotSha: string;
  /** The contract command, run by `sh -c` in the checkout. */
  readonly command: string;
  /** An apptainer image; empty or omitted runs on the host. */
  readonly image?: string | undefined;
  /** The measure's env (its seed): set for the command, over the allowed variables. */
  readonly extraEnv?: Readonly<Record<string, string>> | undefined;
  /** GPUs: above 0 adds `--nv` to the apptainer call. */
  readonly gpus?: number | undefined;
  /** A directory merged into every checkout (warm caches); the committed tree wins a clash. */
  readonly seedCache?: string | null | undefined;
  /** Which of the job's own variables the command sees; default `DEFAULT_ALLOWED_ENV`. */
  readonly allowedEnv?: readonly string[] | undefined;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Writes the eval job for one slot as `<runDir>/eval-<slot>/job.sh` and
 * returns its path. The job checks the sealed sha out into a fresh
 * directory (never the user's working tree), runs the command there with
 * `$OUTERLOOP_RESULT` naming `result.json`, records `output.log` and
 * `stdout.log`, writes `exit-code` last and atomically (143 on TERM), and
 * removes the checkout. Leftover records of an earlier attempt in the dir are
 * removed, so nothing stale reads as this job's result.
 */
export function writeEvalJob(runDir: string, slot: string, opts: EvalJobOptions): string {
  const dir = resolve(evalDirPath(runDir, slot));
  const image = opts.image ?? "";
  const gpus = opts.gpus ?? 0;
  const env = Object.entries(opts.extraEnv ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const allowedEnv = opts.allowedEnv ?? DEFAULT_ALLOWED_ENV;
  if (!FULL_SHA.test(opts.snapshotSha)) {
    throw new TypeError(
      `Invalid snapshot sha ${JSON.stringify(opts.snapshotSha)}: expected a full lower-case commit sha`,
    );
  }
  if (opts.command.trim() === "") throw new TypeError("Eval command is empty: the contract needs a command");
  if (!Number.isInteger(gpus) || gpus < 0) {
    throw new RangeError(`Invalid GPU count ${JSON.stringify(gpus)}: expected a whole number >= 0`);
  }
  for (const [key] of env) {
    if (!IDENTIFIER.test(key)) {
      throw new TypeError(
        `Invalid env variable name ${JSON.stringify(key)}: expected letters, digits and '_', not starting with a digit`,
      );
    }
    if (key === "OUTERLOOP_RESULT") {
      throw new TypeError(
        `Env variable "OUTERLOOP_RESULT" is set by the eval job itself: remove it from the measure's env`,
      );
    }
  }
  for (const name of allowedEnv) {
    if (!IDENTIFIER.test(name)) {
      throw new TypeError(`Invalid allowed env name ${JSON.stringify(name)}: expected a shell identifier`);
    }
  }
  if (image.startsWith("-")) {
    throw new TypeError(`Invalid image ${JSON.stringify(image)}: it would read as an apptainer option`);
  }
  if (image !== "" && /[,:]/.test(dir)) {
    throw new TypeError(
      `Cannot bind the eval dir ${
        JSON.stringify(dir)
      } into a container: apptainer reads ',' and ':' in a bind path as separators; use a run dir without them`,
    );
  }
  const seedCache = opts.seedCache ? resolve(opts.seedCache) : "";
  const repoRoot = resolve(opts.repoRoot);

  mkdirSync(dir, { recursive: true });
  for (const stale of [EVAL_FILES.exitCode, `${EVAL_FILES.exitCode}.tmp`, EVAL_FILES.result, EVAL_FILES.provenance]) {
    rmSync(join(dir, stale), { force: true });
  }
  const script = join(dir, EVAL_FILES.script);
  atomicWriteFile(
    script,
    renderEvalScript({
      evalDir: dir,
      repoRoot,
      sha: opts.snapshotSha,
      command: opts.command,
      image,
      gpus,
      seedCache,
      env,
      allowedEnv,
    }),
  );
  chmodSync(script, 0o755);
  return script;
}
