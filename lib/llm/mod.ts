/**
 * The LLM layer: one client for every model call (chat, embeddings, rerank,
 * score) with bounded concurrency, retries with backoff, rate limits, timeouts,
 * cancellation and a durable cache/trace in the workspace table `llm_calls`;
 * versioned prompt templates; parsers for every protocol's output; offline
 * backends with the same interfaces (lexical judge, extractive generator,
 * chunker, TF-IDF embedder); OpenAI Batch export/import; usage and cost
 * summaries; progress renderers for terminals and notebooks.
 *
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { LlmClient, llmAnswerabilityJudge, openCallCache, resolveRoleConfig } from "@lib/llm/mod.ts";
 * const dir = await Deno.makeTempDir(); // e.g. "outputs/<experiment>"
 * const { cache, close } = await openCallCache(dir);
 * const client = new LlmClient({ ...resolveRoleConfig("judge"), cache });
 * const results = await llmAnswerabilityJudge(client).rate([{ id: "1", question: "Who won?", context: "Ann won." }]);
 * await close();
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export { cacheKey, type KeyParts } from "./cache_key.ts";
export {
  CallCache,
  type CallCacheOptions,
  type CallStatsRow,
  type CallStatus,
  type StoredCall,
} from "./call_cache.ts";
export { JOURNAL_FILE, openCallCache, type OpenedCallCache } from "./open_call_cache.ts";
export { LlmClient } from "./llm_client.ts";
export { ClientLimits, type ClientLimitSettings } from "./client_limits.ts";
export { BatchCollector, type CollectedRequest, EXPORTED_NOTE } from "./batch_collector.ts";
export { type CollectedExport, exportCollected } from "./export_collected.ts";
export type { ChatManyOptions, LlmClientOptions } from "./client_options.ts";
export {
  DEFAULT_BASE_URL,
  type LlmSettings,
  type ModelPrice,
  type ResolvedRole,
  resolveRoleConfig,
  type RoleOverrides,
  type RoleSettings,
} from "./llm_config.ts";
export { parseTemplate, type PromptTemplate } from "./parse_template.ts";
export { BUILTIN_PROMPTS, loadTemplate } from "./load_template.ts";
export { parsePromptFlags, promptSet, readPromptFile } from "./prompt_files.ts";
export { renderTemplate } from "./render_template.ts";
export { parseRating, parseScale } from "./parse_rating.ts";
export { parseTagged } from "./parse_tagged.ts";
export { type JsonValueOptions, parseJsonValue } from "./parse_json_value.ts";
export { parseLabels } from "./parse_labels.ts";
export { type StatedLabels, statedLabels } from "./stated_labels.ts";
export { statedList } from "./stated_list.ts";
export { parseLabel } from "./parse_label.ts";
export { matchLabel } from "./match_label.ts";
export { plainAnswer } from "./plain_answer.ts";
export { finalAnswer, readingFinalAnswer } from "./final_answer.ts";
export { revision } from "./revision.ts";
export { parseFinalScore } from "./parse_final_score.ts";
export { type ParsedVerdict, parseVerdict } from "./parse_verdict.ts";
export { LEXICAL_THRESHOLDS, lexicalJudge, type LexicalJudgeOptions } from "./lexical_judge.ts";
export { llmAnswerabilityJudge, type LlmAnswerabilityOptions } from "./llm_answerability_judge.ts";
export { parseAnswerabilityPairs } from "./parse_answerability_pairs.ts";
export { summarizeUsage, type UsageSummary } from "./summarize_usage.ts";
export { formatProgress, terminalProgress } from "./terminal_progress.ts";
export { clockIn, formatDuration } from "./_progress_line.ts";
export { type DisplaySink, notebookProgress, type TextMimeBundle } from "./notebook_progress.ts";
export { type BatchExport, exportBatch } from "./export_batch.ts";
export { type BatchImport, importBatch } from "./import_batch.ts";
export { answerabilityRequests } from "./answerability_requests.ts";
export { openAiEmbedder } from "./openai_embedder.ts";
export { extractiveGenerator } from "./extractive_generator.ts";
export { llmGenerator } from "./llm_generator.ts";
export { chunkSplitter } from "./chunk_splitter.ts";
export { llmPassageSplitter } from "./llm_passage_splitter.ts";
export { ProgressParts } from "./progress_parts.ts";
