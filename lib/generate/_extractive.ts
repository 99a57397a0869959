/**
 * Offline generator used until (or unless) the LLM layer provides one:
 * sentences of the context in rank order, whole sentences only, until the next
 * sentence would pass the token budget.
 */
import type { Generator } from "@lib/llm/mod.ts";
import { countTokens, splitSentences } from "@lib/text/mod.ts";

export function extractiveFallback(
  opts: { tokenizer?: "llama3.1" | "whitespace" } = {},
): Generator {
  return {
    name: "extractive",
    generate(input) {
      const picked: string[] = [];
      let used = 0;
      outer: for (const context of input.contexts) {
        for (const sentence of splitSentences(context)) {
          const s = sentence.trim();
          if (!s) continue;
          const n = countTokens((picked.length ? " " : "") + s, opts);
          if (used + n > input.maxTokens) break outer;
          picked.push(s);
          used += n;
        }
      }
      const text = picked.join(" ");
      return Promise.resolve({
        text,
        tokens: countTokens(text, opts),
        status: "ok",
        backend: "extractive",
      });
    },
  };
}
