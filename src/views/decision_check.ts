import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { slot } from "../measure/identity.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { pairedValues, runPlan } from "../plan/run_plan.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import type { RunRecord } from "../rundir/run_record.ts";
import { formatNumber } from "../text/numbers.ts";
import { decideLook } from "../verdict/decide.ts";
import { methodNamed, REPEATED_METHOD } from "../stats/repeated_method.ts";

/**
 * Whether a decision follows from the results beside it: every value in
 * `decision.json` is the result its eval left on disk (or the cached
 * baseline the run took), and deciding those values again under the frozen
 * contract, by the interval method the decision names, gives the same
 * verdict and differences. A `decision.json` edited
 * by hand — a verdict flipped, a value changed — or copied from a run whose
 * results differ fails this check, and every surface says so instead of
 * showing it as fact.
 *
 * The disagreements, one sentence each; none when the decision follows. A
 * result that cannot be read is a disagreement too: the decision then rests
 * on nothing the run dir still holds.
 */
export function checkDecision(dir: RunDir, r: RunRecord, d: DecisionRecord): string[] {
  const plan = runPlan(r, cachedBaseline(dir, r, false));
  const n = d.paired?.n ?? 1;
  if (!plan.design.looks.some((l) => l.n === n)) {
    return [`it rests on ${n} pair(s), which this run's design never looks at`];
  }
  const p = plan.look(n);
  const onDisk: Record<string, number> = { ...p.cached };
  const out: string[] = [];
  for (const m of p.toMeasure) {
    try {
      onDisk[m.name] = readEvalResult(dir.path, slot(r.image, m), m.metric, m.summary);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      out.push(`the result of measure ${JSON.stringify(m.name)} cannot be read (${err.message.split("\n")[0]})`);
    }
  }
  if (out.length > 0) return out;
  for (const m of p.plan) {
    const stated = d.values[m.name];
    if (stated !== onDisk[m.name]) {
      out.push(
        `it gives ${m.name} = ${stated === undefined ? "nothing" : formatNumber(stated)} where the run's result is ` +
          formatNumber(onDisk[m.name]!),
      );
    }
  }
  const extra = Object.keys(d.values).filter((k) => !p.plan.some((m) => m.name === k));
  if (extra.length > 0) out.push(`it has values of measures this run never measured: ${extra.join(", ")}`);
  if (out.length > 0) return out;
  // by the method the decision names: one made before the screened t keeps its Student t
  const method = d.paired === null ? REPEATED_METHOD : methodNamed(d.paired.benchmark.method);
  const again = decideLook(r.contract, pairedValues(p.plan, onDisk), { method });
  if (again.verdict !== d.verdict) {
    out.push(`its verdict is ${d.verdict}, but the results on disk give ${again.verdict}`);
  }
  for (const [key, diff] of Object.entries(again.deltas)) {
    if (d.deltas[key] !== diff) {
      out.push(`its difference ${key} is ${String(d.deltas[key])}, not ${formatNumber(diff)}`);
    }
  }
  return out;
}

/** The one-line warning for disagreements, naming the file. */
export function disputeWarning(dir: RunDir, disagreements: readonly string[]): string {
  return `${JSON.stringify(dir.decision)} does not follow from the results beside it: ${disagreements.join("; ")}`;
}
