/**
 * Polls `fn` until `until` holds for its value, and returns that value; fails
 * after `timeoutMs` naming `what` and the last value seen. A condition
 * awaited, never a sleep: processes and Slurm are eventually consistent (sacct
 * knows nothing for ~0.5 s after sbatch, a process closes its pipes before it
 * is gone).
 */
export async function waitFor<T>(
  what: string,
  fn: () => T | Promise<T>,
  until: (value: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (until(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last value ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
