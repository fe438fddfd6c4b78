import { setLogSink } from "../log.ts";
import { COMMANDS, META, subCommand } from "./app.ts";
import { EXIT } from "../exit_codes.ts";
import { exitCodeFor } from "./shared/errors.ts";
import { parseArgs } from "./flags.ts";
import { commandHelp, rootHelp } from "./help.ts";
import type { CliDeps } from "./shared/io.ts";
import { closestKey } from "../text/did_you_mean.ts";

/**
 * Runs the CLI on `rawArgs` and resolves to the exit code. Never exits: the
 * entry point does. The command is the root's citty `subCommands` entry of
 * that name, loaded on first use (`app.ts`: that command's module only, so
 * `--version` and a wake's `resume` load nothing else); its arguments are
 * parsed by citty's parser and held to our rules (`flags.ts`), then the
 * command runs: parse (args + env → options), execute (options + deps → exit
 * code). A user's mistake is one line on stderr, a bug is exit 1 with its
 * stack. Logs go to `deps.io.stderr` while the command runs.
 *
 * citty's `runMain` and `runCommand` do not run it: `runMain` exits by itself
 * (1 on any error) after printing coloured usage; `runCommand`'s router drops
 * a subcommand's result (the exit code) and `data` (the deps), looks an
 * unknown name up by loading every command (for their aliases), and its
 * parse refuses a missing required flag in its own words before an unknown
 * flag is seen.
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
  let options: unknown;
  // loaded only for --json: the answer of an error reads the run dir, which a command without one never loads
  const answers = json ? await import("./shared/error_json.ts") : null;
  const unsay = answers
    ? answers.onStopJson((sig) => answers.interruptedJson(name, sig, answers.runDirOfOptions(options)))
    : () => {};
  try {
    const load = subCommand(name);
    if (load === undefined) {
      const names = COMMANDS.map((c) => c.name);
      const near = closestKey(name, names);
      io.stderr(
        `outerloop: error: Unknown command ${JSON.stringify(name)}: ${
          near === null ? "" : `did you mean ${JSON.stringify(near)}? `
        }expected one of ${names.join(", ")}\n`,
      );
      return EXIT.badInput;
    }
    const command = await load();
    const args = parseArgs(command.meta.name, command.args, rest);
    if (args.help) {
      io.stdout(commandHelp(command));
      return EXIT.ok;
    }
    options = command.parse(args, deps.env);
    return await command.execute(options, deps);
  } catch (err) {
    const code = exitCodeFor(err);
    io.stderr(`outerloop: error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (code === EXIT.internal && err instanceof Error && err.stack) io.stderr(err.stack + "\n");
    if (answers) io.stdout(JSON.stringify(answers.errorJson(name, err, code, answers.runDirOfOptions(options))) + "\n");
    return code;
  } finally {
    unsay();
    restoreLog();
  }
}
