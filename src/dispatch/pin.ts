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

/**
 * The real runner: the runtime's spawn, stdout and stderr apart, without
 * repo-redirecting variables, and in the C locale — `resolveRef` reads git's
 * ambiguity warning, which a translated git would word otherwise.
 */
const gitRun: GitRun = async (argv) => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !REDIRECTING.includes(k)) env[k] = v;
  }
  env["LC_ALL"] = "C";
  return await spawn({ argv, env, output: "separate", timeoutMs: 120_000 });
};

/** The shas pinned under `refs/dispatch/` in the repo, in git's order. */
export async function listPins(repoRoot: string, run: GitRun = gitRun): Promise<string[]> {
  const r = await run(["git", "-C", repoRoot, "for-each-ref", "--format=%(refname)", "refs/dispatch/"]);
  if (r.exitCode !== 0 || r.timedOut) {
    throw new GitError(`Cannot list the pins (refs/dispatch/) of ${JSON.stringify(repoRoot)}: ${detail(r)}`);
  }
  return lines(r.stdout).map((ref) => ref.slice("refs/dispatch/".length)).filter((sha) => FULL_SHA.test(sha));
}

/**
 * Removes the pin of `sha` (`refs/dispatch/<sha>`), only while it still
 * points at `sha` (git's old-value check): what `pinSha` made, no other ref.
 */
export async function unpinSha(repoRoot: string, sha: string, run: GitRun = gitRun): Promise<void> {
  const ref = dispatchRef(sha);
  const r = await run(["git", "-C", repoRoot, "update-ref", "-d", ref, sha]);
  if (r.exitCode !== 0 || r.timedOut) {
    throw new GitError(`Cannot remove the pin ${JSON.stringify(ref)} in ${JSON.stringify(repoRoot)}: ${detail(r)}`);
  }
}

/**
 * The subject (first line of the message) of commit `sha` in the repo: a
 * run's label when `--label` is not given. "" when git cannot say (the
 * label is informational: a run never fails for want of one).
 */
export async function commitSubject(repoRoot: string, sha: string, run: GitRun = gitRun): Promise<string> {
  const r = await run(["git", "-C", repoRoot, "log", "-1", "--format=%s", sha, "--"]);
  return r.exitCode === 0 && !r.timedOut ? r.stdout.trim() : "";
}

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
 * a commit, refs that git would read as options, and an ambiguous name —
 * a branch and a tag both called `x`, or a branch whose name is also the
 * start of a sha — which git resolves by a silent preference (the tag wins)
 * with only a warning on stderr: `AmbiguousRefError` names the candidates.
 */
export async function resolveRef(repoRoot: string, ref: string, run: GitRun = gitRun): Promise<string> {
  if (ref === "" || ref.startsWith("-")) {
    throw new GitError(`Cannot resolve ${JSON.stringify(ref)} in ${JSON.stringify(repoRoot)}: not a git ref`);
  }
  // not --quiet, which silences the ambiguity warning too; the warning forced on whatever the repo's config says
  const r = await run([
    "git",
    "-C",
    repoRoot,
    "-c",
    "core.warnAmbiguousRefs=true",
    "rev-parse",
    "--verify",
    `${ref}^{commit}`,
  ]);
  const sha = r.stdout.trim();
  if (r.exitCode !== 0 || r.timedOut || !FULL_SHA.test(sha)) {
    // --verify ends every refusal with "Needed a single revision"; a name that is no commit says nothing else
    const said = lines(r.stderr).filter((l) => l !== "fatal: Needed a single revision" && !l.startsWith("warning: "));
    const why = r.timedOut || r.exitCode === null
      ? detail(r)
      : r.exitCode === 0
      ? `git printed ${JSON.stringify(sha)}`
      : said.length === 0
      ? "no such commit"
      : said.join("; ");
    throw new GitError(`Cannot resolve ${JSON.stringify(ref)} to a commit in ${JSON.stringify(repoRoot)}: ${why}`);
  }
  const ambiguous = /^warning: refname '(.*)' is ambiguous\.$/m.exec(r.stderr);
  // a full sha also names a ref of that name (which git warns no git command makes): git takes the object, as meant
  if (ambiguous && !FULL_SHA.test(ambiguous[1]!)) throw await ambiguityError(repoRoot, ref, ambiguous[1]!, run);
  return sha;
}

/** A ref name that names more than one thing; bad input (exit 2). */
export class AmbiguousRefError extends GitError {
  override name = "AmbiguousRefError";
  /** The ambiguous name (in `main~1`, `main`). */
  readonly refname: string;
  /** The full refs it names, in git's order of preference; a sha prefix is not among them. */
  readonly candidates: readonly string[];
  constructor(message: string, refname: string, candidates: readonly string[]) {
    super(message);
    this.refname = refname;
    this.candidates = candidates;
  }
}

/** Where git looks for a short name, in its order of preference (git-rev-parse(1), "SPECIFYING REVISIONS"). */
const DWIM = ["refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"];

async function ambiguityError(repoRoot: string, ref: string, name: string, run: GitRun): Promise<AmbiguousRefError> {
  const full = DWIM.map((pattern) => pattern.replace("%s", name));
  const listed = await run(["git", "-C", repoRoot, "for-each-ref", "--format=%(refname) %(objectname)", ...full]);
  const found = new Map<string, string>();
  for (const line of listed.exitCode === 0 ? listed.stdout.split("\n") : []) {
    const [refname, object] = line.split(" ");
    if (refname !== undefined && object !== undefined && full.includes(refname)) found.set(refname, object);
  }
  const candidates = full.filter((f) => found.has(f));
  const named = candidates.map((c) => `${c} (${found.get(c)!.slice(0, 12)})`);
  // git also warns of a ref whose name is the start of an object's sha
  if (/^[0-9a-f]{4,64}$/.test(name) && candidates.length < 2) named.push(`the object whose sha starts with ${name}`);
  const both = named.length === 0 ? "more than one ref" : named.join(" and ");
  const fix = candidates.length === 0
    ? "name it in full (refs/heads/…, refs/tags/…) or by its full sha"
    : `name the one you mean in full: ${candidates.join(" or ")}${
      named.length > candidates.length ? ", or a full sha" : ""
    }`;
  const within = name === ref ? "" : ` (in ${JSON.stringify(ref)})`;
  return new AmbiguousRefError(
    `Ref ${JSON.stringify(name)}${within} is ambiguous in ${JSON.stringify(repoRoot)}: it names ${both}; ${fix}`,
    name,
    candidates,
  );
}

/** Why git failed, in one line: a message is one line however many git printed. */
function detail(r: SpawnResult): string {
  if (r.timedOut) return "git did not finish in time";
  if (r.exitCode === null) return `git was killed by ${r.signal ?? "a signal"}`;
  return lines(r.stderr).join("; ") || `git exited with code ${r.exitCode}`;
}

/** The non-empty lines of git's output, trimmed. */
function lines(text: string): string[] {
  return text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
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
