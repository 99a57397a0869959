/**
 * Setwise LLM reranking (Zhuang et al. heap sort) through the model client.
 *
 * @module
 */
import { type LlmClient, loadTemplate, parseLabel, renderTemplate } from "@lib/llm/mod.ts";
import {
  type SetChoice,
  type SetwiseCounts,
  type SetwiseOptions,
  setwiseRerank,
} from "@lib/retrieval/mod.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";
import { cutPassage } from "./_passage_cut.ts";

/** The reranked candidates of one query, with its comparisons. */
export interface SetwiseRanking {
  topicId: string;
  /** Candidate ids in the new order (the selected top k, then the rest in first-stage order). */
  docIds: string[];
  counts: SetwiseCounts;
}

/** Options of {@link llmSetwiseRerank}. */
export interface LlmSetwiseOptions extends SetwiseOptions {
  /** The model client (its cache makes a repeated run call nothing). */
  client: LlmClient;
  /** Folder of prompt templates overriding the built-in ones. */
  templatesDir?: string;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
  /**
   * Llama-3.1 tokens of each passage shown to the model, instead of `passageWords`
   * (llm-rankers cuts at 128 tokens of its model). Default: cut by words.
   */
  passageTokens?: number;
  signal?: AbortSignal;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Selects each query's top `k` candidates by setwise comparisons with the
 * `rerank_setwise` template: the model names the most relevant of at most `c`
 * lettered passages (a letter, `[B]` or `Passage B`, read by `parseLabel`),
 * and heap sort (`setwiseRerank` of `@lib/retrieval`) turns the choices into a
 * ranking. An answer naming no letter of the set keeps the set's parent where
 * it is (as llm-rankers does), counted as unparsed with the comparisons per
 * query; a failed call stops nothing here (counted; `rerankRun` then stores
 * nothing). Passages are cut to `passageWords` words, or `passageTokens` tokens.
 *
 * @param queries The queries and their candidates.
 * @param opts The client, `c` (4, at most 26), `k` (10), `depth` (100), `passageWords`
 *   (300) or `passageTokens`.
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid options.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { llmSetwiseRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await llmSetwiseRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client, c: 3, k: 5 },
 * );
 * r.counts.comparisons; // 0: one candidate needs no comparison
 * ```
 */
export async function llmSetwiseRerank(
  queries: readonly ListwiseQuery[],
  opts: LlmSetwiseOptions,
): Promise<SetwiseRanking[]> {
  const words = opts.passageWords ?? 300;
  if (!Number.isInteger(words) || words < 1) {
    throw new RangeError(`passageWords must be a positive integer, got ${words}`);
  }
  if ((opts.c ?? 4) > LETTERS.length) {
    throw new RangeError(`Setwise c must be at most ${LETTERS.length}, got ${opts.c}`);
  }
  const tpl = await loadTemplate("rerank_setwise", { dir: opts.templatesDir });
  const rankOne = async (q: ListwiseQuery): Promise<SetwiseRanking> => {
    const choose = async (set: readonly { docId: string; text: string }[]): Promise<SetChoice> => {
      const labels = [...LETTERS.slice(0, set.length)];
      const passages = set.map((p, i) =>
        `Passage ${labels[i]}: ${cutPassage(p.text, { words, tokens: opts.passageTokens })}`
      ).join("\n\n");
      const request = renderTemplate(tpl, {
        query: q.query,
        passages,
        labels: `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`,
      }, { id: `${q.topicId}:${set.map((p) => p.docId).join(",")}` });
      const rec = await opts.client.chat<string>(request, {
        parse: (text) => parseLabel(text.replace(/\bpassage\s+(?=[A-Z]\b)/gi, ""), labels),
        step: "rerank-setwise",
        signal: opts.signal,
      });
      if (rec.status === "failed") return { failed: rec.error ?? "the call failed" };
      if (!rec.parsed?.ok) return { unparsed: rec.text };
      return { best: labels.indexOf(rec.parsed.value) };
    };
    const { ranked, counts } = await setwiseRerank(q.candidates, choose, {
      ...opts,
      unread: opts.unread ?? "parent",
    });
    return { topicId: q.topicId, docIds: ranked.map((c) => c.docId), counts };
  };
  return await Promise.all(queries.map(rankOne));
}
