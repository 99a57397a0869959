/**
 * First-token listwise LLM reranking (FIRST, Reddy et al. 2024) over sliding
 * windows: one generated token per window, ordered by the labels'
 * log-probabilities at that token.
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
   * Windows whose one-token answer carried no log-probabilities (the endpoint returns
   * none): asked again for the whole permutation (a second call), ordered by it.
   */
  fallback: number;
  /** Windows with log-probabilities whose token is no label: kept in window order. */
  noLabel: number;
  /**
   * Labels of windows read by log-probabilities that were not among the returned
   * alternatives: placed below the scored ones, in window order.
   */
  unscored: number;
}

/** The reranked candidates of one query, with its calls and how they were read. */
export interface FirstTokenRanking {
  topicId: string;
  /** Candidate ids in the new order (every candidate, reranked or not). */
  docIds: string[];
  counts: FirstTokenCounts;
  /**
   * True when any window fell back to the full permutation (no log-probabilities
   * returned): the ranking is then not FIRST's, and says so in `note`.
   */
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
  /**
   * Template id of the window prompt (placeholders `query`, `n`, `last`, `passages`;
   * lettered passages). Default `rerank_first`.
   */
  template?: string;
  /** Alternatives asked per token (`top_logprobs`). Default: the window size, at most 20. */
  topLogprobs?: number;
  /**
   * Output tokens of the fallback call that asks for the whole permutation when the
   * endpoint returns no log-probabilities. Default 200.
   */
  fallbackTokens?: number;
  signal?: AbortSignal;
}

/** The window's order from the label log-probabilities; unscored labels follow in window order. */
function orderByLogprobs(
  scores: Map<string, number>,
  labels: readonly string[],
): { order: number[]; unscored: number } {
  const scored = labels.map((l, i) => ({ i, s: scores.get(l) }))
    .filter((x): x is { i: number; s: number } => x.s !== undefined)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.i);
  const taken = new Set(scored);
  const rest = labels.map((_, i) => i).filter((i) => !taken.has(i));
  return { order: [...scored, ...rest], unscored: rest.length };
}

/** The fallback note of a query's counts ("" when no window fell back). */
function noteOf(c: FirstTokenCounts): string {
  if (c.fallback === 0) return "";
  return `first-token listwise fell back to the generated permutation in ${c.fallback} of ` +
    `${c.calls} window(s): the endpoint returned no log-probabilities (a second call per ` +
    `window asked for the whole permutation)`;
}

/**
 * Reranks each query's candidates by the first generated label (FIRST, Reddy et
 * al. 2024): one call per window of the `rerank_first` template (lettered
 * passages `[A]`.., labels A-T for a window of 20) asking for one output token
 * (`max_tokens` 1) with `logprobs` and `top_logprobs` alternatives, so a call
 * costs one output token. The window is ordered by the log-probabilities of
 * the labels at that token (` B` and `B` are one label); labels not among the
 * alternatives follow in window order (counted as `unscored`). A token that
 * names no label keeps the window's order (counted as `noLabel`, unparsed).
 * Where the answer carries no log-probabilities (an endpoint without support),
 * the window is asked again, with `fallbackTokens` output tokens, for the whole
 * permutation, read as `llmListwiseRerank` reads it (repairs counted), and the
 * ranking says so (`fallback`, `note`). Windows as in `listwiseRerank` of
 * `@lib/retrieval` (window 20, stride 10, bottom up, `passes` times), so calls
 * per query and pass are `ceil((N - window) / stride) + 1` (1 when
 * `N <= window`), plus one per fallen-back window.
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
  const fallbackTokens = opts.fallbackTokens ?? 200;
  if (!Number.isInteger(fallbackTokens) || fallbackTokens < 1) {
    throw new RangeError(`fallbackTokens must be a positive integer, got ${fallbackTokens}`);
  }
  const tpl = await loadTemplate(opts.template ?? "rerank_first", { dir: opts.templatesDir });
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
      const values = { query: q.query, n, last: labels[n - 1], passages };
      const id = `${q.topicId}@${at.pass}:${at.start}`;
      // One output token, whatever the template says: FIRST reads only the first.
      const request = renderTemplate(tpl, values, { id, params: { maxTokens: 1 } });
      // No parser: an answer is read by its log-probabilities and kept either way,
      // so a re-run asks nothing again.
      const rec = await opts.client.chat({ ...request, logprobs: topK }, {
        step: "rerank-first-token",
        signal: opts.signal,
      });
      if (rec.status === "failed") return { failed: rec.error ?? "the call failed" };
      if (rec.logprobs) {
        const scores = labelLogprobs(rec.logprobs, labels);
        if (!scores || scores.size === 0) {
          extra.noLabel++;
          return parsePermutation("", n);
        }
        extra.byLogprobs++;
        const { order, unscored } = orderByLogprobs(scores, labels);
        extra.unscored += unscored;
        return { order, parsed: true, missing: 0, repeated: 0, unknown: 0 };
      }
      // No log-probabilities: the whole permutation, in a second call.
      extra.fallback++;
      const whole = renderTemplate(tpl, values, { id, params: { maxTokens: fallbackTokens } });
      const again = await opts.client.chat(whole, {
        step: "rerank-first-token-fallback",
        signal: opts.signal,
      });
      if (again.status === "failed") return { failed: again.error ?? "the call failed" };
      return parsePermutation(lettersToNumbers(again.text), n);
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
