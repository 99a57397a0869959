// Cosine similarity of dense or sparse vectors.

import type { SparseVector } from "./sparse_vector.ts";

function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

/**
 * Cosine similarity of two dense vectors (same length) or two sparse vectors.
 * Zero vectors have similarity 0 with everything.
 *
 * @param a A `Float32Array` or {@link SparseVector}.
 * @param b Same kind as `a`.
 * @returns The cosine in [-1, 1].
 * @throws {RangeError} When dense vectors differ in length or the kinds differ.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(Math.abs(cosine(Float32Array.of(1, 0), Float32Array.of(1, 1)) - Math.SQRT1_2) < 1e-6); // 0.7071...
 * ```
 */
export function cosine(a: Float32Array | SparseVector, b: Float32Array | SparseVector): number {
  if (a instanceof Float32Array && b instanceof Float32Array) {
    if (a.length !== b.length) {
      throw new RangeError(`Cannot compare vectors of lengths ${a.length} and ${b.length}`);
    }
    let dot = 0;
    for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
    const n = norm(a) * norm(b);
    return n === 0 ? 0 : dot / n;
  }
  if (a instanceof Float32Array || b instanceof Float32Array) {
    throw new RangeError("Cannot compare a dense vector with a sparse one");
  }
  let dot = 0;
  let i = 0;
  let j = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const x = a.indices[i];
    const y = b.indices[j];
    if (x === y) dot += a.values[i++] * b.values[j++];
    else if (x < y) i++;
    else j++;
  }
  const n = norm(a.values) * norm(b.values);
  return n === 0 ? 0 : dot / n;
}
