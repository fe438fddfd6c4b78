// test.sh: alone — it sets GIT_DIR in this process's environment, which deno's parallel workers share
import { tempDir } from "../helpers/temp.ts";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { exited } from "../helpers/proc.ts";
import { git, makeRepo } from "../helpers/git_repo.ts";
import { AmbiguousRefError, dispatchRef, type GitRun, pinSha, resolveRef } from "../../src/dispatch/pin.ts";

/** A repo with two commits on main, an annotated tag on the first. */
function twoCommits(): { repo: string; first: string; second: string } {
  const { repo, shas: [first, second] } = makeRepo([{ f: "1\n" }, { f: "2\n" }]);
  git(repo, "tag", "-a", "-m", "release", "v1", first!);
  return { repo, first: first!, second: second! };
}

describe("pinSha()", () => {
  it("creates refs/dispatch/<sha>, idempotently", async () => {
    const { repo, second } = twoCommits();
    assert.equal(await pinSha(repo, second), `refs/dispatch/${second}`);
    assert.equal(await pinSha(repo, second), dispatchRef(second));
    assert.equal(git(repo, "rev-parse", `refs/dispatch/${second}`), second);
  });

  it("keeps the commit alive after its branch moves away and gc prunes", async () => {
    const { repo, first, second } = twoCommits();
    await pinSha(repo, second);
    git(repo, "reset", "-q", "--hard", first);
    git(repo, "reflog", "expire", "--expire=now", "--all");
    git(repo, "gc", "-q", "--prune=now");
    assert.equal(git(repo, "cat-file", "-t", second), "commit");
  });

  it("refuses anything but a full sha, naming the repo", async () => {
    const { repo } = twoCommits();
    await assert.rejects(
      pinSha(repo, "main"),
      /Cannot pin "main" in ".*repo-.*": expected a full lower-case commit sha/,
    );
    await assert.rejects(pinSha(repo, "ABC".repeat(13) + "D"), TypeError);
  });

  it("reports a sha the repo does not hold, with git's reason", async () => {
    const { repo } = twoCommits();
    const missing = "1".repeat(40);
    await assert.rejects(pinSha(repo, missing), (e: Error) => {
      assert.match(e.message, new RegExp(`^Cannot pin "${missing}" as "refs/dispatch/${missing}" in ".*": .+`));
      return true;
    });
  });

  it("runs git update-ref through the injected runner", async () => {
    const calls: (readonly string[])[] = [];
    const run: GitRun = (argv) => {
      calls.push(argv);
      return Promise.resolve(exited(0));
    };
    const sha = "a".repeat(40);
    await pinSha("/repo", sha, run);
    assert.deepEqual(calls, [["git", "-C", "/repo", "update-ref", `refs/dispatch/${sha}`, sha]]);
  });
});

describe("resolveRef()", () => {
  it("resolves branches, relative refs, sha prefixes and annotated tags to full commit shas", async () => {
    const { repo, first, second } = twoCommits();
    assert.equal(await resolveRef(repo, "main"), second);
    assert.equal(await resolveRef(repo, "HEAD~1"), first);
    assert.equal(await resolveRef(repo, second.slice(0, 10)), second);
    assert.equal(await resolveRef(repo, "v1"), first, "the tag was not peeled to its commit");
  });

  it("names the repo and the ref when the ref does not exist", async () => {
    const { repo } = twoCommits();
    await assert.rejects(resolveRef(repo, "no-such-branch"), (e: Error) => {
      assert.equal(e.message, `Cannot resolve "no-such-branch" to a commit in ${JSON.stringify(repo)}: no such commit`);
      return true;
    });
  });

  it("refuses a ref that is not a commit", async () => {
    const { repo } = twoCommits();
    const blob = git(repo, "rev-parse", "HEAD:f");
    await assert.rejects(resolveRef(repo, blob), /Cannot resolve ".*" to a commit in/);
  });

  it("reports a directory that is not a git repo with git's reason", async () => {
    const dir = tempDir("dispatch-norepo-");
    mkdirSync(join(dir, "sub"));
    await assert.rejects(
      resolveRef(join(dir, "sub"), "main"),
      /Cannot resolve "main" to a commit in ".*sub": .*not a git repository/i,
    );
  });

  it("refuses refs that git would read as options", async () => {
    await assert.rejects(resolveRef("/repo", "--all"), /Cannot resolve "--all" in "\/repo": not a git ref/);
    await assert.rejects(resolveRef("/repo", ""), /not a git ref/);
  });

  it("refuses a name that is both a branch and a tag, naming both with their shas, in git's order", async () => {
    const { repo, first, second } = twoCommits();
    git(repo, "tag", "x", first);
    git(repo, "branch", "x", second);
    for (const ref of ["x", "x~0", "x^{commit}"]) {
      await assert.rejects(resolveRef(repo, ref), (e: Error) => {
        assert.ok(e instanceof AmbiguousRefError, String(e));
        assert.equal(e.refname, "x");
        assert.deepEqual(e.candidates, ["refs/tags/x", "refs/heads/x"]);
        const within = ref === "x" ? "" : ` (in ${JSON.stringify(ref)})`;
        assert.equal(
          e.message,
          `Ref "x"${within} is ambiguous in ${JSON.stringify(repo)}: it names refs/tags/x (${first.slice(0, 12)}) ` +
            `and refs/heads/x (${second.slice(0, 12)}); name the one you mean in full: refs/tags/x or refs/heads/x`,
        );
        return true;
      });
    }
    assert.equal(await resolveRef(repo, "refs/heads/x"), second);
    assert.equal(await resolveRef(repo, "refs/tags/x"), first);
    assert.equal(await resolveRef(repo, "heads/x"), second);
  });

  it("refuses it even when the repo's config turns git's ambiguity warning off", async () => {
    const { repo, first } = twoCommits();
    git(repo, "tag", "x", first);
    git(repo, "branch", "x");
    git(repo, "config", "core.warnAmbiguousRefs", "false");
    await assert.rejects(resolveRef(repo, "x"), AmbiguousRefError);
  });

  it("refuses a branch whose name is also the start of a sha, and says a full sha picks the object", async () => {
    const { repo, first, second } = twoCommits();
    const prefix = first.slice(0, 7);
    git(repo, "branch", prefix, second); // the branch and the object disagree: git would take the branch
    await assert.rejects(resolveRef(repo, prefix), (e: Error) => {
      assert.ok(e instanceof AmbiguousRefError, String(e));
      assert.match(
        e.message,
        new RegExp(
          `^Ref "${prefix}" is ambiguous in .*: it names refs/heads/${prefix} \\(${second.slice(0, 12)}\\) and the ` +
            `object whose sha starts with ${prefix}; name the one you mean in full: refs/heads/${prefix}, or a full sha$`,
        ),
      );
      return true;
    });
    assert.equal(await resolveRef(repo, first), first);
  });

  it("takes a full sha as the object even when a ref bears it as its name", async () => {
    const { repo, first, second } = twoCommits();
    git(repo, "branch", first, second);
    assert.equal(await resolveRef(repo, first), first);
  });

  it("says what is wrong with a name that is no commit in one line", async () => {
    const { repo } = twoCommits();
    await assert.rejects(resolveRef(repo, "main^{tree}"), (e: Error) => {
      assert.match(e.message, /^Cannot resolve "main\^\{tree\}" to a commit in .*: error: .*expected commit type/);
      assert.doesNotMatch(e.message, /\n|Needed a single revision/);
      return true;
    });
  });

  it("ignores an inherited GIT_DIR that points at another repo", async () => {
    const { repo, second } = twoCommits();
    const other = twoCommits();
    const saved = process.env["GIT_DIR"];
    process.env["GIT_DIR"] = join(other.repo, ".git");
    try {
      assert.equal(await resolveRef(repo, "main"), second);
    } finally {
      if (saved === undefined) delete process.env["GIT_DIR"];
      else process.env["GIT_DIR"] = saved;
    }
  });
});
