/** What each runtime's adapter provides; `spawn.ts` builds everything else on it. */
export interface RuntimeAdapter {
  /** Starts a process (argv[0] already resolved to a path). */
  start(req: StartRequest): ChildHandle;
  /** Sends a signal to one pid, or to a process group when `pid` is negative. */
  kill(pid: number, signal: Signal): void;
  /** Calls `fn` when this process receives `signal`; returns the remover. */
  onSignal(signal: Signal, fn: () => void): () => void;
  /** This process's pid. */
  pid(): number;
  /** Whether this process's stdout (1) or stderr (2) is a terminal (a live progress line may be rewritten there). */
  isTerminal(fd: 1 | 2): boolean;
}

export type Signal = "SIGTERM" | "SIGKILL" | "SIGINT" | "SIGHUP";

export interface StartRequest {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  /** Pipe stdout / stderr back, or discard them. */
  readonly stdout: "pipe" | "null";
  readonly stderr: "pipe" | "null";
  /** setsid: the child leads a new session and process group. */
  readonly newSession: boolean;
}

export interface ChildHandle {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array> | null;
  readonly stderr: ReadableStream<Uint8Array> | null;
  readonly exited: Promise<{ exitCode: number | null; signal: string | null }>;
}
