/** Lexical, embedding-MMR and LLM reranking of one run's rankings (private to `rerankRun`). */
import { type LlmClient, openAiEmbedder } from "@lib/llm/mod.ts";
import { embeddingMmr, lexicalRerank } from "@lib/retrieval/mod.ts";
import type { RunRow } from "@lib/types/mod.ts";
import { type ListwiseQuery, llmListwiseRerank } from "./llm_listwise_rerank.ts";
import { llmSetwiseRerank } from "./llm_setwise_rerank.ts";
import { llmFirstTokenRerank } from "./llm_first_token_rerank.ts";
import { llmSetwiseLogprobRerank } from "./llm_setwise_logprob_rerank.ts";
import { llmPointwiseRerank } from "./llm_pointwise_rerank.ts";
import type { ListwiseRerankConfig, RerankConfig } from "./rerank_run.ts";
import { contextRows, rankings } from "./run_rankings.ts";

/** What the private rerankers need from the workspace. */
export interface RerankInputs {
  source: readonly RunRow[];
  texts: ReadonlyMap<string, string>;
  /** Topic id -> request. */
  requests: ReadonlyMap<string, string>;
  /** Topic id -> sub-question texts (lexical expansion). */
  subquestions: ReadonlyMap<string, readonly string[]>;
}

/** Reranked rows and the per-method counts summed over topics. */
export interface RerankOutput {
  rows: RunRow[];
  counts: Record<string, number>;
}

/** The queries of a run: each topic's request and its top `depth` candidates. */
function queriesOf(inputs: RerankInputs, depth: number): ListwiseQuery[] {
  return [...rankings(inputs.source)].map(([topicId, ids]) => ({
    topicId,
    query: inputs.requests.get(topicId) ?? "",
    candidates: ids.slice(0, depth).map((docId) => ({
      docId,
      text: inputs.texts.get(docId) ?? "",
    })),
  }));
}

function sum(into: Record<string, number>, counts: object): void {
  for (const [k, v] of Object.entries(counts)) {
    if (typeof v === "number") into[k] = (into[k] ?? 0) + v;
  }
}

/**
 * Reranks with the offline lexical stand-in, MMR over endpoint vectors, or an
 * LLM reranker (listwise, first-token, setwise, setwise-logprobs, pointwise);
 * every topic's top `depth`
 * (default 50) is written with scores `depth - i`. A failed model call stops
 * the run (nothing stored; the answered calls are cached for the re-run).
 *
 * @throws {Error} When a model call failed, naming the run, topic and reason.
 */
export async function modelRerankRows(
  inputs: RerankInputs,
  cfg: Exclude<RerankConfig, { method: "endpoint" }>,
  opts: { client?: LlmClient; templatesDir?: string; signal?: AbortSignal },
): Promise<RerankOutput> {
  const depth = cfg.depth ?? 50;
  const queries = queriesOf(inputs, depth);
  const counts: Record<string, number> = {};
  const write = (ordered: { topicId: string; docIds: readonly string[] }[]): RerankOutput => ({
    rows: ordered.flatMap((r) => contextRows(cfg.name, r.topicId, r.docIds)),
    counts,
  });
  if (cfg.method === "lexical") {
    let without = 0;
    const out = queries.map((q) => {
      const expansions = inputs.subquestions.get(q.topicId) ?? [];
      if (!expansions.length) without++;
      const picks = lexicalRerank(q.query, expansions, q.candidates, { k1: cfg.k1, b: cfg.b });
      return { topicId: q.topicId, docIds: picks.map((p) => p.docId) };
    });
    counts.withoutSubquestions = without;
    return write(out);
  }
  const client = opts.client;
  if (!client) {
    throw new TypeError(
      `Cannot rerank "${cfg.from}" into "${cfg.name}" with method "${cfg.method}": no model client; ` +
        `pass \`client\` (the ${cfg.method === "mmr" ? "embedder" : "reranker"} role)`,
    );
  }
  if (cfg.method === "mmr") {
    const scores = new Map(inputs.source.map((r) => [`${r.topicId}\u0000${r.docId}`, r.score]));
    const embedder = openAiEmbedder(client);
    const out = [];
    for (const q of queries) {
      const hits = q.candidates.map((c) => ({
        ...c,
        score: scores.get(`${q.topicId}\u0000${c.docId}`)!,
      }));
      const picks = await embeddingMmr(hits, embedder, { lambda: cfg.lambda ?? 0.5 });
      out.push({ topicId: q.topicId, docIds: picks.map((p) => p.docId) });
    }
    return write(out);
  }
  const common = {
    client,
    templatesDir: opts.templatesDir,
    passageWords: cfg.passageWords,
    signal: opts.signal,
  };
  const windows = (c: ListwiseRerankConfig) => ({
    window: c.window,
    stride: c.stride,
    passes: c.passes,
    depth,
    template: c.template,
  });
  const results = cfg.method === "listwise"
    ? await llmListwiseRerank(queries, { ...common, ...windows(cfg) })
    : cfg.method === "first-token"
    ? await llmFirstTokenRerank(queries, { ...common, ...windows(cfg) })
    : cfg.method === "setwise"
    ? await llmSetwiseRerank(queries, {
      ...common,
      c: cfg.c,
      k: cfg.k,
      depth,
      passageTokens: cfg.passageTokens,
    })
    : cfg.method === "setwise-logprobs"
    ? await llmSetwiseLogprobRerank(queries, {
      ...common,
      c: cfg.c,
      k: cfg.k,
      depth,
      passageTokens: cfg.passageTokens,
    })
    : await llmPointwiseRerank(queries, { ...common, depth });
  for (const r of results) sum(counts, r.counts);
  const failed = results.find((r) => r.counts.failed > 0);
  if (failed) {
    throw new Error(
      `Stage rerank, run "${cfg.name}" (from "${cfg.from}", method "${cfg.method}"): ${counts.failed} ` +
        `model call(s) failed (first: topic "${failed.topicId}": ${failed.counts.firstError}); ` +
        `nothing stored. Answered calls are cached: fix the reranker endpoint and run again`,
    );
  }
  return write(results);
}
