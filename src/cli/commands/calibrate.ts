import { startRun } from "../../run/phase.ts";
import { wholeNumber } from "../shared/common.ts";
import type { ParsedArgs } from "../flags.ts";
import type { CliCommand } from "../shared/io.ts";
import { measureCommand, type MeasureOptions, resolveRun } from "./measure.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
import { reportOutcome } from "../shared/run_output.ts";

/** What `outerloop calibrate` was asked: a measure of the base against itself, in `pairs` pairs. */
export interface CalibrateOptions {
  readonly run: MeasureOptions;
  readonly pairs: number;
}

/** The most A/A pairs one calibration measures. */
const MAX_PAIRS = 100;

const { candidate: _candidate, "dry-run": _dryRun, ...flags } = measureCommand.spec.flags;

/**
 * `outerloop calibrate`: the A/A test. Measures the base commit against
 * itself in N seed-paired pairs (two distinct measures per pair at the same
 * sha), parks and wakes like `measure`, and reports the spread of the paired
 * differences, the smallest effect found with 80% power at 3, 5, 10, 20 and 30
 * pairs, and a suggested min_effect / repeats / max_repeats and sibling
 * tolerances for the contract, with how they were derived.
 */
export const calibrateCommand: CliCommand<CalibrateOptions> = {
  spec: {
    name: "calibrate",
    summary: "Measure --base against itself in --pairs seeded pairs: how noisy is the benchmark?",
    details: [
      "The A/A test to run before a climb: it tells whether the contract's min_effect is meaningful.",
      "Each pair measures the base twice on one seed; the spread of their differences is the noise a verdict",
      "has to see through. Prints (and writes RUN_DIR/calibration.json) that spread, the smallest effect",
      "found with 80% power at 3, 5, 10, 20 and 30 pairs, suggested min_effect, repeats, max_repeats and",
      "each sibling's tolerance, and a sentence saying how they were derived.",
      "Parks (exit 75) and wakes like `measure`; exit 0 once calibrated.",
    ],
    flags: {
      ...flags,
      pairs: { kind: "string", hint: "N", description: "A/A pairs to measure, 2 to 100", defaultText: "10" },
    },
    examples: [
      "outerloop calibrate --repo ~/proj --base main --contract bench.json --run-dir ~/runs/aa --pairs 10",
    ],
  },

  parse(args, env) {
    const asMeasure: ParsedArgs = {
      ...args,
      value: (flag) => (flag === "candidate" ? args.value("base") : args.value(flag)),
      on: (flag) => flag !== "dry-run" && args.on(flag),
    };
    return {
      run: measureCommand.parse(asMeasure, env),
      pairs: wholeNumber("pairs", args.value("pairs"), 10, 2, MAX_PAIRS),
    };
  },

  async run(o, deps) {
    const record = await resolveRun(o.run, deps, { kind: "calibrate", pairs: o.pairs });
    o.run.runDir.create("--run-dir");
    const outcome = await startRun(o.run.runDir, record, phaseDeps(deps, o.run.mode));
    return reportOutcome(deps.io, o.run.runDir, outcome, o.run.json);
  },
};
