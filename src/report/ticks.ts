// Tested by tests/report/layout_test.ts
import type { Domain } from "./scale.ts";

/**
 * Axis ticks a reader can add up: steps of 1, 2 or 5 times a power of ten,
 * a domain widened to whole steps, and labels with exactly the digits the
 * step needs (`0.25` beside `0.5`, never `0.30000000000000004`), switching to
 * `1.5e9` / `2e-7` where fixed notation would be too long to read.
 */

/** The ticks of one axis. */
export interface Ticks {
  /** The domain widened outward to whole steps: the axis ends on a tick. */
  readonly domain: Domain;
  readonly step: number;
  /** Tick values from low to high, each a whole multiple of `step`. */
  readonly values: readonly number[];
}

/** The 1-2-5 step nearest `span / count`: 0.1, 0.2, 0.5, 1, 2, 5, 10, …. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  const nice = unit < 1.5 ? 1 : unit < 3 ? 2 : unit < 7 ? 5 : 10;
  return nice * power;
}

/** `n` rid of floating-point dust (`0.1 * 3` → `0.3`). */
function clean(n: number): number {
  return Number(n.toPrecision(12));
}

/**
 * About `count` nice ticks covering `domain`. `integer` keeps the step at 1
 * or more (run numbers). Where whole steps cannot be counted exactly (a
 * domain like 1e20 ± 1, beyond float precision) or would be more than
 * `4 × count + 1`, the ticks are just the domain's two ends.
 */
export function niceTicks(domain: Domain, count = 5, integer = false): Ticks {
  const [low, high] = domain;
  let step = niceStep(high - low, count);
  if (integer) step = Math.max(1, Math.round(step));
  const start = Math.floor(low / step);
  const end = Math.ceil(high / step);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end - start > 4 * count + 1) {
    return { domain, step, values: low === high ? [low] : [low, high] };
  }
  const values: number[] = [];
  for (let i = 0; i <= end - start; i++) {
    const v = clean((start + i) * step);
    if (values.length === 0 || v > (values[values.length - 1] as number)) values.push(v);
  }
  return { domain: [clean(start * step), clean(end * step)], step, values };
}

/**
 * A tick label: the digits `step` needs and no more. Fixed notation while it
 * stays short (|value| < 1e6 and step ≥ 1e-6), else `1.5e9` / `2.5e-7` with the
 * step's precision in the mantissa. Zero (and -0) is "0".
 */
export function formatTick(value: number, step: number): string {
  if (value === 0 || Math.abs(value) < Math.abs(step) * 1e-9) return "0";
  const stepExp = Math.floor(Math.log10(Math.abs(step)));
  if (Math.abs(value) < 1e6 && stepExp >= -6) {
    return value.toFixed(Math.max(0, -stepExp));
  }
  const valueExp = Math.floor(Math.log10(Math.abs(value)));
  const digits = Math.min(15, Math.max(0, valueExp - stepExp));
  const [mantissa = "", exponent = ""] = value.toExponential(digits).split("e");
  const trimmed = mantissa.includes(".") ? mantissa.replace(/0+$/, "").replace(/\.$/, "") : mantissa;
  return `${trimmed}e${exponent.replace("+", "")}`;
}
