// Tested by tests/report/browser_test.ts
/** The JavaScript runtime this process runs on. */
export type RuntimeName = "bun" | "deno" | "node";

/** Detected once, Bun before Deno before Node (Bun also defines `process`). */
export function runtimeName(): RuntimeName {
  if ("Bun" in globalThis) return "bun";
  if ("Deno" in globalThis) return "deno";
  return "node";
}

/** The runtime's global namespace object, for the adapters in this folder only. */
// deno-lint-ignore no-explicit-any
export function runtimeGlobal(name: "Bun" | "Deno"): any {
  return (globalThis as Record<string, unknown>)[name];
}
