import { existsSync } from "node:fs";
import { join } from "node:path";
import { listPins, unpinSha } from "../dispatch/pin.ts";
import { BadInputError } from "../errors.ts";
import { evaluateRun } from "../evaluation/evaluate.ts";
import { readRunSnapshot } from "../evaluation/snapshot.ts";
import { RunDir } from "../rundir/run_dir.ts";
import { climbRunDirs } from "../views/run_summary.ts";

/**
 * `outerloop prune DIR`: removes the `refs/dispatch/` pins no run of DIR
 * needs any more. `measure` pins every commit it measures, so that an eval
 * job checks it out even after a branch moves, a rebase or `git gc`; once a
 * run is over (decided, calibrated or cancelled) its pins have done their
 * work. A pin is removed when a finished run of DIR names its sha and no
 * run of DIR that is not over does (parked, measuring, interrupted, or
 * failed: `resume --retry-failed` may measure it again). A pin no run of DIR
 * names — another climb's, or one made by hand — is left alone. DIR is a
 * climb (a directory of run dirs) or one run dir.
 */

/** What prune did (or, with `dryRun`, would do) in one repository: the pins by sha. */
export interface PrunedRepo {
  readonly repo: string;
  readonly removed: readonly string[];
  /** Pins a run of DIR that is not over still needs. */
  readonly kept: readonly string[];
  /** Pins no run of DIR names. */
  readonly left: readonly string[];
}

/** Prunes the pins of DIR's finished runs, repository by repository (in the order the runs name them). */
export async function prunePins(dir: string, dryRun: boolean): Promise<PrunedRepo[]> {
  const runDirs = existsSync(join(dir, "run.json")) ? [new RunDir(dir)] : climbRunDirs(dir);
  const byRepo = new Map<string, { finished: Set<string>; open: Set<string> }>();
  for (const runDir of runDirs) {
    let e;
    try {
      e = evaluateRun(readRunSnapshot(runDir));
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      // a run that cannot be read may need any pin: prune nothing rather than guess
      throw new BadInputError(
        `Cannot prune: ${err.message.split("\n")[0]} — a run that cannot be read may still need its pins; ` +
          "move it out of DIR (or repair it) and prune again",
        { cause: err },
      );
    }
    const r = e.snapshot.record;
    const shas = byRepo.get(r.repo) ?? { finished: new Set(), open: new Set() };
    byRepo.set(r.repo, shas);
    const over = ["decided", "calibrated", "cancelled"].includes(e.standing.kind);
    for (const sha of [r.baseSha, ...r.candidates.map((c) => c.sha)]) (over ? shas.finished : shas.open).add(sha);
  }
  const out: PrunedRepo[] = [];
  for (const [repo, shas] of byRepo) {
    const pins = await listPins(repo);
    const removed = pins.filter((sha) => shas.finished.has(sha) && !shas.open.has(sha));
    if (!dryRun) { for (const sha of removed) await unpinSha(repo, sha); }
    out.push({
      repo,
      removed,
      kept: pins.filter((sha) => shas.open.has(sha)),
      left: pins.filter((sha) => !shas.open.has(sha) && !shas.finished.has(sha)),
    });
  }
  return out;
}
