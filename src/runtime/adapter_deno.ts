import type { ChildHandle, RuntimeAdapter, Signal, StartRequest } from "./adapter.ts";
import { runtimeGlobal } from "./detect.ts";

/** The adapter over `Deno.Command`; `detached: true` calls setsid. */
export function denoAdapter(): RuntimeAdapter {
  const Deno = runtimeGlobal("Deno");
  return {
    start(req: StartRequest): ChildHandle {
      const [program, ...args] = req.argv;
      const child = new Deno.Command(program, {
        args,
        env: req.env,
        clearEnv: true,
        ...(req.cwd === undefined ? {} : { cwd: req.cwd }),
        stdin: "null",
        stdout: req.stdout === "pipe" ? "piped" : "null",
        stderr: req.stderr === "pipe" ? "piped" : "null",
        detached: req.newSession,
      }).spawn();
      return {
        pid: child.pid,
        stdout: req.stdout === "pipe" ? child.stdout : null,
        stderr: req.stderr === "pipe" ? child.stderr : null,
        exited: child.status.then((s: { code: number; signal: string | null }) => ({
          exitCode: s.signal ? null : s.code,
          signal: s.signal,
        })),
      };
    },
    kill(pid: number, signal: Signal): void {
      Deno.kill(pid, signal);
    },
    onSignal(signal: Signal, fn: () => void): () => void {
      Deno.addSignalListener(signal, fn);
      return () => Deno.removeSignalListener(signal, fn);
    },
    pid: () => Deno.pid,
    isTerminal: (fd: 1 | 2) => (fd === 1 ? Deno.stdout : Deno.stderr).isTerminal(),
  };
}
