/** Small statistics helpers of the analyses (private). */
import { kendallTau, mean } from "@lib/metrics/mod.ts";

export { mean };

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

/** Fewest systems over which a rank correlation is reported (over 2 or 3 it takes only a few values). */
export const MIN_SYSTEMS = 4;

/**
 * A correlation cell: the value over at least {@linkcode MIN_SYSTEMS}
 * systems; over fewer, the text `n/a (n=2)` (a string, so it is never marked
 * best or worst); `null` when undefined.
 */
export function corrCell(value: number, n: number): number | string | null {
  if (n < MIN_SYSTEMS) return `n/a (n=${n})`;
  return cell(value);
}

/** The note explaining `n/a (n=k)` cells; empty when every correlation has enough systems. */
export function fewSystemsNote(counts: readonly number[], what = "pipelines"): string[] {
  const few = [...new Set(counts.filter((n) => n < MIN_SYSTEMS))].sort((a, b) => a - b);
  if (!few.length) return [];
  return [
    `n/a (n=${
      few.join(", ")
    }): Kendall τ is not reported over fewer than ${MIN_SYSTEMS} ${what}; over ${
      few.join(" or ")
    } it can only take a few values (±1 over two) and says nothing about agreement.`,
  ];
}

/** The note defining the symbols: the answerability threshold t and Kendall's τ. */
export function symbolNote(t: number): string {
  return `t = ${t}: answerability threshold (a sub-question counts as answered when rated ≥ t); Kendall τ = Kendall's tau-b rank correlation.`;
}
