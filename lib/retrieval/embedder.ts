/**
 * Turns texts into dense vectors. Implemented online by the LLM layer (an
 * embeddings endpoint) and offline by {@link tfidfEmbedder}.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@lib/retrieval/mod.ts";
 * declare const embedder: Embedder; // e.g. tfidfEmbedder(...) or openAiEmbedder(...)
 * const [v] = await embedder.embed(["storm damage"]);
 * ```
 */
export interface Embedder {
  /** Model or method name, recorded with results (e.g. `tfidf-hash-1024`). */
  name: string;
  /** Embeds each text; resolves to one vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
