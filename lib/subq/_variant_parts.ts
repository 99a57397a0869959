/** Building blocks of the core sub-question RAG variants; private to `@lib/subq`. */
import type { Bm25Index } from "@lib/retrieval/mod.ts";
import { countTokens } from "@lib/text/mod.ts";

/** The definition of core sub-questions appended to the query by the `def` variant. */
export const CORE_DEFINITION =
  "Focus on the core points: the central facts that any answer to this request must address, " +
  "rather than optional background or what might happen next.";

/** Ids of the top hits of a query. */
export function top(index: Bm25Index, text: string, k: number): string[] {
  return text.trim() ? index.search(text, k).map((h) => h.docId) : [];
}

/** Joins texts up to a token budget (whole sentences only). */
export function withinBudget(parts: readonly string[], maxTokens: number): string {
  let text = "";
  for (const p of parts) {
    const candidate = text ? `${text} ${p}` : p;
    if (countTokens(candidate) > maxTokens) break;
    text = candidate;
  }
  return text;
}
