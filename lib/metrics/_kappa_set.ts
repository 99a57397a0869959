/** Kappas and alpha over aligned labels of an incomplete design; private to `@lib/metrics`. */
import { cohenKappa } from "./cohen_kappa.ts";
import { fleissKappa } from "./fleiss_kappa.ts";
import { krippendorffAlpha } from "./krippendorff_alpha.ts";
import { randolphKappa } from "./randolph_kappa.ts";

/** Agreement over one labelling of aligned items. NaN marks an undefined value. */
export interface KappaSet {
  /** Fleiss' kappa over the items every annotator labelled (NaN when there is none). */
  fleissKappa: number;
  /** Randolph's free-marginal kappa over the same items. */
  randolphKappa: number;
  /** Pairwise Cohen's kappa over the items both labelled (1 on the diagonal). */
  cohenKappa: number[][];
  /** Items each pair of annotators both labelled (the diagonal: each annotator's items). */
  shared: number[][];
  /**
   * Krippendorff's alpha over every item with two labels or more: nominal, and for
   * ordered labels ordinal and interval.
   */
  krippendorffAlpha: { nominal: number; ordinal?: number; interval?: number };
}

/** Labels of one item as category indices 0..k-1 with the annotator of each. */
export interface CategoryItem {
  labels: readonly number[];
  raters: readonly number[];
}

/**
 * Kappas and alpha of `n` annotators over items labelled by any subset of them;
 * `ordered` adds the ordinal and interval alpha.
 */
export function kappaSet(
  items: readonly CategoryItem[],
  n: number,
  k: number,
  ordered: boolean,
): KappaSet {
  const complete = items.filter((it) => it.labels.length === n);
  const table = complete.map((it) => {
    const row = new Array<number>(k).fill(0);
    for (const l of it.labels) row[l]++;
    return row;
  });
  const byRater = items.map((it) => new Map(it.raters.map((r, i) => [r, it.labels[i]])));
  const shared = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const cohen = Array.from({ length: n }, (_, a) =>
    Array.from({ length: n }, (_, b) => {
      const xs: number[] = [], ys: number[] = [];
      for (const m of byRater) {
        if (m.has(a) && m.has(b)) {
          xs.push(m.get(a)!);
          ys.push(m.get(b)!);
        }
      }
      shared[a][b] = xs.length;
      if (a === b) return 1;
      return xs.length ? cohenKappa(xs, ys) : NaN;
    }));
  const units = items.map((it) => it.labels);
  const alpha: KappaSet["krippendorffAlpha"] = { nominal: krippendorffAlpha(units) };
  if (ordered) {
    alpha.ordinal = krippendorffAlpha(units, { level: "ordinal" });
    alpha.interval = krippendorffAlpha(units, { level: "interval" });
  }
  return {
    fleissKappa: table.length ? fleissKappa(table) : NaN,
    randolphKappa: table.length ? randolphKappa(table) : NaN,
    cohenKappa: cohen,
    shared,
    krippendorffAlpha: alpha,
  };
}
