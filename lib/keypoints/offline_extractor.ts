/**
 * Offline key point extraction: salient sentences.
 *
 * @module
 */
import { splitSentences } from "@lib/text/mod.ts";
import { termSet } from "./_text.ts";
import {
  DEFAULT_EXTRACTION_ROUNDS,
  type ExtractionResult,
  type KeyPointExtractor,
} from "./types.ts";

/** Options of {@linkcode offlineExtractor}. */
export interface OfflineExtractorOptions {
  /** Key points per document and round. Default 3. */
  perRound?: number;
  /** Question terms a sentence must share to count as salient. Default 1. */
  minOverlap?: number;
}

/**
 * The offline extractor (labelled `offline-salient`): the sentences of a
 * document that share the most analysed terms with the question (at least
 * `minOverlap`; ties in document order) become key points, each with its own
 * text as the span, so every span is found exactly. Round r returns the next
 * `perRound` sentences of that ranking (the points missed so far; 2 rounds
 * unless asked otherwise, as the model-based extractor); a round
 * with nothing new ends the rounds.
 *
 * @param opts `perRound` (3), `minOverlap` (1).
 * @returns An extractor.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { offlineExtractor } from "@lib/keypoints/mod.ts";
 * const doc = "The bridge opened in 1932. Tickets cost a dollar. The bridge spans the harbour.";
 * const [r] = await offlineExtractor({ perRound: 1 }).extract([{ id: "1", question: "When did the bridge open?", document: doc }]);
 * assert.equal(r.points[0].text, "The bridge opened in 1932.");
 * ```
 */
export function offlineExtractor(opts: OfflineExtractorOptions = {}): KeyPointExtractor {
  const perRound = opts.perRound ?? 3;
  const minOverlap = opts.minOverlap ?? 1;
  return {
    name: "offline-salient",
    extract(inputs, { rounds = DEFAULT_EXTRACTION_ROUNDS } = {}) {
      return Promise.resolve(inputs.map((input): ExtractionResult => {
        const q = termSet(input.question);
        const ranked = splitSentences(input.document)
          .map((text, i) => ({ text, i, score: [...termSet(text)].filter((t) => q.has(t)).length }))
          .filter((s) => s.score >= minOverlap)
          .sort((a, b) => b.score - a.score || a.i - b.i);
        const points = ranked.slice(0, perRound * rounds).map((s, n) => ({
          text: s.text,
          spans: [s.text],
          round: Math.floor(n / perRound) + 1,
        }));
        const asked = Math.min(rounds, Math.floor(points.length / perRound) + 1);
        return { id: input.id, points, status: "ok", rounds: asked };
      }));
    },
  };
}
