// The offline passage splitter (`chunker`): sentence-aware chunks standing in for the LLM splitter.

import { chunkText } from "@lib/text/mod.ts";
import type { PassageSplitter } from "./types.ts";

/**
 * The offline passage splitter (backend name `chunker`): deterministic
 * sentence-aware chunks of about `minWords`-`maxWords` words (`chunkText`),
 * standing in for LLM decontextualisation.
 *
 * @param opts `minWords` (default 120), `maxWords` (default 200).
 * @returns A splitter with the same interface as the model-based one.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkSplitter } from "@lib/llm/mod.ts";
 * const article = "Storm hits the coast. ".repeat(100); // 400 words
 * const [r] = await chunkSplitter().split([article]);
 * assert.equal(r.passages.length, 2); // (200 words each)
 * ```
 */
export function chunkSplitter(
  opts: { minWords?: number; maxWords?: number } = {},
): PassageSplitter {
  return {
    name: "chunker",
    split(documents) {
      return Promise.resolve(
        documents.map((d) => ({ passages: chunkText(d, opts), status: "ok" as const, raw: "" })),
      );
    },
  };
}
