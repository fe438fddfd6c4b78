import { randomInteger } from "../runtime/digest.ts";

/** Seeds are drawn from [1, 2^31 - 1]: 0 is the "no seed" sentinel, and every benchmark reads an int32. */
export function drawSeed(): number {
  return randomInteger(1, 2 ** 31 - 1);
}
