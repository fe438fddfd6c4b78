/**
 * The instruction budgets of bench/budgets.json and how a measured count is
 * held to one (scripts/check_budgets.ts measures; this only compares).
 */

/** One figure's budget: the instructions (callgrind's Ir) it was recorded at, and where. */
export interface Budget {
  readonly ir: number;
  /** The commit whose binary measured `ir`. */
  readonly commit: string;
  /** What the figure is, or what an increase bought. */
  readonly note: string;
}

export interface Budgets {
  /** How far over its budget a figure may go before the check fails: 0.1 is 10%. */
  readonly tolerance: number;
  readonly note: string;
  readonly figures: Readonly<Record<string, Budget>>;
}

export interface Verdict {
  readonly figure: string;
  readonly measured: number;
  readonly budget: number | null;
  /** measured / budget, null without a budget. */
  readonly ratio: number | null;
  readonly over: boolean;
  readonly line: string;
}

/** A count with its thousands marked: 12345678 -> "12,345,678". */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");

/**
 * Each measured figure against its budget: over when it exceeds the budget by
 * more than the tolerance. A figure without a budget is over too (a budget is
 * recorded with the figure), and so is a budget nothing measured.
 */
export function judge(measured: Readonly<Record<string, number>>, budgets: Budgets): Verdict[] {
  const names = [...new Set([...Object.keys(budgets.figures), ...Object.keys(measured)])];
  return names.map((figure) => {
    const m = measured[figure];
    const b = budgets.figures[figure];
    if (m === undefined) {
      return { figure, measured: NaN, budget: b!.ir, ratio: null, over: true, line: `${figure}: not measured` };
    }
    if (b === undefined) {
      return {
        figure,
        measured: m,
        budget: null,
        ratio: null,
        over: true,
        line: `${figure}: ${grouped(m)} instructions, no budget in bench/budgets.json`,
      };
    }
    const ratio = m / b.ir;
    const over = ratio > 1 + budgets.tolerance;
    return {
      figure,
      measured: m,
      budget: b.ir,
      ratio,
      over,
      line: `${figure}: ${grouped(m)} instructions, budget ${grouped(b.ir)} (${b.commit}), ` +
        `${ratio.toFixed(3)}x${over ? `: OVER by more than ${Math.round(budgets.tolerance * 100)}%` : ""}`,
    };
  });
}

/** The total instructions callgrind collected, from its log (`==pid== Collected : N`). */
export function collected(log: string): number {
  const m = /^==\d+== Collected : (\d+)\s*$/m.exec(log);
  if (m === null) throw new Error(`no 'Collected :' line in callgrind's output:\n${log.slice(-2000)}`);
  return Number(m[1]);
}
