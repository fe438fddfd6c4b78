import { BadInputError } from "../../errors.ts";
import { wholeNumber } from "./common.ts";
import type { FlagDef, ParsedArgs } from "../flags.ts";

/** How `wait` polls. */
export interface WaitTiming {
  /** A fixed interval in seconds (`--poll`), or null for the gentle default: 10 s growing to 60 s. */
  readonly pollS: number | null;
  /** Give up after this many seconds (`--timeout`), or null to wait for the verdict. */
  readonly timeoutS: number | null;
}

/** The default polling: the first look at once, then 10 s, growing by half each poll, to 60 s. */
export const FIRST_POLL_S = 10;
export const MAX_POLL_S = 60;

/** The longest poll interval or timeout accepted: a year. */
const MAX_SECONDS = 366 * 24 * 3600;

/** `--poll` and `--timeout`: how `wait` (and `measure --wait`) polls and when it gives up. */
export const waitTimingFlags: Readonly<Record<string, FlagDef>> = {
  poll: {
    kind: "string",
    hint: "SECONDS",
    description: "Poll at this fixed interval",
    defaultText: `${FIRST_POLL_S} s growing to ${MAX_POLL_S} s`,
  },
  timeout: {
    kind: "string",
    hint: "SECONDS",
    description: "Give up after this long with exit 75, changing nothing",
  },
};

/** `measure`'s flags for waiting: `--wait`, and `--poll` / `--timeout` with it. */
export const measureWaitFlags: Readonly<Record<string, FlagDef>> = {
  wait: {
    kind: "boolean",
    description: "After a park, block until the run is decided and exit with its verdict (as `outerloop wait`)",
  },
  poll: { ...waitTimingFlags["poll"]!, description: "With --wait: poll at this fixed interval" },
  timeout: { ...waitTimingFlags["timeout"]!, description: "With --wait: give up after this long with exit 75" },
};

/** `--poll` and `--timeout` from the command line. */
export function waitTiming(args: ParsedArgs): WaitTiming {
  const poll = args.value("poll");
  const timeout = args.value("timeout");
  return {
    pollS: poll === undefined ? null : wholeNumber("poll", poll, 0, 1, MAX_SECONDS),
    timeoutS: timeout === undefined ? null : wholeNumber("timeout", timeout, 0, 0, MAX_SECONDS),
  };
}

/** `measure --wait [--poll S] [--timeout S]`: the timing, or null without `--wait`. */
export function measureWait(args: ParsedArgs): WaitTiming | null {
  if (args.on("wait")) return waitTiming(args);
  for (const flag of ["poll", "timeout"]) {
    if (args.value(flag) !== undefined) throw new BadInputError(`--${flag} goes with --wait: add --wait or drop it`);
  }
  return null;
}
