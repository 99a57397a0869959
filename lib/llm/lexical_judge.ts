// The offline answerability judge (`lexical`): ratings 0-5 from word overlap.

import { analyze } from "@lib/text/mod.ts";
import type { AnswerabilityJudge, AnswerabilityResult } from "./types.ts";

/**
 * Lower bounds of the overlap score for ratings 5, 4, 3, 2 and 1 (below the
 * last: 0). The score is the IDF-weighted share of the question's distinct
 * analyzed terms that occur in the context, in [0, 1].
 */
export const LEXICAL_THRESHOLDS: readonly number[] = [0.85, 0.65, 0.45, 0.3, 0.15];

/** Options of {@link lexicalJudge}. */
export interface LexicalJudgeOptions {
  /** Texts to compute IDF from. Default: the distinct contexts of the pairs being rated. */
  corpus?: readonly string[];
  /** Lower bounds for ratings 5..1, descending. Default {@link LEXICAL_THRESHOLDS}. */
  thresholds?: readonly number[];
}

/** IDF table: `ln(1 + (N - df + 0.5) / (df + 0.5))`, positive for every term. */
function idfTable(texts: readonly string[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const t of texts) {
    for (const term of new Set(analyze(t))) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = texts.length;
  return (term) => Math.log(1 + (n - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
}

/**
 * Overlap score of a question with a context: sum of IDF of the question's
 * distinct terms found in the context, over the sum for all its distinct terms
 * (0 when the question has no terms).
 */
function overlap(
  question: string,
  contextTerms: ReadonlySet<string>,
  idf: (t: string) => number,
): number {
  const terms = [...new Set(analyze(question))];
  let total = 0;
  let hit = 0;
  for (const t of terms) {
    const w = idf(t);
    total += w;
    if (contextTerms.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

/**
 * The offline answerability judge (backend name `lexical`): rates each pair on
 * 0-5 from the IDF-weighted overlap of the question's analyzed terms (Lucene
 * English analysis: stop words removed, Porter stems) with the context's.
 * Score s in [0, 1] maps to a rating with {@link LEXICAL_THRESHOLDS}:
 * s >= 0.85 -> 5, >= 0.65 -> 4, >= 0.45 -> 3, >= 0.30 -> 2, >= 0.15 -> 1, else 0.
 * IDF is `ln(1 + (N - df + 0.5) / (df + 0.5))` over the given corpus, or over
 * the distinct contexts of the call. Deterministic; `raw` holds the score with
 * four decimals. Every result has status `ok`.
 *
 * @param opts Corpus and thresholds; see {@link LexicalJudgeOptions}.
 * @returns A judge with the same interface as the model-based one.
 * @throws {RangeError} When thresholds are not five descending numbers.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [r] = await lexicalJudge().rate([{ id: "1", question: "Who won the race?", context: "Ann won the race." }]);
 * assert.equal(r.rating, 1); // (score 0.2933: the rare question term "who" is not in the context)
 * ```
 */
export function lexicalJudge(opts: LexicalJudgeOptions = {}): AnswerabilityJudge {
  const thresholds = opts.thresholds ?? LEXICAL_THRESHOLDS;
  if (thresholds.length !== 5 || thresholds.some((t, i) => i > 0 && t > thresholds[i - 1])) {
    throw new RangeError(
      `Invalid thresholds [${thresholds.join(", ")}]: give five descending numbers`,
    );
  }
  const fixedIdf = opts.corpus ? idfTable(opts.corpus) : undefined;
  return {
    name: "lexical",
    rate(pairs, { onProgress, signal } = {}) {
      const contexts = [...new Set(pairs.map((p) => p.context))];
      const idf = fixedIdf ?? idfTable(contexts);
      const termsOf = new Map<string, Set<string>>();
      const started = performance.now();
      const out: AnswerabilityResult[] = [];
      for (const pair of pairs) {
        signal?.throwIfAborted();
        let terms = termsOf.get(pair.context);
        if (!terms) termsOf.set(pair.context, terms = new Set(analyze(pair.context)));
        const s = overlap(pair.question, terms, idf);
        const index = thresholds.findIndex((t) => s >= t);
        const rating = index < 0 ? 0 : 5 - index;
        out.push({ id: pair.id, rating, status: "ok", raw: s.toFixed(4), judge: "lexical" });
      }
      const elapsedMs = performance.now() - started;
      onProgress?.({
        step: "answerability",
        done: pairs.length,
        total: pairs.length,
        cached: 0,
        failed: 0,
        elapsedMs,
        rate: elapsedMs > 0 ? pairs.length / (elapsedMs / 1000) : 0,
        etaMs: 0,
      });
      return Promise.resolve(out);
    },
  };
}
