import { runtime } from "./runtime.ts";

/**
 * Calls `fn` when this process is interrupted (SIGINT: Ctrl-C; SIGTERM: a
 * polite kill) until the returned remover runs. While a handler is
 * installed the runtime's default death is held off: the caller decides
 * what an interrupt means (`wait` detaches and exits 75).
 */
export function onInterrupt(fn: () => void): () => void {
  const removers = (["SIGINT", "SIGTERM"] as const).map((sig) => runtime().onSignal(sig, fn));
  owners += 1;
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    owners -= 1;
    removers.forEach((remove) => remove());
  };
}

let owners = 0;

/**
 * Whether an `onInterrupt` handler is installed: then an interrupt is the
 * handler's to act on (it ends the program its own way), and
 * `live_groups.ts`, having stopped the children it tracks, does not re-raise
 * the signal to kill this process.
 */
export function interruptHandled(): boolean {
  return owners > 0;
}

/** Whether stderr is a terminal: where a progress line may be rewritten in place. */
export function stderrIsTerminal(): boolean {
  return runtime().isTerminal(2);
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
