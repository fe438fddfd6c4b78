import type { Signal } from "./adapter.ts";
import { interruptHandled } from "./interrupt.ts";
import { runtime } from "./runtime.ts";
import { writeFd } from "./write.ts";

/**
 * Process groups of running children that must not outlive us. When this
 * process is told to stop (TERM, INT, HUP), each group gets its stop signal
 * — TERM unless it was registered with another: a local job gets INT, which
 * its eval script reads as "abandoned by the submitter, record nothing" —
 * then KILL after a grace, and the signal is re-raised so we still die of
 * it — unless a command handles interrupts itself (`onInterrupt`: `wait`
 * detaches with exit 75). Without this, a terminated parent leaves its job
 * tree running.
 *
 * From the moment we are told to stop and will die of it, nothing a child
 * did is a result: `spawn` never resolves for a child that ends after that
 * moment (`isStopping()`), so no caller records an interrupted job as finished.
 *
 * Dying of the signal is on purpose: a shell reports it as 128 + its number
 * (130 for Ctrl-C, 143 for TERM: `EXIT.interrupted`, `EXIT.terminated`), and
 * a shell loop or script running us stops on Ctrl-C as it should — an exit
 * with the code instead would read as "it handled the interrupt". What we
 * were doing is said first: `sayOnStop` registers the line (a pass names its
 * run and how to go on), printed on stderr the moment the signal comes.
 */
const groups = new Map<number, Signal>();
const observers = new Set<(pids: readonly number[]) => void>();
/** The lines to say when stopped, each with the fd it goes to (2, stderr, unless a `--json` answer: 1). */
const notes = new Map<(sig: Signal) => string, 1 | 2>();
const TERMINATING: readonly Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];
const GRACE_MS = 2000;
let removers: (() => void)[] = [];
let stopping = false;
/** Told to stop, and about to die of it (no command handles the interrupt). */
let dying = false;

/** Registers a live group leader's pid and the signal it gets when we stop; returns the unregister function. */
export function trackGroup(pid: number, stopSignal: Signal = "SIGTERM"): () => void {
  groups.set(pid, stopSignal);
  if (removers.length === 0) install();
  notify();
  return () => {
    if (!groups.delete(pid)) return;
    if (groups.size === 0 && notes.size === 0 && !stopping) uninstall();
    notify();
  };
}

/**
 * Until the returned remover runs, if this process is told to stop and will
 * die of it, `line(signal)` is written on stderr at once: what was
 * interrupted and how to go on. Holds the signals from now on (not only
 * while a child runs), so the line is said whenever the signal comes; the
 * death itself is as before.
 */
export function sayOnStop(line: (sig: Signal) => string, fd: 1 | 2 = 2): () => void {
  notes.set(line, fd);
  if (removers.length === 0) install();
  return () => {
    if (!notes.delete(line)) return;
    if (groups.size === 0 && notes.size === 0 && !stopping) uninstall();
  };
}

/**
 * Calls `fn` with the live groups' leader pids now and after every change,
 * until the returned function is called: how the run lock records which of
 * its holder's children (an sbatch, a local job) would outlive a crash of
 * the holder — the lock is not free while they run.
 */
export function watchGroups(fn: (pids: readonly number[]) => void): () => void {
  observers.add(fn);
  fn([...groups.keys()]);
  return () => void observers.delete(fn);
}

function notify(): void {
  const pids = [...groups.keys()];
  for (const fn of observers) fn(pids);
}

/** Whether this process has been told to stop and will die of it: what its children do from now on is not a result. */
export function isStopping(): boolean {
  return dying;
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
  dying = reraise;
  if (reraise) { for (const [line, fd] of notes) say(line(sig), fd); }
  for (const [pid, stopSignal] of groups) signalGroup(pid, stopSignal);
  const deadline = Date.now() + GRACE_MS;
  while (groups.size > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const pid of groups.keys()) signalGroup(pid, "SIGKILL");
  uninstall();
  stopping = false;
  if (reraise) runtime().kill(runtime().pid(), sig);
}

function say(line: string, fd: 1 | 2): void {
  try {
    writeFd(fd, line.endsWith("\n") ? line : line + "\n");
  } catch {
    // stderr is gone: nothing to tell
  }
}

function signalGroup(pid: number, sig: Signal): void {
  try {
    runtime().kill(-pid, sig);
  } catch {
    // already gone
  }
}
