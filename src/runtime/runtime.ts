import type { RuntimeAdapter } from "./adapter.ts";
import { bunAdapter } from "./adapter_bun.ts";
import { denoAdapter } from "./adapter_deno.ts";
import { runtimeName } from "./detect.ts";

let current: RuntimeAdapter | undefined;

/** The adapter for the runtime we run on: the one place the choice is made. */
export function runtime(): RuntimeAdapter {
  if (current) return current;
  const name = runtimeName();
  if (name === "bun") current = bunAdapter();
  else if (name === "deno") current = denoAdapter();
  else throw new Error("outerloop runs under Deno or Bun, not Node.js: use `deno run -A` or `bun run`");
  return current;
}
