/**
 * `outerloop calibrate --pairing all`: the A/A calibration under each pairing
 * the contract allows — `separate`, `same-job`, and `duet` unless a measure
 * has GPUs — each a calibration run of its own in `RUN_DIR/<pairing>/`
 * (run tag `<tag>-sep`, `-same`, `-duet`), started together so their jobs
 * queue at once. Once all are calibrated, `comparePairings`
 * (evaluation/pairing_choice.ts) sets them side by side and recommends one.
 * Running the same command again continues each run, as `calibrate` does.
 */
import { basename, join } from "node:path";
import { loadContract, type Pairing } from "../contract/contract.ts";
import { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import type { CalibrationRecord } from "../rundir/calibration_file.ts";
import { comparePairings, type PairingComparison } from "../evaluation/pairing_choice.ts";
import { type PhaseDeps, type PhaseOutcome, runPhase, startRun } from "./phase.ts";
import { type WaitDeps, waitForRun, type WaitTiming } from "./wait.ts";
import { type PrepareDeps, prepareRun, type RunRequest } from "./prepare.ts";

/** The short word of each pairing in a child's run tag. */
const TAG_WORD: Readonly<Record<Pairing, string>> = { "separate": "sep", "same-job": "same", "duet": "duet" };

/** One pairing's calibration run, as its first pass left it. */
export interface PairingRun {
  readonly pairing: Pairing;
  readonly dir: RunDir;
  readonly record: RunRecord;
  readonly outcome: PhaseOutcome;
}

/** The pairings a contract can be calibrated under: every one, but `duet` when a measure needs GPUs. */
function pairingsOf(contractPath: string): Pairing[] {
  const c = loadContract(contractPath);
  const gpus = [c.gpus, ...c.siblings.map((s) => s.gpus)].some((g) => g > 0);
  return gpus ? ["separate", "same-job"] : ["separate", "same-job", "duet"];
}

/** The request of one pairing's run: `RUN_DIR/<pairing>`, run tag `<tag or RUN_DIR's name>-<word>`. */
function pairingRequest(r: RunRequest, pairing: Pairing): RunRequest {
  const tag = `${r.runTag ?? basename(r.runDir.path)}-${TAG_WORD[pairing]}`;
  return { ...r, runDir: new RunDir(join(r.runDir.path, pairing)), runTag: tag };
}

/**
 * Prepares every pairing's calibration first — so a bad input refuses them
 * all before anything is written — then starts each (`startRun`: freeze,
 * pin, first pass); the first passes' outcomes, cheapest pairing first.
 */
async function startEachPairing(
  r: RunRequest,
  pairs: number,
  deps: PrepareDeps & { readonly phase: () => PhaseDeps },
): Promise<PairingRun[]> {
  const prepared: { pairing: Pairing; request: RunRequest; record: RunRecord }[] = [];
  for (const pairing of pairingsOf(r.contract)) {
    const request = pairingRequest(r, pairing);
    prepared.push({ pairing, request, record: await prepareRun(request, deps, { kind: "calibrate", pairs, pairing }) });
  }
  const runs: PairingRun[] = [];
  for (const p of prepared) {
    p.request.runDir.create("--run-dir");
    runs.push({
      pairing: p.pairing,
      dir: p.request.runDir,
      record: p.record,
      outcome: await startRun(p.request.runDir, p.record, deps.phase()),
    });
  }
  return runs;
}

/** Where `--pairing all` stands once each pairing's run was started (and, with a wait, waited for). */
export type PairingsOutcome =
  /** Every pairing calibrated: their comparison, and the benchmark's name. */
  | { readonly kind: "compared"; readonly comparison: PairingComparison; readonly benchmark: string }
  /** Some are not calibrated yet: those that are. */
  | { readonly kind: "parked"; readonly calibrated: readonly Pairing[] }
  /** A wait was detached (Ctrl-C, --timeout): nothing more is known. */
  | { readonly kind: "detached" };

/**
 * `--pairing all` from start to comparison: every pairing's calibration
 * started (`startEachPairing`); with `wait`, each parked one waited for in
 * turn (`waitForRun`, its own resume passes when nothing else runs them);
 * then the comparison once all are calibrated. `say` tells a person what is
 * being waited for and what is still open (stderr).
 */
export async function calibrateEachPairing(
  r: RunRequest,
  pairs: number,
  deps: PrepareDeps & {
    readonly phase: () => PhaseDeps;
    readonly waitDeps: WaitDeps;
    readonly wait: WaitTiming | null;
    readonly say: (line: string) => void;
  },
): Promise<PairingsOutcome> {
  const runs = await startEachPairing(r, pairs, deps);
  const calibrations: { pairing: Pairing; calibration: CalibrationRecord }[] = [];
  for (const run of runs) {
    let outcome = run.outcome;
    if (outcome.kind === "parked" && deps.wait !== null) {
      deps.say(`waiting for the ${run.pairing} calibration (${run.dir.path})`);
      const end = await waitForRun(run.dir, run.record, deps.waitDeps, {
        timing: deps.wait,
        pass: () => runPhase(run.dir, deps.phase()),
        reporter: { progress() {} },
      });
      if (end.kind !== "finished") return { kind: "detached" };
      outcome = end.outcome;
    }
    if (outcome.kind === "calibrated") calibrations.push({ pairing: run.pairing, calibration: outcome.calibration });
    else {
      const waiting = outcome.kind === "parked" ? `parked behind wake job ${outcome.wake.jobId}` : outcome.kind;
      deps.say(`the ${run.pairing} calibration in ${run.dir.path} is ${waiting}`);
    }
  }
  if (calibrations.length < runs.length) return { kind: "parked", calibrated: calibrations.map((c) => c.pairing) };
  return { kind: "compared", comparison: comparePairings(calibrations), benchmark: runs[0]!.record.contract.name };
}
