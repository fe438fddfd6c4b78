import { tempDir } from "./temp.ts";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "../../src/runtime/spawn.ts";

const GIT_ENV = {
  PATH: "/usr/bin:/bin",
  HOME: tmpdir(),
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Runs git in `cwd`; its trimmed stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await spawn({ argv: ["git", ...args], cwd, env: GIT_ENV });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * A repository with one commit per entry of `commits` (file name → content),
 * each on top of the last; the commit shas in order.
 */
export async function makeRepo(commits: readonly Record<string, string>[]): Promise<{ repo: string; shas: string[] }> {
  const repo = tempDir("repo-");
  await git(repo, "init", "--quiet", "--initial-branch=main");
  const shas: string[] = [];
  for (const [i, files] of commits.entries()) {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(repo, name), content);
    await git(repo, "add", "-A");
    await git(repo, "commit", "--quiet", "-m", `commit ${i}`);
    shas.push(await git(repo, "rev-parse", "HEAD"));
  }
  return { repo, shas };
}
