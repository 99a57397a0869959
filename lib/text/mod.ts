/**
 * Text analysis: Lucene-compatible English analysis for BM25 (`analyze`,
 * `tokenize`, `porterStem`, `ENGLISH_STOP_WORDS`), token counting with the
 * Llama-3.1 tokenizer (`countTokens`), sentence splitting and sentence-aware
 * chunking of documents into passages (`splitSentences`, `chunkText`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { analyze, chunkText, countTokens } from "@lib/text/mod.ts";
 * assert.deepEqual(analyze("The company's running costs"), ["compani", "run", "cost"]);
 * ```
 *
 * @module
 */
export { analyze, ENGLISH_ANALYZER } from "./analyze.ts";
export { tokenize } from "./tokenize.ts";
export { porterStem } from "./porter_stem.ts";
export { ENGLISH_STOP_WORDS } from "./stop_words.ts";
export { countTokens, type CountTokensOptions } from "./count_tokens.ts";
export { splitSentences } from "./split_sentences.ts";
export { type ChunkOptions, chunkText } from "./chunk_text.ts";
export { TermEncoder } from "./term_encoder.ts";
