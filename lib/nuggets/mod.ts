/**
 * Nugget evaluation as in the TREC 2024 RAG track (AutoNuggetizer): nugget
 * creation from a topic's relevant passages, importance labelling, assignment
 * to answers and the four nugget scores, with an offline backend (salient
 * clauses, frequency, lexical support) and a model backend (any
 * OpenAI-compatible endpoint through the LLM layer).
 *
 * @example
 * ```ts
 * import {
 *   assignNuggets, createNuggets, labelNuggets, offlineNuggetBackend, relevantPassages, scoreNuggets,
 * } from "@lib/nuggets/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const ws = await openWorkspace(await Deno.makeTempDir());
 * await importSample(ws, "datasets/sample");
 * const backend = offlineNuggetBackend();
 * const { origin } = await createNuggets(ws, await relevantPassages(ws), { backend });
 * await labelNuggets(ws, { backend, origin });
 * await assignNuggets(ws, { backend, origin });
 * await scoreNuggets(ws, { origin, judge: backend.judge });
 * ```
 *
 * @module
 */
export type * from "./types.ts";
export { offlineNuggetBackend, type OfflineNuggetOptions } from "./offline_nugget_backend.ts";
export { llmNuggetBackend, type LlmNuggetBackendOptions } from "./llm_nugget_backend.ts";
export {
  creationSources,
  type NuggetSource,
  relevantPassages,
  type RelevantPassagesOptions,
} from "./relevant_passages.ts";
export {
  createNuggets,
  type CreateNuggetsOptions,
  type CreateNuggetsResult,
} from "./create_nuggets.ts";
export {
  labelNuggets,
  type LabelNuggetsOptions,
  type LabelNuggetsResult,
} from "./label_nuggets.ts";
export {
  assignNuggets,
  type AssignNuggetsOptions,
  type AssignNuggetsResult,
} from "./assign_nuggets.ts";
export {
  NUGGET_MEASURES,
  type RunNuggetScores,
  scoreNuggets,
  type ScoreNuggetsOptions,
} from "./score_nuggets.ts";
export {
  NUGGET_COUNT_MEASURES,
  type NuggetCountMeasure,
  nuggetCountRows,
} from "./nugget_count_rows.ts";
export { importNuggets, type ImportNuggetsResult } from "./import_nuggets.ts";
export { importRagAnswers } from "./import_rag_answers.ts";
export { type ExportedNuggets, exportNuggets } from "./export_nuggets.ts";
