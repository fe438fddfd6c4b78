import { EvalError } from "../dispatch/eval_error.ts";
import { readEvalResult } from "../dispatch/read_result.ts";
import { slot } from "../measure/identity.ts";
import { cachedBaseline } from "../plan/baseline_source.ts";
import { pairedValues, type PassPlan, RoundSteps, runPlan } from "../plan/run_plan.ts";
import { benchmarkName } from "../measure/measure_name.ts";
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
  if (r.candidates.length > 1) return checkRound(dir, r, d);
  const plan = runPlan(r, cachedBaseline(dir, r, false));
  const n = d.paired?.n ?? 1;
  if (!plan.design.looks.some((l) => l.n === n)) {
    return [`it rests on ${n} pair(s), which this run's design never looks at`];
  }
  const p = plan.look(n);
  const read = valuesOnDisk(dir, r, p);
  if ("unreadable" in read) return read.unreadable;
  const out = valueDisagreements(d, p, read.values);
  if (out.length > 0) return out;
  // by the method the decision names: one made before the screened t keeps its Student t
  const method = d.paired === null ? REPEATED_METHOD : methodNamed(d.paired.benchmark.method);
  const again = decideLook(r.contract, pairedValues(p.plan, read.values), { method });
  return [...out, ...outcomeDisagreements(d, again.verdict, again.deltas)];
}

/**
 * A round's decision against its results: the round is replayed from the
 * results on disk, batch after batch as its decision asked then, and its
 * last decision must give the same values, verdict, winner and differences.
 */
function checkRound(dir: RunDir, r: RunRecord, d: DecisionRecord): string[] {
  const steps = new RoundSteps(r, cachedBaseline(dir, r, false));
  for (;;) {
    const p = steps.plan;
    const read = valuesOnDisk(dir, r, p);
    if ("unreadable" in read) return read.unreadable;
    const again = steps.advance(read.values);
    if (again.next.kind === "more") continue;
    const out = [...valueDisagreements(d, p, read.values), ...outcomeDisagreements(d, again.verdict, again.deltas)];
    const winner = d.round?.winner?.arm ?? null;
    if (winner !== (again.winner?.arm ?? null)) {
      const name = (arm: number | null) => (arm === null ? "no winner" : `winner ${benchmarkName(arm)}`);
      out.push(`it names ${name(winner)}, but the results on disk give ${name(again.winner?.arm ?? null)}`);
    }
    return out;
  }
}

/** Every value of a plan from its evals' results (and the cache), or the results that cannot be read. */
function valuesOnDisk(
  dir: RunDir,
  r: RunRecord,
  p: PassPlan,
): { readonly values: Record<string, number> } | { readonly unreadable: string[] } {
  const values: Record<string, number> = { ...p.cached };
  const unreadable: string[] = [];
  for (const m of p.toMeasure) {
    try {
      values[m.name] = readEvalResult(dir.path, slot(r.image, m), m.metric, m.summary);
    } catch (err) {
      if (!(err instanceof EvalError)) throw err;
      unreadable.push(`the result of measure ${JSON.stringify(m.name)} cannot be read (${err.message.split("\n")[0]})`);
    }
  }
  return unreadable.length > 0 ? { unreadable } : { values };
}

/** Where the decision's values are not the results': one sentence each. */
function valueDisagreements(d: DecisionRecord, p: PassPlan, onDisk: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
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
  return out;
}

/** Where the decision's verdict and differences are not what its values give. */
function outcomeDisagreements(
  d: DecisionRecord,
  verdict: DecisionRecord["verdict"],
  deltas: Readonly<Record<string, number>>,
): string[] {
  const out: string[] = [];
  if (verdict !== d.verdict) out.push(`its verdict is ${d.verdict}, but the results on disk give ${verdict}`);
  for (const [key, diff] of Object.entries(deltas)) {
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
