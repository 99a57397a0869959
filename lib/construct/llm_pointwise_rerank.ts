/**
 * Pointwise LLM reranking: a 0-3 relevance grade per passage (UMBRELA-style).
 *
 * @module
 */
import { type LlmClient, loadTemplate, parseFinalScore, renderTemplate } from "@lib/llm/mod.ts";
import type { ListwiseQuery } from "./llm_listwise_rerank.ts";

/** Per-query counts of a pointwise rerank. */
export interface PointwiseCounts {
  /** Passages graded (calls made or read from a cache). */
  calls: number;
  /** Answers without a final 0-3 grade (ranked below every graded passage). */
  unparsed: number;
  /** Failed calls (ranked below every graded passage). */
  failed: number;
  /** The first failure's reason, when any failed. */
  firstError?: string;
}

/** The reranked candidates of one query, with each passage's grade. */
export interface PointwiseRanking {
  topicId: string;
  /** Candidate ids: graded ones by grade descending (ties in first-stage order), then the rest. */
  docIds: string[];
  /** Grade of each passage; absent when unparsed or failed. */
  grades: Map<string, number>;
  counts: PointwiseCounts;
}

/** Options of {@link llmPointwiseRerank}. */
export interface LlmPointwiseOptions {
  /** The model client (its cache makes a repeated run call nothing). */
  client: LlmClient;
  /** Folder of prompt templates overriding the built-in ones. */
  templatesDir?: string;
  /** Candidates graded per query; the rest keep their order below. Default 100. */
  depth?: number;
  /** Words of each passage shown to the model. Default 300. */
  passageWords?: number;
  signal?: AbortSignal;
}

/**
 * Grades each of the top `depth` candidates of every query with the
 * `relevance` template (0-3, a final line `##final score: N`, read by
 * `parseFinalScore`), all queries in one batch of cached calls, and orders
 * them by grade descending, ties in first-stage order. A passage without a
 * grade (unparsed answer or failed call) has none stored: it is ranked below
 * the graded ones, in first-stage order, and counted.
 *
 * @param queries The queries and their candidates.
 * @param opts The client, `depth` (100) and `passageWords` (300).
 * @returns One ranking per query, in input order.
 * @throws {RangeError} On invalid options.
 * @example
 * ```ts ignore
 * // Not run as a test: it needs a model endpoint.
 * import { llmPointwiseRerank } from "@lib/construct/mod.ts";
 * import type { LlmClient } from "@lib/llm/mod.ts";
 * declare const client: LlmClient;
 * const [r] = await llmPointwiseRerank(
 *   [{ topicId: "t1", query: "bridge collapse", candidates: [{ docId: "a", text: "..." }] }],
 *   { client },
 * );
 * r.grades.get("a"); // 0-3, or undefined when the answer had no grade
 * ```
 */
export async function llmPointwiseRerank(
  queries: readonly ListwiseQuery[],
  opts: LlmPointwiseOptions,
): Promise<PointwiseRanking[]> {
  const depth = opts.depth ?? 100;
  const words = opts.passageWords ?? 300;
  for (const [name, v] of [["depth", depth], ["passageWords", words]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`Pointwise ${name} must be a positive integer, got ${v}`);
    }
  }
  const tpl = await loadTemplate("relevance", { dir: opts.templatesDir });
  const tops = queries.map((q) => q.candidates.slice(0, depth));
  const requests = queries.flatMap((q, i) =>
    tops[i].map((c) =>
      renderTemplate(tpl, {
        query: q.query,
        passage: c.text.split(/\s+/).filter(Boolean).slice(0, words).join(" "),
      }, { id: `${q.topicId}:${c.docId}` })
    )
  );
  const records = await opts.client.chatMany(requests, {
    parse: parseFinalScore,
    step: "rerank-pointwise",
    signal: opts.signal,
  });
  let at = 0;
  return queries.map((q, i) => {
    const counts: PointwiseCounts = { calls: 0, unparsed: 0, failed: 0 };
    const grades = new Map<string, number>();
    for (const c of tops[i]) {
      const rec = records[at++];
      counts.calls++;
      if (rec.status === "failed") {
        counts.failed++;
        counts.firstError ??= rec.error ?? "the call failed";
      } else if (!rec.parsed?.ok) counts.unparsed++;
      else grades.set(c.docId, rec.parsed.value);
    }
    const graded = tops[i].map((c, pos) => ({ id: c.docId, pos, g: grades.get(c.docId) }));
    const order = [
      ...graded.filter((x) => x.g !== undefined).sort((a, b) => b.g! - a.g! || a.pos - b.pos),
      ...graded.filter((x) => x.g === undefined),
    ].map((x) => x.id);
    const rest = q.candidates.slice(depth).map((c) => c.docId);
    return { topicId: q.topicId, docIds: [...order, ...rest], grades, counts };
  });
}
