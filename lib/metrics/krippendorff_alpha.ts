/**
 * Krippendorff's alpha for any number of coders per unit, with missing values.
 *
 * @module
 */

/** Levels of measurement: how far apart two values are. */
export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";

/** Options of {@linkcode krippendorffAlpha}. */
export interface KrippendorffAlphaOptions {
  /** Level of measurement. Default "nominal". */
  level?: AlphaLevel;
  /**
   * The values in their order, lowest first (ordinal level). Default: numbers in
   * ascending order; strings need an explicit order.
   */
  order?: readonly (string | number)[];
}

/** A value a coder gave; `null` or `undefined` = the coder gave none. */
export type AlphaValue = string | number | null | undefined;

/**
 * Krippendorff's alpha: 1 - (n - 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, from the
 * coincidence matrix o (each unit with m_u >= 2 values adds every ordered pair
 * of its values with weight 1 / (m_u - 1)), n_c the values of category c and n
 * all pairable values. Units with fewer than two values are dropped, so coders
 * may label any subset of units. Distances δ²: nominal 0 or 1; ordinal
 * (Σ_{g=c..k} n_g - (n_c + n_k) / 2)²; interval (c - k)²; ratio ((c - k) / (c + k))².
 *
 * @param units One list per unit: the values its coders gave (missing values as
 *   `null`/`undefined`; the coders' identity does not matter).
 * @param opts `level` (default nominal) and, for ordinal strings, the `order`.
 * @returns alpha (1 = perfect; 0 = chance); NaN when no unit has two values or
 *   every value is the same (no expected disagreement).
 * @throws {RangeError} On non-numeric values at the interval or ratio level, a
 *   negative value at the ratio level, or an ordinal value outside `order`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { krippendorffAlpha } from "@lib/metrics/mod.ts";
 * // o_aa = 3 (one unit of three a's, weight 1/2), o_ab = o_ba = 1, o_bb = 2 ("a" alone
 * // is dropped): n_a = 4, n_b = 3, n = 7; alpha = 1 - 6 * 2 / (2 * 4 * 3) = 0.5
 * const units = [["a", "a", "a"], ["a", "b", null], ["b", "b"], ["a"]];
 * assert.ok(Math.abs(krippendorffAlpha(units) - 0.5) < 1e-12);
 * ```
 */
export function krippendorffAlpha(
  units: readonly (readonly AlphaValue[])[],
  opts: KrippendorffAlphaOptions = {},
): number {
  const level = opts.level ?? "nominal";
  const pairable = units
    .map((u) => u.filter((v): v is string | number => v !== null && v !== undefined))
    .filter((u) => u.length >= 2);
  // Categories: ordered for the ordinal level, by value otherwise.
  const present = new Set(pairable.flat());
  let values: (string | number)[];
  if (opts.order) {
    const known = new Set(opts.order);
    for (const v of present) {
      if (!known.has(v)) {
        throw new RangeError(
          `Krippendorff's alpha: value ${JSON.stringify(v)} is not in the given order ` +
            `(${opts.order.map((o) => JSON.stringify(o)).join(", ")})`,
        );
      }
    }
    values = opts.order.filter((v) => present.has(v));
  } else {
    values = [...present];
    const strings = values.filter((v) => typeof v !== "number");
    if (strings.length && level !== "nominal") {
      throw new RangeError(
        `Krippendorff's alpha (${level}): value ${
          JSON.stringify(strings[0])
        } is not a number; give numbers` +
          (level === "ordinal" ? " or the order of the values" : ""),
      );
    }
    if (!strings.length) values.sort((a, b) => (a as number) - (b as number));
  }
  if ((level === "interval" || level === "ratio") && values.some((v) => typeof v !== "number")) {
    throw new RangeError(`Krippendorff's alpha (${level}) needs numeric values`);
  }
  if (level === "ratio" && values.some((v) => (v as number) < 0)) {
    throw new RangeError("Krippendorff's alpha (ratio) needs values >= 0");
  }
  const k = values.length;
  const index = new Map(values.map((v, i) => [v, i]));
  const o = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const u of pairable) {
    const counts = new Map<number, number>();
    for (const v of u) counts.set(index.get(v)!, (counts.get(index.get(v)!) ?? 0) + 1);
    const w = 1 / (u.length - 1);
    for (const [c, nc] of counts) {
      for (const [d, nd] of counts) o[c][d] += w * (c === d ? nc * (nc - 1) : nc * nd);
    }
  }
  const nc = o.map((row) => row.reduce((s, x) => s + x, 0));
  const n = nc.reduce((s, x) => s + x, 0);
  if (n === 0) return NaN;
  const delta = distances(values, nc, level);
  let observed = 0, expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      observed += o[c][d] * delta[c][d];
      expected += nc[c] * nc[d] * delta[c][d];
    }
  }
  return expected === 0 ? NaN : 1 - ((n - 1) * observed) / expected;
}

/** Squared distances δ²_cd between the (ordered) values at a level. */
function distances(values: readonly (string | number)[], nc: readonly number[], level: AlphaLevel) {
  const k = values.length;
  return Array.from({ length: k }, (_, c) =>
    Array.from({ length: k }, (_, d) => {
      if (c === d) return 0;
      if (level === "nominal") return 1;
      if (level === "ordinal") {
        const [lo, hi] = c < d ? [c, d] : [d, c];
        let s = 0;
        for (let g = lo; g <= hi; g++) s += nc[g];
        return (s - (nc[lo] + nc[hi]) / 2) ** 2;
      }
      const x = values[c] as number, y = values[d] as number;
      if (level === "interval") return (x - y) ** 2;
      return x + y === 0 ? 0 : ((x - y) / (x + y)) ** 2;
    }));
}
