// Sparse vectors: increasing dimension indices with their values.

/**
 * A sparse vector: strictly increasing dimension `indices` with their `values`.
 *
 * @example
 * ```ts
 * const v: SparseVector = { indices: Uint32Array.of(0, 7), values: Float32Array.of(0.6, 0.8) };
 * ```
 */
export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}
