import { OuterloopError } from "../errors.ts";
import { EXIT } from "../exit_codes.ts";

/**
 * What a wake job's pass (`resume --wake`) exits with: 0 whenever its pass
 * ran — the run parked again, was rejected or found inconclusive, failed for
 * good, was cancelled, or was held by another pass — since the answer is in
 * the run dir and the job's log, and sacct then shows a climb's wakes
 * COMPLETED rather than half of them FAILED. A pass that could not run (the
 * scheduler unreachable, bad input, a bug) keeps its own code, so the job
 * fails where a person should look. `say` writes the job's log line.
 */
export async function wakePass(pass: () => Promise<number>, say: (line: string) => void): Promise<number> {
  const ran = (code: number) => say(`the pass ended with exit ${code}; the wake job exits 0, its pass having run`);
  try {
    const code = await pass();
    if (code !== EXIT.parked && code !== EXIT.rejected && code !== EXIT.inconclusive) return code;
    ran(code);
    return EXIT.ok;
  } catch (err) {
    // the pass ran and ended the run (an eval failed for good, the run was cancelled), or another holds it
    if (!(err instanceof OuterloopError) || (err.exit !== "eval-failed" && err.exit !== "parked")) throw err;
    say(err.message);
    ran(err.exit === "parked" ? EXIT.parked : EXIT.evalFailed);
    return EXIT.ok;
  }
}
