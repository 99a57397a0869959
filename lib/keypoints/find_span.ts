/**
 * Checks a key point's supporting span against its document.
 *
 * @module
 */
import type { SpanStatus } from "@lib/formats/mod.ts";
import { normalizeText } from "./_text.ts";

/**
 * Where a verbatim span occurs in a document: `exact` (as given), `normalized`
 * (after collapsing white space, making curly quotes straight and dashes
 * hyphens, on both sides) or `missing`. A blank span is `missing`.
 *
 * @param span The span a model (or a file) gave as evidence.
 * @param document The document text.
 * @returns The status.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findSpan } from "@lib/keypoints/mod.ts";
 * assert.equal(findSpan("the “new” bridge", 'They opened the "new"  bridge.'), "normalized");
 * assert.equal(findSpan("a made-up quote", "They opened the bridge."), "missing");
 * ```
 */
export function findSpan(span: string, document: string): SpanStatus {
  if (!span.trim()) return "missing";
  if (document.includes(span)) return "exact";
  return normalizeText(document).includes(normalizeText(span)) ? "normalized" : "missing";
}
