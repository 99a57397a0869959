/** Dense retrieval over the pooled passages (private to `retrieveRun`). */
import type { RunRow } from "@lib/types/mod.ts";
import { DenseIndex, denseRun, type Embedder, tfidfEmbedder } from "@lib/retrieval/mod.ts";
import type { DenseRetrievalConfig } from "./retrieve_run.ts";

/**
 * Embeds each distinct non-blank text once, in first-seen order, with one call
 * of the embedder; blank texts get a zero vector (endpoints refuse empty input).
 */
export async function embedDistinct(
  embedder: Embedder,
  texts: readonly string[],
): Promise<Float32Array[]> {
  const distinct = [...new Set(texts.filter((t) => t.trim()))];
  const vectors = distinct.length ? await embedder.embed(distinct) : [];
  if (vectors.length !== distinct.length) {
    throw new RangeError(
      `Embedder "${embedder.name}" returned ${vectors.length} vectors for ${distinct.length} texts`,
    );
  }
  const byText = new Map(distinct.map((t, i) => [t, vectors[i]]));
  const zero = new Float32Array(vectors[0]?.length ?? 0);
  return texts.map((t) => byText.get(t) ?? zero);
}

/**
 * A dense run of `queries` over `docs`. The `tfidf` embedder is fitted on the
 * docs' texts; the `openai` one is the given `embedder`.
 */
export async function denseRows(
  docs: readonly { id: string; text: string }[],
  queries: readonly { topicId: string; text: string }[],
  cfg: DenseRetrievalConfig,
  embedder?: Embedder,
): Promise<RunRow[]> {
  const e = cfg.embedder === "tfidf"
    ? tfidfEmbedder(docs.map((d) => d.text), { dimensions: cfg.dimensions })
    : embedder;
  if (!e) {
    throw new TypeError(
      `Cannot compute dense run "${cfg.name}": embedder "openai" needs a client of the embedder role; pass \`embedder\``,
    );
  }
  const index = DenseIndex.build(
    docs.map((d) => d.id),
    await embedDistinct(e, docs.map((d) => d.text)),
  );
  const vectors = await embedDistinct(e, queries.map((q) => q.text));
  return denseRun(index, queries.map((q, i) => ({ topicId: q.topicId, vector: vectors[i] })), {
    run: cfg.name,
    k: cfg.k ?? 100,
  });
}
