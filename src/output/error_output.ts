// Tested by tests/output/outputs_test.ts
import * as z from "zod/mini";
import type { Frozen } from "./frozen.ts";
import { lazy, strict, wholeNumber } from "../schema/zod.ts";
import { cancelledSchema, failureSchema, stateSchema, verdictSchema } from "./pieces.ts";

/**
 * What every command given `--json` prints when it ends with an error
 * (`status: "error"`: exit 2, 3, 4, 1, or 75 when another pass holds the
 * run) or is stopped by a signal (`status: "interrupted"`, exit 130 / 143 /
 * 129, printed before it dies of the signal): what went wrong and, for a
 * command that acted on a readable run dir, where the run stands (nulls
 * otherwise; an interrupted command's are always null).
 */
const errorShape = lazy(() => ({
  command: z.string(),
  exit_code: wholeNumber(1),
  error: strict({
    kind: z.enum(["bad-input", "eval-failed", "scheduler", "parked", "interrupted", "internal"]),
    message: z.string(),
  }),
  run_dir: z.nullable(z.string()),
  state: z.nullable(stateSchema()),
  verdict: z.nullable(verdictSchema()),
  failure: z.nullable(failureSchema()),
  cancelled: z.nullable(cancelledSchema()),
}));

/** `status: "error"`. */
export const errorSchema = lazy(() => strict({ status: z.literal("error"), ...errorShape() }));

/** `status: "interrupted"`. */
export const interruptedSchema = lazy(() => strict({ status: z.literal("interrupted"), ...errorShape() }));

/** The error's object, which `error_json.ts` builds. */
export type ErrorJson = Frozen<z.input<ReturnType<typeof errorSchema>>>;
/** The signal's. */
export type InterruptedJson = Frozen<z.input<ReturnType<typeof interruptedSchema>>>;
