// Tested by tests/run/node_local_test.ts
import { isAbsolute } from "node:path";

/**
 * The directories that are each machine's own on most clusters: a path there
 * on the login node is not the path a compute node sees (the testbed's
 * nodes each have their own /tmp, as real ones do).
 */
const NODE_LOCAL = ["/tmp", "/dev/shm"] as const;

/** What a scheduled run needs every node to see, by what the user calls it. */
export interface SharedPaths {
  readonly runDir: string;
  readonly repo: string;
  /** The program a wake job runs (the first word of `self`), when it is a path. */
  readonly program: string;
}

/**
 * One warning per path a scheduled run's jobs need that lies where each node
 * has its own copy: the run dir (the jobs' scripts and results), the
 * repository (every checkout clones it) and this program (the wake job runs
 * it). A warning, not a refusal: a single-machine cluster shares all of it.
 */
export function nodeLocalWarnings(p: SharedPaths): string[] {
  const what: [string, string, string][] = [
    [p.runDir, "--run-dir", "the jobs write their results there"],
    [p.repo, "--repo", "every eval clones it"],
    [p.program, "this program", "the wake job runs it"],
  ];
  return what.flatMap(([path, name, why]) => {
    const under = NODE_LOCAL.find((d) => isAbsolute(path) && (path === d || path.startsWith(`${d}/`)));
    return under === undefined ? [] : [
      `${name} ${JSON.stringify(path)} is under ${under}, which on most clusters each node has its own of: the ` +
      `compute nodes will not see it (${why}); put it on a file system they share`,
    ];
  });
}
