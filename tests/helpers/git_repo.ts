import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.ts";

/** Git's environment in tests: a fixed identity, no system or user config, nothing of the runner's git vars. */
const GIT_ENV = {
  PATH: "/usr/bin:/bin",
  HOME: "/nonexistent",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** Runs git in `cwd`; its trimmed stdout, or a throw with its stderr. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    .trim();
}

/**
 * A repository with one commit per entry of `commits` (file name → content),
 * each on top of the last, on branch `main`; the commit shas in order. In a
 * fresh temp dir unless `dir` names where (created).
 */
export function makeRepo(
  commits: readonly Record<string, string>[],
  dir: string = tempDir("repo-"),
): { repo: string; shas: string[] } {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  const shas: string[] = [];
  for (const [i, files] of commits.entries()) {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    git(dir, "add", "-A");
    git(dir, "commit", "--quiet", "-m", `commit ${i}`);
    shas.push(git(dir, "rev-parse", "HEAD"));
  }
  return { repo: dir, shas };
}
