import { randomInt } from "node:crypto";

/** Seeds are drawn from [1, 2^31 - 1]: 0 is the "no seed" sentinel, and every benchmark reads an int32. */
export function drawSeed(): number {
  return randomInt(1, 2 ** 31 - 1);
}
