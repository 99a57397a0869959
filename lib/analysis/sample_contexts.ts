/**
 * Random retrieval contexts drawn from the top of a ranking.
 *
 * @module
 */

/** Options of {@linkcode sampleContexts}. */
export interface SampleContextsOptions {
  /** A generator of floats in [0, 1), e.g. `seededRandom(42)`. */
  random: () => number;
  /** Number of contexts to draw. Default 16. */
  samples?: number;
  /** Passages per context. Default 10. */
  size?: number;
  /** Draw from the top `depth` of the ranking. Default 50. */
  depth?: number;
}

/**
 * Draws `samples` random contexts of `size` distinct passages each from the
 * top `depth` passages of a ranking (each context is a uniform sample without
 * replacement, by a partial Fisher-Yates shuffle). Every context keeps the
 * passages in their original rank order, so it can be scored as a ranking.
 * When the ranking has fewer than `size` passages in its top `depth`, every
 * context is that whole top. Pure apart from the calls to `random`; the input
 * is not modified.
 *
 * @param ranking Passage ids, best first.
 * @param opts `random` (required), `samples` (16), `size` (10), `depth` (50).
 * @returns `samples` arrays of passage ids, each in rank order.
 * @throws {RangeError} When `samples`, `size` or `depth` is not a positive integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sampleContexts, seededRandom } from "@lib/analysis/mod.ts";
 * const ranking = Array.from({ length: 50 }, (_, i) => `d${i}`);
 * const contexts = sampleContexts(ranking, { random: seededRandom(7), samples: 2, size: 3 });
 * assert.equal(contexts.length, 2);
 * for (const ids of contexts) { // each with 3 ids in rank order
 *   assert.equal(ids.length, 3);
 *   assert.deepEqual(ids, [...ids].sort((a, b) => ranking.indexOf(a) - ranking.indexOf(b)));
 * }
 * ```
 */
export function sampleContexts(
  ranking: readonly string[],
  opts: SampleContextsOptions,
): string[][] {
  const samples = opts.samples ?? 16;
  const size = opts.size ?? 10;
  const depth = opts.depth ?? 50;
  for (const [name, value] of [["samples", samples], ["size", size], ["depth", depth]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`Cannot sample contexts: ${name} is ${value}; give a positive integer`);
    }
  }
  const top = ranking.slice(0, depth);
  const out: string[][] = [];
  for (let s = 0; s < samples; s++) {
    if (top.length <= size) {
      out.push([...top]);
      continue;
    }
    const index = top.map((_, i) => i);
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(opts.random() * (index.length - i));
      [index[i], index[j]] = [index[j], index[i]];
    }
    out.push(index.slice(0, size).sort((a, b) => a - b).map((i) => top[i]));
  }
  return out;
}
