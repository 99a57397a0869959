// The offline report generator (`extractive`): context sentences in rank order, up to the budget.

import { countTokens, splitSentences } from "@lib/text/mod.ts";
import type { GenerationInput, GenerationOutput, Generator } from "./types.ts";

/**
 * The offline generator (backend name `extractive`): takes the sentences of
 * the contexts in rank order (all of context 1, then context 2, ...) and stops
 * before the first sentence that would push the text (sentences joined by
 * spaces) over `maxTokens` Llama-3.1 tokens. With no contexts (direct
 * prompting) it returns an empty text. Deterministic.
 *
 * @param opts `tokenizer` of the budget: `llama3.1` (default) or `whitespace`.
 * @returns A generator with the same interface as the model-based one.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractiveGenerator } from "@lib/llm/mod.ts";
 * const passages = ["Ann won the race.", "Bob came second."];
 * const out = await extractiveGenerator().generate({ request: "...", contexts: passages, maxTokens: 400 });
 * assert.ok(out.tokens <= 400);
 * ```
 */
export function extractiveGenerator(
  opts: { tokenizer?: "llama3.1" | "whitespace" } = {},
): Generator {
  return {
    name: "extractive",
    generate(input: GenerationInput): Promise<GenerationOutput> {
      let text = "";
      let tokens = 0;
      outer: for (const context of input.contexts) {
        for (const sentence of splitSentences(context)) {
          const candidate = text ? `${text} ${sentence}` : sentence;
          const n = countTokens(candidate, opts);
          if (n > input.maxTokens) break outer;
          text = candidate;
          tokens = n;
        }
      }
      return Promise.resolve({ text, tokens, status: "ok", backend: "extractive" });
    },
  };
}
