/** Small statistics helpers of the analyses (private). */
import { kendallTau } from "@lib/metrics/mod.ts";

/** Arithmetic mean; NaN for an empty list. */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

/** Sample standard deviation (n - 1); NaN for fewer than two values. */
export function sd(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Kendall tau-b of paired values, skipping pairs with a NaN; NaN when fewer than two remain. */
export function tau(x: readonly number[], y: readonly number[]): number {
  const keep = x.flatMap((v, i) => (Number.isNaN(v) || Number.isNaN(y[i]) ? [] : [i]));
  if (keep.length < 2) return NaN;
  const xs = keep.map((i) => x[i]);
  const ys = keep.map((i) => y[i]);
  return kendallTau(xs, ys);
}

/** A table cell: null for NaN. */
export function cell(x: number | undefined): number | null {
  return x === undefined || Number.isNaN(x) ? null : x;
}
