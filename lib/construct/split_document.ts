// Splits documents longer than a word limit into pieces before passage construction.

/** Options of {@link splitDocument}. */
export interface SplitDocumentOptions {
  /** Documents with more words than this are split. Default 1024. */
  maxWords?: number;
  /** Words per piece when a document is split. Default 512. */
  pieceWords?: number;
}

/**
 * Splits a long source document into pieces before LLM decontextualisation
 * (CRUX protocol: documents longer than 1024 words are cut into 512-word
 * pieces). Words are whitespace-separated tokens; a split document's pieces
 * are re-joined with single spaces, a short document is returned unchanged.
 * Empty or whitespace-only text gives no piece.
 *
 * @param text The document text.
 * @param opts Thresholds; `maxWords` defaults to 1024, `pieceWords` to 512.
 * @returns The pieces in document order (a new array).
 * @throws {RangeError} When `pieceWords` or `maxWords` is not a positive integer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(splitDocument("a b c d e", { maxWords: 4, pieceWords: 2 }), ["a b", "c d", "e"]);
 * assert.deepEqual(splitDocument("short text"), ["short text"]);
 * ```
 */
export function splitDocument(text: string, opts: SplitDocumentOptions = {}): string[] {
  const maxWords = opts.maxWords ?? 1024;
  const pieceWords = opts.pieceWords ?? 512;
  for (const [name, value] of [["maxWords", maxWords], ["pieceWords", pieceWords]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(
        `Cannot split document: ${name} must be a positive integer, got ${value}`,
      );
    }
  }
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return [];
  if (words.length <= maxWords) return [text.trim()];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += pieceWords) {
    pieces.push(words.slice(i, i + pieceWords).join(" "));
  }
  return pieces;
}
