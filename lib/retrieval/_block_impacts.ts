/** Per-block impacts of posting lists; private to `@lib/retrieval`. */
import { BLOCK } from "./_postings_codec.ts";

/** Impacts of the blocks of every list longer than one block. */
export interface BlockImpacts {
  /** Term t's blocks are `[blockStarts[t], blockStarts[t + 1])`; length = terms + 1. */
  blockStarts: Uint32Array;
  /** Two numbers per block: the largest tf and the smallest document length in it. */
  blockImpacts: Uint32Array;
}

/**
 * Computes the impact of each block of {@link BLOCK} postings (block i of term t
 * holds postings `offsets[t] + i * BLOCK` onwards) for lists of more than one
 * block; shorter lists have none.
 */
export function blockImpacts(
  offsets: Uint32Array,
  docs: Uint32Array,
  tfs: Uint16Array | Uint32Array,
  lengths: Uint32Array,
): BlockImpacts {
  const v = offsets.length - 1;
  const blockStarts = new Uint32Array(v + 1);
  for (let t = 0; t < v; t++) {
    const df = offsets[t + 1] - offsets[t];
    blockStarts[t + 1] = blockStarts[t] + (df > BLOCK ? Math.ceil(df / BLOCK) : 0);
  }
  const impacts = new Uint32Array(blockStarts[v] * 2);
  for (let t = 0; t < v; t++) {
    let i = blockStarts[t];
    for (let b = offsets[t]; i < blockStarts[t + 1]; b += BLOCK, i++) {
      let maxTf = 0;
      let minLen = 2 ** 32 - 1;
      for (let p = b, stop = Math.min(offsets[t + 1], b + BLOCK); p < stop; p++) {
        if (tfs[p] > maxTf) maxTf = tfs[p];
        const len = lengths[docs[p]];
        if (len < minLen) minLen = len;
      }
      impacts[2 * i] = maxTf;
      impacts[2 * i + 1] = minLen;
    }
  }
  return { blockStarts, blockImpacts: impacts };
}
