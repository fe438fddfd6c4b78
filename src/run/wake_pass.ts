import { OuterloopError } from "../errors.ts";
import { EXIT, type ExitKind } from "../exit_codes.ts";

/**
 * The errors that end a pass with an answer about the run rather than a
 * failure to run it: an eval failed for good or the run was cancelled
 * (`eval-failed`), or another pass holds the run (`parked`).
 */
const RUN_ANSWERS: ReadonlySet<ExitKind> = new Set(["eval-failed", "parked"]);

/**
 * What a wake job's pass (`resume --wake`) exits with. One rule: 0 whenever
 * its pass ran — whatever it came to (accepted, rejected, inconclusive, a
 * crashed candidate, parked again, failed for good, cancelled, held by
 * another pass) — since the answer is in the run dir and the job's log, and
 * sacct then shows a climb's wakes COMPLETED rather than some FAILED. A pass
 * ran when it returned, whatever its code, or ended the run with an answer
 * (`RUN_ANSWERS`). A pass that could not run (the scheduler unreachable, bad
 * input, a bug) throws, and keeps its own code, so the job fails where a
 * person should look. `say` writes the job's log line.
 */
export async function wakePass(pass: () => Promise<number>, say: (line: string) => void): Promise<number> {
  const ran = (code: number) => say(`the pass ended with exit ${code}; the wake job exits 0, its pass having run`);
  let code: number;
  try {
    code = await pass();
  } catch (err) {
    if (!(err instanceof OuterloopError) || !RUN_ANSWERS.has(err.exit)) throw err;
    say(err.message);
    code = err.exit === "parked" ? EXIT.parked : EXIT.evalFailed;
  }
  if (code !== EXIT.ok) ran(code);
  return EXIT.ok;
}
