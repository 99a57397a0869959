// Passage ids `{topic}:{doc}#{j}`: numbers the passages of each topic's documents in order.

import type { Passage } from "@lib/types/mod.ts";

/** The passage texts produced from one source document. */
export interface DocumentPassages {
  /** The document's id (stored in `Passage.docId`). */
  docId: string;
  /** The document's index within its topic (the `{doc}` part of passage ids). */
  docIndex: number;
  /** Passage texts in order; blank texts are skipped. */
  texts: string[];
}

/**
 * Gives passages their CRUX ids `{topic}:{doc}#{j}`: `doc` is the document's
 * index in the topic and `j` counts passages across the whole topic (not per
 * document), in document-index order. Texts are trimmed; blank ones are skipped
 * and take no number.
 *
 * @param topicId The topic the documents belong to.
 * @param docs Each document's passage texts (any order; not modified).
 * @returns Passages without token counts, in id order.
 * @throws {RangeError} When two documents share a `docIndex`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const passages = numberPassages("t1", [
 *   { docId: "t1:1", docIndex: 1, texts: ["c"] },
 *   { docId: "t1:0", docIndex: 0, texts: ["a", "b"] },
 * ]);
 * assert.deepEqual(passages.map((p) => p.passageId), ["t1:0#0", "t1:0#1", "t1:1#2"]);
 * ```
 */
export function numberPassages(topicId: string, docs: DocumentPassages[]): Passage[] {
  const sorted = [...docs].sort((a, b) => a.docIndex - b.docIndex);
  const out: Passage[] = [];
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    const doc = sorted[i];
    if (i > 0 && sorted[i - 1].docIndex === doc.docIndex) {
      throw new RangeError(
        `Cannot number passages of topic "${topicId}": documents "${
          sorted[i - 1].docId
        }" and "${doc.docId}" share docIndex ${doc.docIndex}; give each document its own index`,
      );
    }
    for (const raw of doc.texts) {
      const text = raw.trim();
      if (!text) continue;
      out.push({ passageId: `${topicId}:${doc.docIndex}#${j}`, topicId, docId: doc.docId, text });
      j++;
    }
  }
  return out;
}
