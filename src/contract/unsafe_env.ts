/**
 * Variable names a seed must not be exported under: the eval job exports the
 * seed (a number) under `seed_env` into every process of the job, and these
 * names are read by the machinery that starts those processes rather than by
 * the benchmark — a seed there changes how programs load or how the shell
 * runs the command, not what is measured, and a value a user can vary becomes
 * a way to inject code.
 *
 * - The dynamic loader: `LD_*` (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `LD_AUDIT`,
 *   …), macOS's `DYLD_*`, and glibc's `GLIBC_TUNABLES` and `GCONV_PATH`
 *   (both make the loader or iconv read attacker-chosen input or libraries).
 * - The shell that runs the command: `IFS`, `BASH_ENV` and `ENV` (a file
 *   sourced at start), `PS4` (expanded under `set -x`), `SHELLOPTS`,
 *   `BASHOPTS`, `PROMPT_COMMAND`, `CDPATH`, `GLOBIGNORE`.
 * - Interpreter hooks that choose which code an interpreter loads or runs
 *   before the benchmark's own, in every non-interactive run: Python's
 *   `PYTHONPATH`, `PYTHONHOME`, `PYTHONSTARTUP`, `PYTHONUSERBASE`; Perl's
 *   `PERL5LIB`, `PERLLIB`, `PERL5OPT`; Ruby's `RUBYLIB`, `RUBYOPT`; Node's
 *   `NODE_OPTIONS`, `NODE_PATH`; the JVM's `JAVA_TOOL_OPTIONS`,
 *   `_JAVA_OPTIONS`, `JDK_JAVA_OPTIONS`, `CLASSPATH`; Lua's `LUA_INIT`
 *   (run as code), `LUA_PATH`, `LUA_CPATH`. Named one by one, not by prefix:
 *   `PYTHONHASHSEED` is a fair seed variable.
 */

const LOADER_PREFIXES = ["LD_", "DYLD_"] as const;
const LOADER = new Set(["GLIBC_TUNABLES", "GCONV_PATH"]);
const SHELL = new Set([
  "IFS",
  "BASH_ENV",
  "ENV",
  "PS4",
  "SHELLOPTS",
  "BASHOPTS",
  "PROMPT_COMMAND",
  "CDPATH",
  "GLOBIGNORE",
]);
const INTERPRETER = new Set([
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PERL5LIB",
  "PERLLIB",
  "PERL5OPT",
  "RUBYLIB",
  "RUBYOPT",
  "NODE_OPTIONS",
  "NODE_PATH",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "LUA_INIT",
  "LUA_PATH",
  "LUA_CPATH",
]);

/**
 * Why `name` may not carry the seed, as the contract's message says it (with
 * the fix), or null when it may. Names are matched exactly, as the loader and
 * the shells read them (`ld_preload` is nobody's).
 */
export function unsafeSeedEnv(name: string): string | null {
  const fix = "name the seed variable otherwise (such as BENCH_SEED)";
  const prefix = LOADER_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined || LOADER.has(name)) {
    const which = prefix === undefined ? "" : ` (${prefix}*)`;
    return `${JSON.stringify(name)} is read by the dynamic loader${which}: the seed exported under it would ` +
      `change how every program of the eval job loads; ${fix}`;
  }
  if (SHELL.has(name)) {
    return `${JSON.stringify(name)} is read by the shell that runs the command: the seed exported under it ` +
      `would change how the command runs; ${fix}`;
  }
  if (INTERPRETER.has(name)) {
    return `${JSON.stringify(name)} tells an interpreter which code to load before the benchmark's: the seed ` +
      `exported under it would change what runs, not what is measured; ${fix}`;
  }
  return null;
}
