import type { Signal } from "./adapter.ts";
import { interruptHandled } from "./interrupt.ts";
import { runtime } from "./runtime.ts";

/**
 * Process groups of running children that must not outlive us. When this
 * process is told to stop (TERM, INT, HUP), each group gets TERM — so a job
 * script's trap can record its exit — then KILL after a grace, and the signal
 * is re-raised so we still die of it — unless a command handles interrupts
 * itself (`onInterrupt`: `wait` detaches with exit 75). Without this, a
 * terminated parent leaves its job tree running.
 */
const groups = new Set<number>();
const TERMINATING: readonly Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];
const GRACE_MS = 2000;
let removers: (() => void)[] = [];
let stopping = false;

/** Registers a live group leader's pid; returns the unregister function. */
export function trackGroup(pid: number): () => void {
  groups.add(pid);
  if (removers.length === 0) install();
  return () => {
    groups.delete(pid);
    if (groups.size === 0 && !stopping) uninstall();
  };
}

function install(): void {
  removers = TERMINATING.map((sig) => runtime().onSignal(sig, () => void stopAll(sig)));
}

function uninstall(): void {
  for (const remove of removers) remove();
  removers = [];
}

async function stopAll(sig: Signal): Promise<void> {
  if (stopping) return;
  stopping = true;
  // a command that handles interrupts itself (`wait` detaches) ends its own way: asked when the signal came
  const reraise = !interruptHandled();
  signalGroups("SIGTERM");
  const deadline = Date.now() + GRACE_MS;
  while (groups.size > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  signalGroups("SIGKILL");
  uninstall();
  stopping = false;
  if (reraise) runtime().kill(runtime().pid(), sig);
}

function signalGroups(sig: Signal): void {
  for (const pid of groups) {
    try {
      runtime().kill(-pid, sig);
    } catch {
      // already gone
    }
  }
}
