/**
 * First-token listwise LLM reranking (FIRST / RankFirst style) over sliding windows.
 *
 * @module
 */
import { type LlmClient, loadTemplate, renderTemplate } from "@lib/llm/mod.ts";
import {
  type ListwiseCounts,
  type ListwiseOptions,
  listwiseRerank,
  parsePermutation,
  type WindowRanking,
} from "@lib/retrieval/mod.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";
import { labelLogprobs, LETTERS, lettersToNumbers } from "./_label_logprobs.ts";

/** Per-query counts of a first-token rerank: the listwise counts and how each window was read. */
export interface FirstTokenCounts extends ListwiseCounts {
  /** Windows ordered by the first generated label's log-probabilities. */
  byLogprobs: number;
  /**
   * Windows whose answer carried no log-probabilities (the endpoint returns none),
   * ordered by the generated permutation instead.
   */
  fallback: number;
  /** Windows with log-probabilities but no generated label token, ordered by the generated permutation. */
  noLabel: number;
  /**
   * Labels of windows read by log-probabilities that were not among the returned
   * alternatives: placed below the scored ones, in the order the answer names them.
   */
  unscored: number;
}

/** The reranked candidates of one query, with its calls and how they were read. */
export interface FirstTokenRanking {
  topicId: string;
  /** Candidate ids in the new order (every candidate, reranked or not). */
  docIds: string[];
  counts: FirstTokenCounts;
  /** True when any window fell back to the full permutation (no log-probabilities returned). */
  fallback: boolean;
  /** What a table shows about the fallback ("" when none). */
  note: string;
}

/** Options of {@link llmFirstTokenRerank}. */
export interface LlmFirstTokenOptions extends ListwiseOptions {
  /** The model client (its cache makes a repeated run call nothing). */
  client: LlmClient;
  /** Folder of prompt templates overriding the built-in ones. */
  templatesDir?: string;
  /** Words of each passage shown to the model (longer texts are cut). Default 300. */
  passageWords?: number;
  /** Alternatives asked per token (`top_logprobs`). Default: the window size, at most 20. */
  topLogprobs?: number;
  signal?: AbortSignal;
}

/** The window's order from the first label's log-probabilities, unscored labels by the text. */
function orderByLogprobs(
  scores: Map<string, number>,
  labels: readonly string[],
  text: string,
): { order: number[]; unscored: number } {
  const scored = labels.map((l, i) => ({ i, s: scores.get(l) }))
    .filter((x): x is { i: number; s: number } => x.s !== undefined)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.i);
  const inText = parsePermutation(lettersToNumbers(text), labels.length).order;
  const taken = new Set(scored);
  const rest = inText.filter((i) => !taken.has(i));
  return { order: [...scored, ...rest], unscored: rest.length };
}

/** The fallback note of a query's counts ("" when no window fell back). */
function noteOf(c: FirstTokenCounts): string {
  if (c.fallback === 0) return "";
  return `first-token listwise fell back to the generated permutation in ${c.fallback} of ` +
    `${c.calls} window(s): the endpoint returned no log-probabilities`;
}

/**
 * Reranks each query's candidates by the first generated label (FIRST, Reddy et
 * al. 2024): one call per window of the `rerank_first` template (lettered
 * passages `[A]`..), asking `logprobs` with `top_logprobs` alternatives. The
 * window is ordered by the log-probabilities of the labels at the answer's
 * first label token, which must follow an opening `[` as the template asks;
 * labels not among the alternatives follow in the order the answer names them,
 * then in input order (counted as `unscored`). An answer with log-probabilities
 * that does not open with a label (prose) is read by its text (counted as
 * `noLabel`). Where the answer carries no readable log-probabilities (an
 * endpoint without support) the whole generated line is read as a permutation,
 * as `llmListwiseRerank` does (repairs counted), and the ranking says so
 * (`fallback`, `note`). Windows as in `listwiseRerank` of `@lib/retrieval`
 * (window 20, stride 10, bottom up, `passes` times), so calls per query and
 * pass are `ceil((N - window) / stride) + 1` (1 when `N <= window`).
 *
 * @param queries The queries and their candidates.
 * @param opts The client, the window options and `topLogprobs`.
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid options (a window above 26 passages cannot be lettered).
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { llmFirstTokenRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await llmFirstTokenRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client },
 * );
 * r.fallback; // true when the endpoint returned no log-probabilities
 * ```
 */
export async function llmFirstTokenRerank(
  queries: readonly ListwiseQuery[],
  opts: LlmFirstTokenOptions,
): Promise<FirstTokenRanking[]> {
  const words = opts.passageWords ?? 300;
  if (!Number.isInteger(words) || words < 1) {
    throw new RangeError(`passageWords must be a positive integer, got ${words}`);
  }
  const size = opts.window ?? 20;
  if (size > LETTERS.length) {
    throw new RangeError(
      `First-token listwise window must be at most ${LETTERS.length} (passages are lettered), got ${size}`,
    );
  }
  const topK = opts.topLogprobs ?? Math.min(20, size);
  if (!Number.isInteger(topK) || topK < 1) {
    throw new RangeError(`topLogprobs must be a positive integer, got ${topK}`);
  }
  const tpl = await loadTemplate("rerank_first", { dir: opts.templatesDir });
  const rankOne = async (q: ListwiseQuery): Promise<FirstTokenRanking> => {
    const extra = { byLogprobs: 0, fallback: 0, noLabel: 0, unscored: 0 };
    const rank = async (
      window: readonly { docId: string; text: string }[],
      at: { pass: number; start: number },
    ): Promise<WindowRanking> => {
      const n = window.length;
      const labels = [...LETTERS.slice(0, n)];
      const passages = window.map((c, i) =>
        `[${labels[i]}] ${c.text.split(/\s+/).filter(Boolean).slice(0, words).join(" ")}`
      ).join("\n");
      const request = renderTemplate(tpl, { query: q.query, n, last: labels[n - 1], passages }, {
        id: `${q.topicId}@${at.pass}:${at.start}`,
      });
      // No parser: an answer is read by its log-probabilities or else its text, and
      // is kept either way (a label-only answer is a good first-token answer), so a
      // re-run asks nothing again.
      const rec = await opts.client.chat({ ...request, logprobs: topK }, {
        step: "rerank-first-token",
        signal: opts.signal,
      });
      if (rec.status === "failed") return { failed: rec.error ?? "the call failed" };
      const scores = rec.logprobs
        ? labelLogprobs(rec.logprobs, labels, { bracketed: true })
        : undefined;
      if (scores && scores.size > 0) {
        extra.byLogprobs++;
        const { order, unscored } = orderByLogprobs(scores, labels, rec.text);
        extra.unscored += unscored;
        return { order, parsed: true, missing: 0, repeated: 0, unknown: 0 };
      }
      if (rec.logprobs) extra.noLabel++;
      else extra.fallback++;
      return parsePermutation(lettersToNumbers(rec.text), n);
    };
    const { ranked, counts } = await listwiseRerank(q.candidates, rank, opts);
    const all: FirstTokenCounts = { ...counts, ...extra };
    return {
      topicId: q.topicId,
      docIds: ranked.map((c) => c.docId),
      counts: all,
      fallback: all.fallback > 0,
      note: noteOf(all),
    };
  };
  return await Promise.all(queries.map(rankOne));
}
