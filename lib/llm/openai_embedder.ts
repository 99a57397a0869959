// An embedder backed by an embeddings endpoint through the model client: cached, batched, retried.

import type { Embedder } from "@lib/types/mod.ts";
import type { LlmClient } from "./llm_client.ts";

/**
 * An `Embedder` (the retrieval layer's interface) backed by an embeddings
 * endpoint through the client: cached, batched, retried. The offline
 * counterpart is `tfidfEmbedder` from `@lib/retrieval/mod.ts`.
 *
 * @param client Client of the `embedder` role.
 * @param opts `model`: embeddings model (default: the client's).
 * @returns An embedder named after the model.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { type CallCache, LlmClient, openAiEmbedder, resolveRoleConfig } from "@lib/llm/mod.ts";
 * declare const cache: CallCache;
 * const embedder = openAiEmbedder(new LlmClient({ ...resolveRoleConfig("embedder"), cache }));
 * const [v] = await embedder.embed(["storm damage"]);
 * ```
 */
export function openAiEmbedder(client: LlmClient, opts: { model?: string } = {}): Embedder {
  const model = opts.model ?? client.model;
  return {
    name: model,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const vectors = await client.embed(texts, { model });
      return vectors.map((v) => Float32Array.from(v));
    },
  };
}
