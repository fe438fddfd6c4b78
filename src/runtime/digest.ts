import { runtimeGlobal, runtimeName } from "./detect.ts";

/**
 * Hex digests of text, synchronously, without importing `node:crypto` up
 * front: loading that module is about a third of the compiled binary's cold
 * start, and most commands (a wake's `resume` of a decided run, `show`)
 * hash a few short strings at most. Bun hashes natively (`Bun.CryptoHasher`);
 * elsewhere `node:crypto` is loaded on first use.
 */

type Algorithm = "sha1" | "sha256";

/** The lower-case hex digest of the UTF-8 bytes of `text`. */
export function hexDigest(algorithm: Algorithm, text: string): string {
  if (runtimeName() === "bun") {
    const Bun = runtimeGlobal("Bun");
    return new Bun.CryptoHasher(algorithm).update(text, "utf8").digest("hex");
  }
  return nodeCrypto().createHash(algorithm).update(text, "utf8").digest("hex");
}

/** `length` random bytes as hex, from the Web Crypto global (no module to load). */
export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A uniformly random integer in [min, max), from the Web Crypto global, by rejection sampling. */
export function randomInteger(min: number, max: number): number {
  const range = max - min;
  if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && range > 0 && range <= 2 ** 32)) {
    throw new RangeError(`randomInteger() needs safe integers with 0 < max - min <= 2^32, got ${min}, ${max}`);
  }
  const limit = 2 ** 32 - (2 ** 32 % range);
  for (;;) {
    const x = crypto.getRandomValues(new Uint32Array(1))[0]!;
    if (x < limit) return min + (x % range);
  }
}

// deno-lint-ignore no-explicit-any
let loaded: any;
// deno-lint-ignore no-explicit-any
function nodeCrypto(): any {
  loaded ??= process.getBuiltinModule("node:crypto");
  return loaded;
}
