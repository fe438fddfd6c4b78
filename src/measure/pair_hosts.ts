import type { DispatchUnit } from "./dispatch_unit.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { failed, type Outcome } from "./read_look.ts";

/**
 * A pair job's measures ran on one host, or each fails as `pair-hosts`
 * (`outcomes` updated in place): what makes a pair job worth having is that
 * both sides of a comparison shared a machine (a requeued job that ran part
 * of a pair elsewhere breaks that). Judged once every measure of the job has
 * a value; measures whose eval left no provenance (an older run dir) are not
 * judged.
 */
export function failIfHostsDiffer(ctx: MeasurerContext, u: DispatchUnit, outcomes: Map<string, Outcome>): void {
  if (u.mode === "one" || !u.members.every((m) => outcomes.get(m.name)?.kind === "value")) return;
  const hosts = u.members.map((m) => ({ m, host: ctx.dir(m).provenance?.host ?? "" })).filter((h) => h.host !== "");
  if (new Set(hosts.map((h) => h.host)).size <= 1) return;
  const where = hosts.map((h) => `${h.m.name} on ${JSON.stringify(h.host)}`).join(", ");
  const why = `pair ${u.pair}: its ${u.mode} job's measures ran on different hosts (${where}), so they are no pair`;
  for (const m of u.members) {
    const message = `measure ${m.name}: ${why}; measure again in a new run dir`;
    outcomes.set(m.name, failed(m, ctx.marker(m) || null, "pair-hosts", why, { message }));
  }
}
