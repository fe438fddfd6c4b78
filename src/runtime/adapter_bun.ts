import type { ChildHandle, RuntimeAdapter, Signal, StartRequest } from "./adapter.ts";
import { runtimeGlobal } from "./detect.ts";

/** The adapter over `Bun.spawn`; `detached: true` calls setsid. */
export function bunAdapter(): RuntimeAdapter {
  const Bun = runtimeGlobal("Bun");
  return {
    start(req: StartRequest): ChildHandle {
      const proc = Bun.spawn({
        cmd: [...req.argv],
        env: { ...req.env },
        ...(req.cwd === undefined ? {} : { cwd: req.cwd }),
        stdin: "ignore",
        stdout: req.stdout === "pipe" ? "pipe" : "ignore",
        stderr: req.stderr === "pipe" ? "pipe" : "ignore",
        detached: req.newSession,
      });
      return {
        pid: proc.pid,
        stdout: req.stdout === "pipe" ? proc.stdout : null,
        stderr: req.stderr === "pipe" ? proc.stderr : null,
        exited: proc.exited.then(() => ({
          exitCode: proc.signalCode ? null : proc.exitCode,
          signal: proc.signalCode ?? null,
        })),
      };
    },
    kill(pid: number, signal: Signal): void {
      process.kill(pid, signal);
    },
    onSignal(signal: Signal, fn: () => void): () => void {
      process.on(signal, fn);
      return () => process.off(signal, fn);
    },
    pid: () => process.pid,
    // node:tty is loaded only when asked: importing it up front loads Node's stream machinery at every start
    isTerminal: (fd: 1 | 2) => process.getBuiltinModule("node:tty").isatty(fd),
  };
}
