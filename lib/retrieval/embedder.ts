// The embedder interface: texts to dense vectors, online or offline.

/**
 * Turns texts into dense vectors. Implemented online by the LLM layer (an
 * embeddings endpoint) and offline by {@link tfidfEmbedder}.
 *
 * @example
 * ```ts
 * import { type Embedder, tfidfEmbedder } from "@lib/retrieval/mod.ts";
 * const embedder: Embedder = tfidfEmbedder(["storm damage on the coast", "Ann won the race"]);
 * const [v] = await embedder.embed(["storm damage"]);
 * ```
 */
export interface Embedder {
  /** Model or method name, recorded with results (e.g. `tfidf-hash-1024`). */
  name: string;
  /** Embeds each text; resolves to one vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
