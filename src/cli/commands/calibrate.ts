import type { Pairing } from "../../contract/contract.ts";
import type { PairingsJson, WaitingJson } from "../../output/outcome.ts";
import { BadInputError } from "../../errors.ts";
import { EXIT } from "../../exit_codes.ts";
import { formatPairingComparison, pairingComparisonJson } from "../../report/pairing_table.ts";
import { calibrateEachPairing } from "../../run/calibrate_pairings.ts";
import { prepareRun, type RunRequest } from "../../run/prepare.ts";
import { type CliDeps, outLine } from "../shared/io.ts";
import { phaseDeps } from "../shared/phase_deps.ts";
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
  /** `--pairing`: one pairing to calibrate under, "all" for each side by side, or null for the contract's. */
  readonly pairing: Pairing | "all" | null;
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
      description: `After a park, block until the run is calibrated and exit ${EXIT.ok} (as \`outerloop wait\`)`,
    },
    pairs: { type: "string", valueHint: "N", description: "A/A pairs to measure, 2 to 100", defaultText: "10" },
    pairing: {
      type: "string",
      valueHint: "separate|same-job|duet|all",
      description: "Calibrate under this pairing; all: under each, side by side (RUN_DIR/<pairing>), and recommend one",
      defaultText: "the contract's",
    },
  },
  details: [
    "The A/A test to run before a climb: it tells whether the contract's min_effect is meaningful.",
    "Each pair measures the base twice on one seed; the spread of their differences is the noise a verdict",
    "has to see through. Prints (and writes RUN_DIR/calibration.json) that spread, the smallest effect",
    "found with 80% power at 3, 5, 10, 20 and 30 pairs, suggested min_effect, repeats, max_repeats and",
    "each sibling's tolerance, and a sentence saying how they were derived.",
    `Parks (exit ${EXIT.parked}) and wakes like \`measure\`; exit ${EXIT.ok} once calibrated.`,
    "--pairing all calibrates under separate, same-job and duet (not duet with GPUs) in RUN_DIR/<pairing>,",
    "then sets their spreads side by side — what measuring apart adds is the node-to-node share of the noise —",
    "and recommends the pairing to put in the contract. Run it again (or with --wait) once they are calibrated.",
  ],
  examples: [
    "outerloop calibrate --repo ~/proj --base main --contract bench.json --run-dir ~/runs/aa --pairs 10",
  ],

  parse(args, env) {
    return {
      request: parseRunRequest(args, env, [args.value("base")!]),
      pairs: wholeNumber("pairs", args.value("pairs"), 10, 2, MAX_PAIRS),
      pairing: pairingFlag(args.value("pairing")),
      json: args.on("json"),
      wait: measureWait(args),
    };
  },

  async execute(o, deps) {
    const { runDir, mode } = o.request;
    if (o.pairing === "all") return await eachPairing(o, deps);
    const record = await prepareRun(o.request, { now: deps.now, self: deps.self() }, {
      kind: "calibrate",
      pairs: o.pairs,
      ...(o.pairing === null ? {} : { pairing: o.pairing }),
    });
    return await startAndReport(record, deps, { runDir, mode, json: o.json, wait: o.wait });
  },
});

const PAIRINGS = ["separate", "same-job", "duet", "all"] as const;

function pairingFlag(value: string | undefined): Pairing | "all" | null {
  if (value === undefined) return null;
  if ((PAIRINGS as readonly string[]).includes(value)) return value as Pairing | "all";
  throw new BadInputError(`Invalid --pairing ${JSON.stringify(value)}: expected one of ${PAIRINGS.join(", ")}`);
}

/** `--pairing all`: every pairing's calibration (run/calibrate_pairings.ts), then their comparison or where each stands. */
async function eachPairing(o: CalibrateOptions, deps: CliDeps): Promise<number> {
  const mode = o.request.mode;
  const end = await calibrateEachPairing(o.request, o.pairs, {
    now: deps.now,
    self: deps.self(),
    phase: () => phaseDeps(deps, mode, o.request.cluster),
    waitDeps: {
      compute: () => deps.compute(mode, o.request.cluster),
      now: deps.now,
      sleep: deps.sleep,
      onInterrupt: deps.onInterrupt,
    },
    wait: o.wait,
    say: (line: string) => deps.io.stderr(`outerloop: ${line}\n`),
  });
  const runDir = o.request.runDir.path;
  switch (end.kind) {
    case "detached":
      deps.io.stderr(`outerloop: detached; "outerloop calibrate … --pairing all" again compares once all are in\n`);
      if (o.json) {
        const out: WaitingJson = { status: "waiting", run_dir: runDir, stopped: "interrupted" };
        outLine(deps.io, JSON.stringify(out));
      }
      return EXIT.parked;
    case "parked":
      outLine(
        deps.io,
        o.json
          ? JSON.stringify(
            { status: "parked", run_dir: runDir, calibrated: [...end.calibrated] } satisfies PairingsJson,
          )
          : "parked: run the same command again (or with --wait) to compare the pairings once all are calibrated",
      );
      return EXIT.parked;
    case "compared":
      outLine(
        deps.io,
        o.json
          ? JSON.stringify(
            { status: "calibrated", run_dir: runDir, ...pairingComparisonJson(end.comparison) } satisfies PairingsJson,
          )
          : formatPairingComparison(end.comparison, end.benchmark),
      );
      return EXIT.ok;
  }
}
