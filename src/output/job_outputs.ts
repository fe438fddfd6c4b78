// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import type { Frozen } from "./frozen.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";

/**
 * The `--json` of the scheduler's verbs: `status ID`, `jobs` (its three
 * forms), `submit` (a dry run's argv, or the id) and `cancel` (a job, or a
 * run: decided, failed or cancelled now).
 */

/** `status ID --json`: its state (GONE when the scheduler has no record), run time, and why a queued job waits. */
export const statusSchema = lazy(() =>
  strict({
    job_id: z.string(),
    state: z.string(),
    elapsed_s: z.nullable(z.number()),
    pending_reason: z.nullable(z.string()),
    partition: z.nullable(z.string()),
  })
);

/** `jobs --json`, `jobs --name NAME --json` and `jobs --names --json`. */
export const jobsSchema = lazy(() =>
  z.union([
    strict({
      jobs: z.array(strict({
        job_id: z.string(),
        name: z.string(),
        state: z.string(),
        reason: z.string(),
        partition: z.string(),
        script: z.nullable(z.string()),
      })),
    }),
    strict({ name: z.string(), job_id: z.nullable(z.string()) }),
    strict({ names: z.array(z.string()) }),
  ])
);

/** `submit --json`: the dry run's sbatch argv, or the submitted job's id. */
export const submitSchema = lazy(() =>
  z.union([strict({ argv: z.array(z.string()) }), strict({ job_id: z.string() })])
);

/** `cancel ID|RUN_DIR --json`. */
export const cancelSchema = lazy(() =>
  z.union([
    strict({ job_id: z.string(), cancelled: z.literal(true) }),
    strict({
      run_dir: z.string(),
      cancelled: z.literal(false),
      state: z.literal("decided"),
      jobs: z.array(z.string()),
    }),
    strict({ run_dir: z.string(), cancelled: z.literal(false), state: z.literal("failed"), jobs: z.array(z.string()) }),
    strict({
      run_dir: z.string(),
      cancelled: z.literal(true),
      state: z.literal("cancelled"),
      cancelled_at: z.string(),
      already: z.boolean(),
      jobs: z.array(z.string()),
      processes: z.optional(z.array(wholeNumber(1))),
    }),
  ])
);

/** `measure --dry-run --json`: the first look's measures, what each job asks for, and every submission in order. */
export const dryRunSchema = lazy(() =>
  strict({
    measures: z.array(strict({
      name: z.string(),
      tree_sha: z.string(),
      slot: z.string(),
      job_name: z.string(),
      gpus: wholeNumber(0),
      env: z.record(z.string(), z.string()),
    })),
    jobs: z.array(strict({
      job_name: z.string(),
      mode: z.string(),
      measures: z.array(z.string()),
      minutes: wholeNumber(1),
      mem: z.string(),
      cpus: wholeNumber(1),
      gpus: wholeNumber(0),
    })),
    submissions: z.nullable(z.array(strict({
      kind: z.enum(["array", "job", "wake"]),
      job_name: z.string(),
      tasks: wholeNumber(0),
      argv: z.array(z.string()),
    }))),
    seed: wholeNumber(0),
    run_tag: z.string(),
    compute: z.enum(["local", "slurm", "sge"]),
    pairing: z.enum(["separate", "same-job", "duet"]),
  })
);

/**
 * `prune DIR --json`: per repository the climb's runs measure in, the
 * `refs/dispatch/` pins removed (only finished runs named their shas), kept
 * (an open or failed run still needs them) and left alone (no run of DIR
 * names them: another climb's, or made by hand); `dry_run` when nothing was
 * removed but said.
 */
export const pruneSchema = lazy(() =>
  strict({
    dry_run: z.boolean(),
    repos: z.array(strict({
      repo: z.string(),
      removed: z.array(z.string()),
      kept: z.array(z.string()),
      left: z.array(z.string()),
    })),
  })
);

/** `status --json`'s object. */
export type StatusJson = Frozen<z.input<ReturnType<typeof statusSchema>>>;
/** `jobs --json`'s. */
export type JobsJson = Frozen<z.input<ReturnType<typeof jobsSchema>>>;
/** `submit --json`'s. */
export type SubmitJson = Frozen<z.input<ReturnType<typeof submitSchema>>>;
/** `cancel --json`'s. */
export type CancelJson = Frozen<z.input<ReturnType<typeof cancelSchema>>>;
/** `measure --dry-run --json`'s. */
export type DryRunJson = Frozen<z.input<ReturnType<typeof dryRunSchema>>>;
/** `prune --json`'s. */
export type PruneJson = Frozen<z.input<ReturnType<typeof pruneSchema>>>;
