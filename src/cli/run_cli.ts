import { setLogSink } from "../log.ts";
import { VERSION } from "../version.ts";
import { COMMANDS } from "./app.ts";
import { EXIT } from "../exit_codes.ts";
import { exitCodeFor } from "./shared/errors.ts";
import { parseArgs } from "./flags.ts";
import { commandHelp, rootHelp } from "./help.ts";
import type { CliDeps } from "./shared/io.ts";

/**
 * Runs the CLI on `rawArgs` and resolves to the exit code. Never exits: the
 * entry point does. Parse (args + env → options) then run (options + deps →
 * exit code); a user's mistake is one line on stderr, a bug is exit 1 with
 * its stack. Logs go to `deps.io.stderr` while the command runs.
 */
export async function runCli(rawArgs: readonly string[], deps: CliDeps): Promise<number> {
  const { io } = deps;
  const [name, ...rest] = rawArgs;
  if (name === "--version" || name === "-v") {
    io.stdout(VERSION + "\n");
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout)(rootHelp(VERSION, COMMANDS));
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  const restoreLog = setLogSink((line) => io.stderr(line + "\n"));
  try {
    const entry = COMMANDS.find((c) => c.name === name);
    if (!entry) {
      io.stderr(
        `outerloop: error: Unknown command ${JSON.stringify(name)}: expected one of ${
          COMMANDS.map((c) => c.name).join(", ")
        }\n`,
      );
      return EXIT.badInput;
    }
    const command = await entry.load();
    const args = parseArgs(command.spec, rest);
    if (args.help) {
      io.stdout(commandHelp(command.spec));
      return EXIT.ok;
    }
    return await command.run(command.parse(args, deps.env), deps);
  } catch (err) {
    const code = exitCodeFor(err);
    io.stderr(`outerloop: error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (code === EXIT.internal && err instanceof Error && err.stack) io.stderr(err.stack + "\n");
    return code;
  } finally {
    restoreLog();
  }
}
