/**
 * Setwise LLM reranking read from the labels' log-probabilities (Zhuang et al.).
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
import { labelLogprobs, LETTERS } from "./_label_logprobs.ts";

/** Per-query counts of a setwise rerank by label log-probabilities. */
export interface SetwiseLogprobCounts extends SetwiseCounts {
  /** Comparisons decided by the labels' log-probabilities. */
  byLogprobs: number;
  /**
   * Comparisons whose answer carried no log-probabilities (the endpoint returns
   * none), decided by the generated label instead.
   */
  fallback: number;
  /** Comparisons with log-probabilities but no generated label token, decided by the generated label. */
  noLabel: number;
}

/** The reranked candidates of one query, with its comparisons and how they were decided. */
export interface SetwiseLogprobRanking {
  topicId: string;
  /** Candidate ids in the new order (the selected top k, then the rest in first-stage order). */
  docIds: string[];
  counts: SetwiseLogprobCounts;
  /** True when any comparison fell back to the generated label (no log-probabilities returned). */
  fallback: boolean;
  /** What a table shows about the fallback ("" when none). */
  note: string;
}

/** Options of {@link llmSetwiseLogprobRerank}. */
export interface LlmSetwiseLogprobOptions extends SetwiseOptions {
  /** The model client (its cache makes a repeated run call nothing). */
  client: LlmClient;
  /** Folder of prompt templates overriding the built-in ones. */
  templatesDir?: string;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
  /** Llama-3.1 tokens of each passage shown instead of `passageWords` (llm-rankers: 128). */
  passageTokens?: number;
  /** Alternatives asked per token (`top_logprobs`). Default 10. */
  topLogprobs?: number;
  signal?: AbortSignal;
}

/**
 * Selects each query's top `k` candidates by setwise comparisons (heap sort of
 * `setwiseRerank`, `@lib/retrieval`) with the `rerank_setwise` template, asking
 * `logprobs`: the most relevant passage of each set of at most `c` (3-4 as in
 * Zhuang et al. 2024) is the label with the highest log-probability at the first
 * generated token that names a label of the set. Where the answer has no
 * log-probabilities (an endpoint without support), the generated label decides
 * (as `llmSetwiseRerank` reads it) and the ranking says so (`fallback`, `note`);
 * an answer naming no label of the set, or a failed call, keeps the set's
 * parent where it is (as llm-rankers does) and is counted. `counts.comparisons`
 * is the calls per query.
 *
 * @param queries The queries and their candidates.
 * @param opts The client, `c` (4, at most 26), `k` (10), `depth` (100), `topLogprobs` (10).
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid options.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { llmSetwiseLogprobRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await llmSetwiseLogprobRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client, c: 3, k: 5 },
 * );
 * r.counts.comparisons; // 0: one candidate needs no comparison
 * ```
 */
export async function llmSetwiseLogprobRerank(
  queries: readonly ListwiseQuery[],
  opts: LlmSetwiseLogprobOptions,
): Promise<SetwiseLogprobRanking[]> {
  const words = opts.passageWords ?? 300;
  if (!Number.isInteger(words) || words < 1) {
    throw new RangeError(`passageWords must be a positive integer, got ${words}`);
  }
  if ((opts.c ?? 4) > LETTERS.length) {
    throw new RangeError(`Setwise c must be at most ${LETTERS.length}, got ${opts.c}`);
  }
  const topK = opts.topLogprobs ?? 10;
  if (!Number.isInteger(topK) || topK < 1) {
    throw new RangeError(`topLogprobs must be a positive integer, got ${topK}`);
  }
  const tpl = await loadTemplate("rerank_setwise", { dir: opts.templatesDir });
  const rankOne = async (q: ListwiseQuery): Promise<SetwiseLogprobRanking> => {
    const extra = { byLogprobs: 0, fallback: 0, noLabel: 0 };
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
      // No parser: the answer is read by its log-probabilities or else its label,
      // and kept either way, so a re-run asks nothing again.
      const rec = await opts.client.chat({ ...request, logprobs: topK }, {
        step: "rerank-setwise-logprobs",
        signal: opts.signal,
      });
      if (rec.status === "failed") return { failed: rec.error ?? "the call failed" };
      const scores = rec.logprobs ? labelLogprobs(rec.logprobs, labels) : undefined;
      if (scores && scores.size > 0) {
        extra.byLogprobs++;
        let best = -1;
        labels.forEach((l, i) => {
          const s = scores.get(l);
          if (s !== undefined && (best < 0 || s > scores.get(labels[best])!)) best = i;
        });
        return { best };
      }
      if (rec.logprobs) extra.noLabel++;
      else extra.fallback++;
      const label = parseLabel(rec.text.replace(/\bpassage\s+(?=[A-Z]\b)/gi, ""), labels);
      return label.ok ? { best: labels.indexOf(label.value) } : { unparsed: rec.text };
    };
    const { ranked, counts } = await setwiseRerank(q.candidates, choose, {
      ...opts,
      unread: opts.unread ?? "parent",
    });
    const all: SetwiseLogprobCounts = { ...counts, ...extra };
    return {
      topicId: q.topicId,
      docIds: ranked.map((c) => c.docId),
      counts: all,
      fallback: all.fallback > 0,
      note: all.fallback === 0 ? "" : `setwise by label log-probabilities fell back to the ` +
        `generated label in ${all.fallback} of ${all.comparisons} comparison(s): the endpoint ` +
        `returned no log-probabilities`,
    };
  };
  return await Promise.all(queries.map(rankOne));
}
