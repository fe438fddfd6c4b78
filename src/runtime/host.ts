/**
 * This machine's host name, with `node:os` loaded on first use only: most
 * starts (a `show` of a run no process holds) never ask, and loading the
 * module is a measurable part of a compiled binary's start.
 */
export function hostName(): string {
  return nodeOs().hostname();
}

// deno-lint-ignore no-explicit-any
let loaded: any;
// deno-lint-ignore no-explicit-any
function nodeOs(): any {
  loaded ??= process.getBuiltinModule("node:os");
  return loaded;
}
