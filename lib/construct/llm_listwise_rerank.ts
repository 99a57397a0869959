/**
 * Listwise LLM reranking (RankGPT / RankZephyr sliding window) through the model client.
 *
 * @module
 */
import { type LlmClient, loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
import {
  type ListwiseCounts,
  type ListwiseOptions,
  listwiseRerank,
  parsePermutation,
  type Permutation,
  type WindowRanking,
} from "@lib/retrieval/mod.ts";

/** One query to rerank: its text and first-stage candidates, best first. */
export interface ListwiseQuery {
  topicId: string;
  query: string;
  candidates: readonly { docId: string; text: string }[];
}

/** The reranked candidates of one query, with its calls and repairs. */
export interface ListwiseRanking {
  topicId: string;
  /** Candidate ids in the new order (every candidate, reranked or not). */
  docIds: string[];
  counts: ListwiseCounts;
}

/** Options of {@link llmListwiseRerank}. */
export interface LlmListwiseOptions extends ListwiseOptions {
  /** The model client (its cache makes a repeated run call nothing). */
  client: LlmClient;
  /** Folder of prompt templates overriding the built-in ones. */
  templatesDir?: string;
  /** Words of each passage shown to the model (longer texts are cut). Default 300. */
  passageWords?: number;
  /**
   * Template id of the window prompt: `rerank_listwise` (default, RankGPT's structure),
   * `rerank_rankzephyr` or `rerank_rankvicuna` (the structures those models were
   * fine-tuned on), or any template with the placeholders `query`, `n`, `passages`.
   */
  template?: string;
  signal?: AbortSignal;
}

function shown(text: string, words: number): string {
  const list = text.split(/\s+/).filter(Boolean);
  return list.slice(0, words).join(" ");
}

/**
 * Reranks each query's candidates with the `rerank_listwise` template (or the
 * one named by `template`) over
 * sliding windows (window 20, stride 10, bottom up, `passes` times; see
 * `listwiseRerank` of `@lib/retrieval`). Each answer `[3] > [1] > ...` is read
 * by `parsePermutation`: missing identifiers are appended in input order,
 * repeats and unknown identifiers dropped, and an answer without identifiers
 * (unparsed) or a failed call keeps the window's order; all are counted per
 * query. Calls per query and pass: `ceil((N - window) / stride) + 1` for `N`
 * reranked candidates above the window, else 1. Queries run concurrently (the
 * client bounds calls in flight); the windows of one query run in order.
 *
 * @param queries The queries and their candidates.
 * @param opts The client and the window options.
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid window options.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { llmListwiseRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await llmListwiseRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client },
 * );
 * r.counts.calls; // 1
 * ```
 */
export async function llmListwiseRerank(
  queries: readonly ListwiseQuery[],
  opts: LlmListwiseOptions,
): Promise<ListwiseRanking[]> {
  const words = opts.passageWords ?? 300;
  if (!Number.isInteger(words) || words < 1) {
    throw new RangeError(`passageWords must be a positive integer, got ${words}`);
  }
  const tpl = await loadTemplate(opts.template ?? "rerank_listwise", { dir: opts.templatesDir });
  const rankOne = async (q: ListwiseQuery): Promise<ListwiseRanking> => {
    const rank = async (
      window: readonly { docId: string; text: string }[],
      at: { pass: number; start: number },
    ): Promise<WindowRanking> => {
      const n = window.length;
      const passages = window.map((c, i) => `[${i + 1}] ${shown(c.text, words)}`).join("\n");
      const request = renderTemplate(tpl, { query: q.query, n, passages }, {
        id: `${q.topicId}@${at.pass}:${at.start}`,
      });
      const rec = await opts.client.chat<Permutation>(request, {
        parse: (text) => {
          const p = parsePermutation(text, n);
          return p.parsed ? { ok: true, value: p } : {
            ok: false,
            raw: text,
            reason: "the answer states no single ranking of passage identifiers [k]",
          };
        },
        step: "rerank-listwise",
        signal: opts.signal,
      });
      if (rec.status === "failed") return { failed: rec.error ?? "the call failed" };
      return rec.parsed?.ok ? rec.parsed.value : parsePermutation(rec.text, n);
    };
    const { ranked, counts } = await listwiseRerank(q.candidates, rank, opts);
    return { topicId: q.topicId, docIds: ranked.map((c) => c.docId), counts };
  };
  return await Promise.all(queries.map(rankOne));
}
