// Tested by tests/compute/transient_test.ts
/**
 * When a scheduler command that failed transiently (`transient.ts`) is tried
 * again, and how long to wait first: a bounded, jittered exponential backoff
 * — with a memory of outages, so that after a command gave up on transient
 * failures, later ones get a single try for OUTAGE_MEMORY_MS (until one
 * succeeds). An outage then costs a pass one round of retries, not one per
 * command, and the pass reports it sooner. One `Retries` per client: its
 * commands share the memory.
 */

/** A bounded, jittered exponential backoff. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  /** The delay before the second try, before jitter. */
  readonly baseMs: number;
  /** No delay is longer than this, before jitter. */
  readonly capMs: number;
  /** No new try starts this long after the first one began. */
  readonly budgetMs: number;
}

/** Four tries over about 4–7 s of waiting: an outage longer than that is reported, not waited out. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 1000, capMs: 8000, budgetMs: 120_000 };

/**
 * The wait before try `attempt + 1` ("equal jitter": half fixed, half
 * random), so many clients that failed together do not retry together.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * After a command gave up on transient failures, later ones get a single try
 * for this long (until one succeeds).
 */
export const OUTAGE_MEMORY_MS = 30_000;

/** The clock, the waits and the jitter's source; tests pass ones that return at once. */
export interface RetryClock {
  /** Epoch ms. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** In [0, 1). */
  readonly random: () => number;
}

/** The retry state of one client: the policy, and when a command last gave up. */
export class Retries {
  readonly #policy: RetryPolicy;
  readonly #clock: RetryClock;
  /** When a command last gave up on transient failures; null once one succeeded since. */
  #outageAt: number | null = null;

  constructor(policy: RetryPolicy, clock: RetryClock) {
    this.#policy = policy;
    this.#clock = clock;
  }

  /** Now, by the clock: when a command's first try begins. */
  now(): number {
    return this.#clock.now();
  }

  /** A command succeeded: the scheduler answers again, so later commands get all their tries. */
  succeeded(): void {
    this.#outageAt = null;
  }

  /** Whether another try may start after `attempt` tries that began at `started`. */
  mayRetry(attempt: number, started: number): boolean {
    const tries = this.#recentOutage() ? 1 : this.#policy.attempts;
    return attempt < tries && this.#clock.now() - started < this.#policy.budgetMs;
  }

  /** Records that a command gave up on transient failures; the note for its message. */
  giveUp(attempt: number): string {
    const recent = this.#recentOutage();
    this.#outageAt = this.#clock.now();
    return attempt > 1 || !recent
      ? `(gave up after ${attempt} ${attempt === 1 ? "try" : "tries"})`
      : "(one try: the scheduler failed the same way moments ago)";
  }

  /** The wait before try `attempt + 1`, from the policy and the jitter's source. */
  backoff(attempt: number): number {
    return backoffMs(this.#policy, attempt, this.#clock.random);
  }

  /** Waits `ms`. */
  async sleep(ms: number): Promise<void> {
    await this.#clock.sleep(ms);
  }

  #recentOutage(): boolean {
    return this.#outageAt !== null && this.#clock.now() - this.#outageAt < OUTAGE_MEMORY_MS;
  }
}
