// The embedder record type: texts to dense vectors, online or offline.

/**
 * Turns texts into dense vectors (a record type shared by the model layer,
 * which embeds online, and retrieval, which searches and reranks with it). Implemented online by the LLM layer (an
 * embeddings endpoint) and offline by {@link tfidfEmbedder}.
 *
 * @example
 * ```ts
 * import type { Embedder } from "@lib/types/mod.ts";
 * const lengths: Embedder = {
 *   name: "length-1",
 *   embed: (texts) => Promise.resolve(texts.map((t) => Float32Array.of(t.length))),
 * };
 * const [v] = await lengths.embed(["storm damage"]); // Float32Array [12]
 * ```
 */
export interface Embedder {
  /** Model or method name, recorded with results (e.g. `tfidf-hash-1024`). */
  name: string;
  /** Embeds each text; resolves to one vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}
