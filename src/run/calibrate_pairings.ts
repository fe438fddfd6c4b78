/**
 * `outerloop calibrate --pairing all`: the A/A calibration under each pairing
 * the contract allows — `separate`, `same-job`, and `duet` unless a measure
 * has GPUs — each a calibration run of its own in `RUN_DIR/<pairing>/`
 * (run tag `<tag>-sep`, `-same`, `-duet`), started together so their jobs
 * queue at once. Once all are calibrated, `comparePairings`
 * (verdict/pairing_choice.ts) sets them side by side and recommends one.
 * Running the same command again continues each run, as `calibrate` does.
 */
import { basename, join } from "node:path";
import { loadContract, type Pairing } from "../contract/contract.ts";
import { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { type PhaseDeps, type PhaseOutcome, startRun } from "./phase.ts";
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
export function pairingsOf(contractPath: string): Pairing[] {
  const c = loadContract(contractPath);
  const gpus = [c.gpus, ...c.siblings.map((s) => s.gpus)].some((g) => g > 0);
  return gpus ? ["separate", "same-job"] : ["separate", "same-job", "duet"];
}

/** The request of one pairing's run: `RUN_DIR/<pairing>`, run tag `<tag or RUN_DIR's name>-<word>`. */
export function pairingRequest(r: RunRequest, pairing: Pairing): RunRequest {
  const tag = `${r.runTag ?? basename(r.runDir.path)}-${TAG_WORD[pairing]}`;
  return { ...r, runDir: new RunDir(join(r.runDir.path, pairing)), runTag: tag };
}

/**
 * Prepares every pairing's calibration first — so a bad input refuses them
 * all before anything is written — then starts each (`startRun`: freeze,
 * pin, first pass); the first passes' outcomes, cheapest pairing first.
 */
export async function startEachPairing(
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
