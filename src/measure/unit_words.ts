// Tested by tests/measure/measurer_context_test.ts
import type { DispatchUnit } from "./dispatch_unit.ts";

/** A unit in a log line: `measure candidate#2`, or `the same-job of pair 2 (baseline#2, candidate#2)`. */
export function unitWords(u: DispatchUnit): string {
  if (u.mode === "one") return `measure ${u.members[0]!.name}`;
  return `the ${u.mode} job of pair ${u.pair} (${u.members.map((m) => m.name).join(", ")})`;
}
