// Tested by tests/run/prune_pins_test.ts
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { BadInputError } from "../../errors.ts";
import type { PruneJson } from "../../output/job_outputs.ts";
import { prunePins } from "../../run/prune_pins.ts";
import { defineLeaf } from "../command.ts";
import { jsonFlag } from "../shared/common.ts";
import { outLine } from "../shared/io.ts";

export interface PruneOptions {
  /** A climb (a directory of run dirs) or one run dir. */
  readonly dir: string;
  readonly dryRun: boolean;
  readonly json: boolean;
}

/** `outerloop prune DIR`: removes the refs/dispatch/ pins of DIR's finished runs. */
export const pruneCommand = defineLeaf<PruneOptions>({
  meta: {
    name: "prune",
    description: "Remove the refs/dispatch/ pins that no run of DIR still needs (those of finished runs)",
  },
  args: {
    DIR: { type: "positional", description: "A climb (a directory of run dirs) or one run dir" },
    "dry-run": { type: "boolean", description: "Say what would be removed; remove nothing" },
    ...jsonFlag,
  },
  details: [
    "measure pins every commit it measures as refs/dispatch/<sha> in the repository, so eval jobs find it after",
    "a branch moves, a rebase or git gc. Once a run is over (decided, calibrated or cancelled) its pins have done",
    "their work: prune removes a pin when a finished run of DIR names its sha and no run of DIR still open",
    "(parked, measuring, interrupted, or failed: resume --retry-failed may measure again) names it. A pin no run",
    "of DIR names is left alone. Run it between climbs, or from the loop after each verdict.",
    'With --json: {"dry_run", "repos": [{"repo", "removed", "kept", "left"}]} (shas).',
  ],
  examples: ["outerloop prune ~/runs", "outerloop prune ~/runs --dry-run"],

  parse(args) {
    const dir = resolve(args.positional["DIR"]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new BadInputError(`DIR ${JSON.stringify(args.positional["DIR"])} is not a directory`);
    }
    return { dir, dryRun: args.on("dry-run"), json: args.on("json") };
  },

  async execute(o, { io }) {
    const repos = await prunePins(o.dir, o.dryRun);
    if (o.json) {
      const out: PruneJson = {
        dry_run: o.dryRun,
        repos: repos.map((r) => ({ repo: r.repo, removed: [...r.removed], kept: [...r.kept], left: [...r.left] })),
      };
      outLine(io, JSON.stringify(out));
      return 0;
    }
    const verb = o.dryRun ? "would remove" : "removed";
    if (repos.length === 0) outLine(io, "no run in DIR: nothing to prune");
    for (const r of repos) {
      outLine(
        io,
        `${r.repo}: ${verb} ${r.removed.length} pin(s) of finished runs; kept ${r.kept.length} an open run needs; ` +
          `left ${r.left.length} no run of DIR names`,
      );
      for (const sha of r.removed) outLine(io, `  ${verb} refs/dispatch/${sha}`);
    }
    return 0;
  },
});
