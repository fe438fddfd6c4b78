import { realpathSync } from "node:fs";
import process from "node:process";
import { BadInputError } from "../errors.ts";
import { spawn, type SpawnResult } from "../runtime/spawn.ts";

/** Runs one git argv to its end (`timedOut` when it did not finish); injected so tests can script answers. */
export type GitRun = (argv: readonly string[]) => Promise<SpawnResult>;

/**
 * Variables that point git at a different repository, index or ref namespace
 * than the `-C` directory (git sets them for hooks): inherited, they would
 * make us pin or resolve in the wrong repo.
 */
const REDIRECTING = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
];

/** The real runner: the runtime's spawn, stdout and stderr apart, without repo-redirecting variables. */
export const gitRun: GitRun = async (argv) => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !REDIRECTING.includes(k)) env[k] = v;
  }
  return await spawn({ argv, env, output: "separate", timeoutMs: 120_000 });
};

/** A ref that names no commit, or a repository git cannot pin in: the user's to fix (exit 2). */
export class GitError extends BadInputError {
  override name = "GitError";
}

/** A full object name: 40 hex (SHA-1 repos) or 64 hex (SHA-256 repos), lower case. */
export const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The ref that keeps a sealed sha alive: `refs/dispatch/<sha>`. */
export function dispatchRef(sha: string): string {
  return `refs/dispatch/${sha}`;
}

/**
 * Pins `sha` in the repo as `refs/dispatch/<sha>`, so the eval jobs that
 * check it out later still find it after the branch moves, a rebase, or a
 * `git gc` prunes what no ref reaches. Idempotent. Returns the ref.
 */
export async function pinSha(repoRoot: string, sha: string, run: GitRun = gitRun): Promise<string> {
  if (!FULL_SHA.test(sha)) {
    throw new TypeError(
      `Cannot pin ${JSON.stringify(sha)} in ${
        JSON.stringify(repoRoot)
      }: expected a full lower-case commit sha (resolve the ref first)`,
    );
  }
  const ref = dispatchRef(sha);
  const r = await run(["git", "-C", repoRoot, "update-ref", ref, sha]);
  if (r.exitCode !== 0 || r.timedOut) {
    throw new GitError(
      `Cannot pin ${JSON.stringify(sha)} as ${JSON.stringify(ref)} in ${JSON.stringify(repoRoot)}: ${detail(r)}`,
    );
  }
  return ref;
}

/**
 * The full commit sha that `ref` (a branch, tag, `HEAD~2`, a sha prefix…)
 * names in the repo. Peels tags to the commit; refuses anything that is not
 * a commit, and refs that git would read as options.
 */
export async function resolveRef(repoRoot: string, ref: string, run: GitRun = gitRun): Promise<string> {
  if (ref === "" || ref.startsWith("-")) {
    throw new GitError(`Cannot resolve ${JSON.stringify(ref)} in ${JSON.stringify(repoRoot)}: not a git ref`);
  }
  const r = await run(["git", "-C", repoRoot, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  const sha = r.stdout.trim();
  if (r.exitCode !== 0 || r.timedOut || !FULL_SHA.test(sha)) {
    // --quiet: a ref that names no commit fails without a word
    const why = r.timedOut || r.exitCode === null || r.stderr.trim() !== ""
      ? detail(r)
      : r.exitCode === 0
      ? `git printed ${JSON.stringify(sha)}`
      : "no such commit";
    throw new GitError(`Cannot resolve ${JSON.stringify(ref)} to a commit in ${JSON.stringify(repoRoot)}: ${why}`);
  }
  return sha;
}

function detail(r: SpawnResult): string {
  if (r.timedOut) return "git did not finish in time";
  if (r.exitCode === null) return `git was killed by ${r.signal ?? "a signal"}`;
  return r.stderr.trim() || `git exited with code ${r.exitCode}`;
}

/**
 * Refuses a `--repo` that is not a repository's top directory: the eval jobs
 * `git clone` it, and a clone of a subdirectory of a work tree (or of a plain
 * directory) fails in every job. A bare repository is fine.
 */
export async function checkRepoRoot(repo: string, run: GitRun = gitRun): Promise<void> {
  const bare = await run(["git", "-C", repo, "rev-parse", "--is-bare-repository"]);
  if (bare.exitCode !== 0) {
    throw new GitError(`--repo ${JSON.stringify(repo)} is not a git repository: ${detail(bare)}`);
  }
  if (bare.stdout.trim() === "true") return;
  const top = await run(["git", "-C", repo, "rev-parse", "--show-toplevel"]);
  const root = top.stdout.trim();
  if (top.exitCode !== 0 || root === "") {
    throw new GitError(`--repo ${JSON.stringify(repo)} has no work tree git can name: ${detail(top)}`);
  }
  if (realpathSync(root) !== realpathSync(repo)) {
    throw new GitError(
      `--repo ${JSON.stringify(repo)} is inside the work tree ${JSON.stringify(root)}, not its top: pass --repo ${
        JSON.stringify(root)
      }`,
    );
  }
}
