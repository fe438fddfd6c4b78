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

/** What says the cluster is this one machine, whose jobs see its /tmp: the warning's way out (docs/cluster.md). */
const ONE_MACHINE = "OUTERLOOP_ONE_MACHINE";

/**
 * The warning, one line, naming each path a scheduled run's jobs need that
 * lies where each node has its own copy: the run dir (the jobs' scripts and
 * results), the repository (every checkout clones it) and this program (the
 * wake job runs it); none when there is none, or when `env` says the
 * cluster is one machine. A warning, not a refusal: a one-machine cluster
 * shares all of it.
 */
export function nodeLocalWarnings(
  p: SharedPaths,
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  if (env[ONE_MACHINE] === "1") return [];
  const what: [string, string, string][] = [
    [p.runDir, "--run-dir", "the jobs write their results there"],
    [p.repo, "--repo", "every eval clones it"],
    [p.program, "this program", "the wake job runs it"],
  ];
  const found = what.flatMap(([path, name, why]) => {
    const under = NODE_LOCAL.find((d) => isAbsolute(path) && (path === d || path.startsWith(`${d}/`)));
    return under === undefined ? [] : [{ name: `${name} ${JSON.stringify(path)} (${why})`, under }];
  });
  if (found.length === 0) return [];
  const dirs = [...new Set(found.map((f) => f.under))].join(" and ");
  return [
    `${found.map((f) => f.name).join(", ")} ${found.length === 1 ? "is" : "are"} under ${dirs}, which on most ` +
    `clusters each node has its own of: the compute nodes will not see ${found.length === 1 ? "it" : "them"}; ` +
    `put ${found.length === 1 ? "it" : "them"} on a file system they share (on a cluster that is this one ` +
    `machine, ${ONE_MACHINE}=1 says so)`,
  ];
}
