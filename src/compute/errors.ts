/** A Slurm command (submit, cancel) failed; the message carries its stderr. */
export class SlurmError extends Error {
  override name = "SlurmError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * A status query failed: the answer is UNKNOWN, not "job gone".
 *
 * Callers must treat this as "defer and retry", never as a terminal state —
 * misreading a scheduler outage as a vanished job would end healthy runs.
 */
export class SlurmQueryError extends Error {
  override name = "SlurmQueryError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
