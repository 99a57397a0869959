/**
 * Offline merging of near-duplicate key points by lexical similarity.
 *
 * @module
 */
import { jaccard, termSet } from "./_text.ts";
import type { KeyPointMerger, MergeGroup } from "./types.ts";

/**
 * Groups key points greedily in order: a point joins the first group whose
 * first point has a Jaccard similarity of analysed terms (stemmed, stop words
 * removed) of at least `threshold` with it, otherwise it starts a group. The
 * group keeps its first point's text. Every original is in exactly one group.
 *
 * @param points Texts of the original key points.
 * @param threshold Similarity needed to merge, in (0, 1].
 * @returns The groups, with 0-based source indices in order.
 * @throws {RangeError} On a threshold outside (0, 1].
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalGroups } from "@lib/keypoints/mod.ts";
 * assert.deepEqual(lexicalGroups(["The bridge opened in 1932.", "In 1932 the bridge opened.", "Tolls were cut."], 0.6), [{ text: "The bridge opened in 1932.", sources: [0, 1] }, { text: "Tolls were cut.", sources: [2] }]);
 * ```
 */
export function lexicalGroups(points: readonly string[], threshold: number): MergeGroup[] {
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(
      `Cannot merge key points with threshold ${threshold}: use a value in (0, 1]`,
    );
  }
  const groups: (MergeGroup & { terms: Set<string> })[] = [];
  points.forEach((text, i) => {
    const terms = termSet(text);
    const g = groups.find((g) => jaccard(g.terms, terms) >= threshold);
    if (g) g.sources.push(i);
    else groups.push({ text, sources: [i], terms });
  });
  return groups.map(({ text, sources }) => ({ text, sources }));
}

/**
 * The offline merger (labelled `offline-lexical(<threshold>)`), using
 * {@linkcode lexicalGroups}.
 *
 * @param opts `threshold` (default 0.6).
 * @returns A merger.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lexicalMerger } from "@lib/keypoints/mod.ts";
 * const [r] = await lexicalMerger().merge([{ id: "q1", question: "?", points: ["A b c.", "A b c!"] }]);
 * assert.deepEqual(r.groups, [{ text: "A b c.", sources: [0, 1] }]);
 * ```
 */
export function lexicalMerger(opts: { threshold?: number } = {}): KeyPointMerger {
  const threshold = opts.threshold ?? 0.6;
  return {
    name: `offline-lexical(${threshold})`,
    merge(inputs) {
      return Promise.resolve(
        inputs.map((m) => ({
          id: m.id,
          groups: lexicalGroups(m.points, threshold),
          status: "ok" as const,
        })),
      );
    },
  };
}
