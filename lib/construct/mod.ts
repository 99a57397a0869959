/**
 * CRUX dataset construction (Ju et al., 2025): from topics with source
 * documents and human summaries to decontextualised passages, report requests,
 * sub-questions, the full answerability rating matrix, the required subset P*
 * with CRUX qrels and diversity qrels, the pooled corpus and dataset statistics.
 * Every workspace step skips work already done and caches its model calls, so
 * it can be interrupted and re-run; offline backends (chunker, lexical judge)
 * run with no model service. {@link runExperiment} chains a whole experiment.
 *
 * @example
 * ```ts
 * import { buildPassages, rateTopics, selectRequired } from "@lib/construct/mod.ts";
 * import { lexicalJudge } from "@lib/llm/mod.ts";
 * import { importSample, openWorkspace } from "@lib/store/mod.ts";
 * const dir = await Deno.makeTempDir();
 * const ws = await openWorkspace(dir);
 * await importSample(ws, "datasets/sample");
 * await buildPassages(ws);                         // offline chunker
 * await rateTopics(ws, { judge: lexicalJudge() });
 * const sel = await selectRequired(ws, { tau: 3, judge: "lexical" }); // qrels crux_pr + crux_div
 * ws.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export { type ConstructStep, type StepOptions, type StepSummary } from "./types.ts";
export { splitDocument, type SplitDocumentOptions } from "./split_document.ts";
export { type DocumentPassages, numberPassages } from "./number_passages.ts";
export { passageOrdinal } from "@lib/store/mod.ts";
export { buildPassages, type BuildPassagesOptions } from "./build_passages.ts";
export { buildRequests, type BuildRequestsOptions } from "./build_requests.ts";
export { buildQuestions, type BuildQuestionsOptions } from "./build_questions.ts";
export { subquestionCount } from "./subquestion_count.ts";
export { rateTopics, type RateTopicsOptions } from "./rate_topics.ts";
export { type SelectionMatrix, selectTopic, type TopicSelection } from "./select_topic.ts";
export {
  selectRequired,
  type SelectRequiredOptions,
  type SelectSummary,
} from "./select_required.ts";
export { type JudgmentSelection, selectFromJudgments } from "./select_from_judgments.ts";
export { poolCorpus, type PoolCorpusOptions, type PoolCorpusResult } from "./pool_corpus.ts";
export { datasetStats, type DatasetStatsInput, type DatasetStatsRow } from "./dataset_stats.ts";
export { workspaceStats } from "./workspace_stats.ts";
export {
  type Bm25RetrievalConfig,
  type DenseRetrievalConfig,
  type FileRetrievalConfig,
  type FusionRetrievalConfig,
  type RetrievalConfig,
  retrieveRun,
  type RetrieveRunOptions,
} from "./retrieve_run.ts";
export { workspaceLexicalJudge } from "./workspace_lexical_judge.ts";
export { type RoleClient, roleClient, roleJudge } from "./role_client.ts";
export {
  type EndpointRerankConfig,
  type LexicalRerankConfig,
  type ListwiseRerankConfig,
  type MmrRerankConfig,
  type PointwiseRerankConfig,
  type RerankConfig,
  rerankRole,
  rerankRun,
  type RerankRunOptions,
  type RerankSummary,
  type RerankUsage,
  type SetwiseRerankConfig,
} from "./rerank_run.ts";
export { contextRows, rankings } from "./run_rankings.ts";
export {
  type EndpointPointwiseOptions,
  type EndpointPointwiseRanking,
  endpointPointwiseRerank,
} from "./endpoint_pointwise_rerank.ts";
export {
  type ListwiseQuery,
  type ListwiseRanking,
  type LlmListwiseOptions,
  llmListwiseRerank,
} from "./llm_listwise_rerank.ts";
export {
  type LlmSetwiseOptions,
  llmSetwiseRerank,
  type SetwiseRanking,
} from "./llm_setwise_rerank.ts";
export {
  type LlmPointwiseOptions,
  llmPointwiseRerank,
  type PointwiseCounts,
  type PointwiseRanking,
} from "./llm_pointwise_rerank.ts";
export {
  type FirstTokenCounts,
  type FirstTokenRanking,
  type LlmFirstTokenOptions,
  llmFirstTokenRerank,
} from "./llm_first_token_rerank.ts";
export {
  type LlmSetwiseLogprobOptions,
  llmSetwiseLogprobRerank,
  type SetwiseLogprobCounts,
  type SetwiseLogprobRanking,
} from "./llm_setwise_logprob_rerank.ts";
