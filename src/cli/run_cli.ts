import { type CommandDef, renderUsage, runCommand } from "citty";
import { VERSION } from "../version.ts";
import { rootCommand, subCommands } from "./app.ts";
import { EXIT, exitCodeFor, UsageError } from "./errors.ts";
import { assertKnownFlags } from "./strict_flags.ts";

/** Where the CLI writes; tests capture it. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/**
 * Runs the CLI on `rawArgs` and resolves to the exit code. Never exits: the
 * entry point does. A user error is one line on stderr, never a stack trace.
 */
export async function runCli(rawArgs: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = rawArgs;
  if (name === "--version" || name === "-v") {
    io.stdout(VERSION + "\n");
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const usage = await renderUsage(rootCommand);
    if (name === undefined) {
      io.stderr(usage + "\n");
      return EXIT.badInput;
    }
    io.stdout(usage + "\n");
    return EXIT.ok;
  }
  try {
    const load = Object.hasOwn(subCommands, name) ? subCommands[name] : undefined;
    if (!load) {
      throw new UsageError(
        `Unknown command ${JSON.stringify(name)}: expected one of ${Object.keys(subCommands).join(", ")}`,
      );
    }
    const command = await load();
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout((await renderUsage(command, rootCommand as CommandDef)) + "\n");
      return EXIT.ok;
    }
    const args = typeof command.args === "function" ? await command.args() : await command.args;
    assertKnownFlags(name, rest, args ?? {});
    const { result } = await runCommand(command, { rawArgs: [...rest] });
    return typeof result === "number" ? result : EXIT.ok;
  } catch (err) {
    const code = exitCodeFor(err);
    const message = err instanceof Error ? err.message : String(err);
    // citty colours some messages; a log file wants plain text
    io.stderr(`outerloop: error: ${stripAnsi(message)}\n`);
    if (code === EXIT.internal && err instanceof Error && err.stack) io.stderr(err.stack + "\n");
    return code;
  }
}

function stripAnsi(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
