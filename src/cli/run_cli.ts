import { runCommand } from "citty";
import { setLogSink } from "../log.ts";
import { COMMANDS, META, subCommand } from "./app.ts";
import { EXIT } from "../exit_codes.ts";
import type { LeafData } from "./command.ts";
import { exitCodeFor } from "./shared/errors.ts";
import { checkArgs } from "./flags.ts";
import { commandHelp, rootHelp } from "./help.ts";
import { errorJson, interruptedJson, runDirOfOptions } from "./shared/error_json.ts";
import { sayOnStop } from "../runtime/live_groups.ts";
import type { CliDeps } from "./shared/io.ts";

/**
 * Runs the CLI on `rawArgs` and resolves to the exit code. Never exits: the
 * entry point does. The command comes from the root's citty `subCommands`
 * (loading that command's module only); its arguments are checked strictly
 * (`checkArgs`: citty passes unknown and repeated flags), then citty's
 * `runCommand` parses them and runs the command: parse (args + env →
 * options), execute (options + deps → exit code). A user's mistake is one
 * line on stderr, a bug is exit 1 with its stack. Logs go to
 * `deps.io.stderr` while the command runs.
 *
 * citty's `runMain` is not used: it exits by itself (always 1 on an error),
 * and prints coloured usage before the message. Nor does citty route the
 * subcommand: its router drops the subcommand's result (the exit code) and
 * `data` (the deps), and an unknown name makes it load every command.
 */
export async function runCli(rawArgs: readonly string[], deps: CliDeps): Promise<number> {
  const { io } = deps;
  const [name, ...rest] = rawArgs;
  if (name === "--version" || name === "-v") {
    io.stdout(META.version + "\n");
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout)(rootHelp(META, COMMANDS));
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  const restoreLog = setLogSink((line) => io.stderr(line + "\n"));
  // with --json, every exit prints one JSON object on stdout: an error's, or a signal's (then it dies of it)
  const json = rest.includes("--json");
  const parsed: { options?: unknown } = {};
  const unsay = json ? sayOnStop((sig) => interruptedJson(name, sig, runDirOfOptions(parsed.options)), 1) : () => {};
  try {
    const load = subCommand(name);
    if (load === undefined) {
      io.stderr(
        `outerloop: error: Unknown command ${JSON.stringify(name)}: expected one of ${
          COMMANDS.map((c) => c.name).join(", ")
        }\n`,
      );
      return EXIT.badInput;
    }
    const command = await load();
    const checked = checkArgs(command.meta.name, command.args, rest);
    if (checked.help) {
      io.stdout(commandHelp(command));
      return EXIT.ok;
    }
    const data: LeafData = { deps, checked, parsed };
    const { result } = await runCommand(command, { rawArgs: [...checked.argv], data });
    return result as number;
  } catch (err) {
    const code = isCittyError(err) ? EXIT.badInput : exitCodeFor(err);
    io.stderr(`outerloop: error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (code === EXIT.internal && err instanceof Error && err.stack) io.stderr(err.stack + "\n");
    if (json) io.stdout(JSON.stringify(errorJson(name, err, code, runDirOfOptions(parsed.options))) + "\n");
    return code;
  } finally {
    unsay();
    restoreLog();
  }
}

/** citty's own refusal of an argument (`CLIError`): `checkArgs` refuses first, so this is a second line of defence. */
function isCittyError(err: unknown): boolean {
  return err instanceof Error && err.name === "CLIError";
}
