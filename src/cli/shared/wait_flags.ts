import { BadInputError } from "../../errors.ts";
import { EXIT } from "../../exit_codes.ts";
import { FIRST_POLL_S, MAX_POLL_S, type WaitTiming } from "../../run/wait.ts";
import { wholeNumber } from "./common.ts";
import type { Args, ParsedArgs } from "../flags.ts";

/** The longest poll interval or timeout accepted: a year. */
const MAX_SECONDS = 366 * 24 * 3600;

/** `--poll` and `--timeout`: how `wait` (and `measure --wait`) polls and when it gives up. */
export const waitTimingFlags: Args = {
  poll: {
    type: "string",
    valueHint: "SECONDS",
    description: "Poll at this fixed interval",
    defaultText: `${FIRST_POLL_S} s growing to ${MAX_POLL_S} s`,
  },
  timeout: {
    type: "string",
    valueHint: "SECONDS",
    description: `Give up after this long with exit ${EXIT.parked}, changing nothing`,
  },
};

/** `measure`'s flags for waiting: `--wait`, and `--poll` / `--timeout` with it. */
export const measureWaitFlags: Args = {
  wait: {
    type: "boolean",
    description: "After a park, block until the run is decided and exit with its verdict (as `outerloop wait`)",
  },
  poll: { ...waitTimingFlags["poll"]!, description: "With --wait: poll at this fixed interval" },
  timeout: {
    ...waitTimingFlags["timeout"]!,
    description: `With --wait: give up after this long with exit ${EXIT.parked}`,
  },
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

/** `measure --wait [--poll S] [--timeout S]` (and calibrate's): the timing, or null without `--wait`. */
export function measureWait(args: ParsedArgs): WaitTiming | null {
  if (args.on("wait")) return waitTiming(args);
  for (const flag of ["poll", "timeout"]) {
    if (args.value(flag) !== undefined) throw new BadInputError(`--${flag} goes with --wait: add --wait or drop it`);
  }
  return null;
}
