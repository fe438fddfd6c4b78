// Tested by tests/report/browser_test.ts
/** The JavaScript runtime this process runs on. */
export type RuntimeName = "bun" | "deno" | "node";

let detected: RuntimeName | undefined;

/** Detected once, Bun before Deno before Node (Bun also defines `process`). */
export function runtimeName(): RuntimeName {
  // remembered: a pass hashes a thousand slots, and each asks
  return detected ??= "Bun" in globalThis ? "bun" : "Deno" in globalThis ? "deno" : "node";
}

/** The runtime's global namespace object, for the adapters in this folder only. */
// deno-lint-ignore no-explicit-any
export function runtimeGlobal(name: "Bun" | "Deno"): any {
  return (globalThis as Record<string, unknown>)[name];
}
