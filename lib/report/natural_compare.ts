/**
 * Natural order of labels such as topic ids: digit runs compare as numbers, so
 * `test-2` comes before `test-10` and `sample-09` before `sample-10`.
 *
 * @module
 */

const PARTS = /(\d+)|(\D+)/g;

/**
 * Compares two labels in natural order (digit runs by value, other text by code
 * unit; equal values with different zero padding fall back to plain order).
 *
 * @param a First label.
 * @param b Second label.
 * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { naturalCompare } from "@lib/report/mod.ts";
 * assert.deepEqual(["test-10", "test-2", "test-1"].sort(naturalCompare), ["test-1", "test-2", "test-10"]);
 * ```
 */
export function naturalCompare(a: string, b: string): number {
  const pa = a.match(PARTS) ?? [];
  const pb = b.match(PARTS) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i], y = pb[i];
    const dx = /^\d/.test(x), dy = /^\d/.test(y);
    if (dx && dy) {
      const d = Number(x) - Number(y);
      if (d !== 0) return d;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
