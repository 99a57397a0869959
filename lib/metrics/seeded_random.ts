/**
 * A small seeded pseudo-random number generator, so that sampled contexts and
 * any other random choice of an analysis can be reproduced exactly.
 *
 * @module
 */

/**
 * Returns a deterministic generator of floats in [0, 1) for a 32-bit seed
 * (the mulberry32 mixing function: a 32-bit state advanced by a Weyl
 * increment, then scrambled). The same seed always yields the same sequence,
 * on every platform.
 *
 * @param seed Any finite number; it is truncated to an unsigned 32-bit integer.
 * @returns A function returning the next float in [0, 1) on each call.
 * @throws {RangeError} When `seed` is not a finite number.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededRandom } from "@lib/metrics/mod.ts";
 * const random = seededRandom(42);
 * const a = random();
 * assert.equal(a, 0.6011037519201636);
 * assert.equal(seededRandom(42)(), a); // the same value again
 * ```
 */
export function seededRandom(seed: number): () => number {
  if (!Number.isFinite(seed)) {
    throw new RangeError(
      `Cannot seed the random generator with ${seed}; give a finite number such as 42`,
    );
  }
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
