import { prepareRun, type RunRequest } from "../../run/prepare.ts";
import type { WaitTiming } from "../../run/wait.ts";
import { defineLeaf } from "../command.ts";
import { computeFlags, wholeNumber } from "../shared/common.ts";
import { parseRunRequest, repoFlags, runFlags } from "../shared/run_flags.ts";
import { startAndReport } from "../shared/start_run.ts";
import { measureWait, measureWaitFlags } from "../shared/wait_flags.ts";

/** What `outerloop calibrate` was asked: a measure of the base against itself, in `pairs` pairs. */
export interface CalibrateOptions {
  /** The run's request; its candidate is the base. */
  readonly request: RunRequest;
  readonly pairs: number;
  readonly json: boolean;
  /** `--wait`: after a park, wait for the calibration with this timing; null without it. */
  readonly wait: WaitTiming | null;
}

/** The most A/A pairs one calibration measures. */
const MAX_PAIRS = 100;

/**
 * `outerloop calibrate`: the A/A test. Measures the base commit against
 * itself in N seed-paired pairs (two distinct measures per pair at the same
 * sha), parks and wakes like `measure`, and reports the spread of the paired
 * differences, the smallest effect found with 80% power at 3, 5, 10, 20 and 30
 * pairs, and a suggested min_effect / repeats / max_repeats and sibling
 * tolerances for the contract, with how they were derived.
 */
export const calibrateCommand = defineLeaf<CalibrateOptions>({
  meta: {
    name: "calibrate",
    description: "Measure --base against itself in --pairs seeded pairs: how noisy is the benchmark?",
  },
  args: {
    ...repoFlags,
    ...runFlags,
    ...computeFlags,
    ...measureWaitFlags,
    wait: {
      type: "boolean",
      description: "After a park, block until the run is calibrated and exit 0 (as `outerloop wait`)",
    },
    pairs: { type: "string", valueHint: "N", description: "A/A pairs to measure, 2 to 100", defaultText: "10" },
  },
  details: [
    "The A/A test to run before a climb: it tells whether the contract's min_effect is meaningful.",
    "Each pair measures the base twice on one seed; the spread of their differences is the noise a verdict",
    "has to see through. Prints (and writes RUN_DIR/calibration.json) that spread, the smallest effect",
    "found with 80% power at 3, 5, 10, 20 and 30 pairs, suggested min_effect, repeats, max_repeats and",
    "each sibling's tolerance, and a sentence saying how they were derived.",
    "Parks (exit 75) and wakes like `measure`; exit 0 once calibrated.",
  ],
  examples: [
    "outerloop calibrate --repo ~/proj --base main --contract bench.json --run-dir ~/runs/aa --pairs 10",
  ],

  parse(args, env) {
    return {
      request: parseRunRequest(args, env, args.value("base")!),
      pairs: wholeNumber("pairs", args.value("pairs"), 10, 2, MAX_PAIRS),
      json: args.on("json"),
      wait: measureWait(args),
    };
  },

  async execute(o, deps) {
    const { runDir, mode } = o.request;
    const record = await prepareRun(o.request, { now: deps.now, self: deps.self() }, {
      kind: "calibrate",
      pairs: o.pairs,
    });
    return await startAndReport(record, deps, { runDir, mode, json: o.json, wait: o.wait });
  },
});
