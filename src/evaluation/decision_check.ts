// Tested by tests/evaluation/standing_test.ts
import { benchmarkName, parseGuardName } from "../measure/measure_name.ts";
import { advanceRun, decideAt } from "../plan/advance.ts";
import type { PassPlan } from "../plan/run_plan.ts";
import type { DecisionRecord } from "../rundir/decision_file.ts";
import type { RunDir } from "../rundir/run_dir.ts";
import { methodNamed, REPEATED_METHOD } from "../stats/repeated_method.ts";
import { formatNumber } from "../text/numbers.ts";
import type { RunSnapshot } from "./snapshot.ts";
import { crashedMeasures } from "../rundir/crashes_file.ts";

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
export function checkDecision(s: RunSnapshot, d: DecisionRecord): string[] {
  const { values, unreadable } = s.results;
  const round = s.record.candidates.length > 1;
  const n = d.paired?.n ?? 1;
  // a single candidate's decision rests on the look at its n pairs; a round's batches, and a crash, say
  // where they stop
  const crashed = crashedMeasures(s.crashes);
  const walk = round || d.verdict === "crashed";
  if (!walk && !s.plan.design.looks.some((l) => l.n === n)) {
    return [`it rests on ${n} pair(s), which this run's design never looks at`];
  }
  const a = walk ? advanceRun(s.plan, values, {}, crashed) : null;
  const p = a?.plan ?? s.plan.look(n);
  // what the decision needed from disk: a look's every measure; a walk's, what it still misses (a crash
  // decides at once, without what its look had still out: the pass stopped that)
  const needed = a === null
    ? p.toMeasure.filter((m) => !Object.hasOwn(values, m.name) && !crashed.has(m.name))
    : a.step === null
    ? a.missing
    : [];
  const lost = needed.map((m) =>
    `the result of measure ${JSON.stringify(m.name)} cannot be read (${
      unreadable[m.name]?.split("\n")[0] ?? "its eval has not finished"
    })`
  );
  if (lost.length > 0) return lost;
  // by the method the decision names: one made before the screened t keeps its Student t
  const method = d.paired === null ? REPEATED_METHOD : methodNamed(d.paired.benchmark.method);
  const step = a === null ? decideAt(s.plan, n, values, { method }) : a.step;
  if (step === null) {
    return [`its results are not all on disk: no result yet for ${a!.missing.map((m) => m.name).join(", ")}`];
  }
  const out = [
    ...valueDisagreements(d, p, step.decision.values),
    ...outcomeDisagreements(d, step.decision.verdict, step.decision.deltas),
  ];
  if (step.kind === "round") {
    const winner = d.round?.winner?.arm ?? null;
    const again = step.decision.winner?.arm ?? null;
    if (winner !== again) {
      const name = (arm: number | null) => (arm === null ? "no winner" : `winner ${benchmarkName(arm)}`);
      out.push(`it names ${name(winner)}, but the results on disk give ${name(again)}`);
    }
  }
  return out;
}

/** Where the decision's values are not the results': one sentence each. */
function valueDisagreements(d: DecisionRecord, p: PassPlan, onDisk: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
  for (const m of p.plan.filter((x) => Object.hasOwn(onDisk, x.name) || Object.hasOwn(d.values, x.name))) {
    const stated = d.values[m.name];
    if (stated !== onDisk[m.name]) {
      out.push(
        `it gives ${m.name} = ${stated === undefined ? "nothing" : formatNumber(stated)} where the run's result is ` +
          (onDisk[m.name] === undefined
            ? "nothing the verdict reads (a crash came before it)"
            : formatNumber(onDisk[m.name]!)),
      );
    }
  }
  // a guard's values come from its benchmark measure's result: compared like a measure's
  for (const k of Object.keys(onDisk).filter((k) => parseGuardName(k) !== null)) {
    if (d.values[k] !== onDisk[k]) {
      const stated = d.values[k];
      out.push(
        `it gives ${k} = ${stated === undefined ? "nothing" : formatNumber(stated)} where the run's result is ` +
          formatNumber(onDisk[k]!),
      );
    }
  }
  const extra = Object.keys(d.values).filter((k) => !p.plan.some((m) => m.name === k) && !Object.hasOwn(onDisk, k));
  if (extra.length > 0) out.push(`it has values of measures this run never measured: ${extra.join(", ")}`);
  return out;
}

/** Where the decision's verdict and differences are not what its values give. */
function outcomeDisagreements(
  d: DecisionRecord,
  verdict: string,
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
