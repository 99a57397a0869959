/**
 * The windows of one sliding-window listwise pass.
 *
 * @module
 */

/**
 * The windows `[start, end)` of one listwise pass over `n` candidates, in the
 * order they are ranked: from the bottom of the list up, each `window` long
 * (shorter only at the top), each `stride` above the last, the last one at the
 * top (RankGPT's sliding window, as RankZephyr runs it). There are
 * `ceil((n - window) / stride) + 1` windows when `n > window`, one when
 * `0 < n <= window` and none when `n = 0`.
 *
 * @param n Candidates ranked (a non-negative integer).
 * @param window Passages per window (a positive integer, e.g. 20).
 * @param stride Step between windows (1 to `window`, e.g. 10).
 * @returns The windows, bottom first.
 * @throws {RangeError} On a non-integer or out-of-range argument.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listwiseWindows } from "@lib/retrieval/mod.ts";
 * assert.deepEqual(listwiseWindows(35, 20, 10), [[15, 35], [5, 25], [0, 15]]);
 * ```
 */
export function listwiseWindows(n: number, window: number, stride: number): [number, number][] {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`Cannot slide over ${n} candidates: use a non-negative integer`);
  }
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(`Listwise window must be a positive integer, got ${window}`);
  }
  if (!Number.isInteger(stride) || stride < 1 || stride > window) {
    throw new RangeError(
      `Listwise stride must be an integer from 1 to the window (${window}), got ${stride}`,
    );
  }
  if (n === 0) return [];
  const count = n <= window ? 1 : Math.ceil((n - window) / stride) + 1;
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const end = n - i * stride;
    out.push([Math.max(0, end - window), end]);
  }
  return out;
}
