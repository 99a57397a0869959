/**
 * The context measures the analyses compare, as the measure step stores them:
 * their keys, measure strings and `source` labels, the name of the oracle
 * context, and the one computation of context values ({@linkcode scoreContexts}).
 *
 * @module
 */
import {
  CRUX_DEFAULTS,
  type EvaluationResult,
  formatMeasure,
  type JudgedInputs,
  prepareJudged,
} from "@lib/metrics/mod.ts";
import { contextRows } from "@lib/construct/mod.ts";
import type { MetricRow } from "@lib/types/mod.ts";
import { evaluateAvailable } from "./evaluate_available.ts";

/** A context measure of the analyses by key, as an ir_measures name with parameters. */
export const CONTEXT_MEASURES = {
  covZ: "Cov",
  andcg: "alpha_nDCG",
  denZ: "Den",
  recall: "R(rel=3)",
  map: "AP(rel=3)",
  ndcg: "nDCG",
  precision: "P(rel=3)",
} as const;

/** A context measure key of the analyses. */
export type ContextKey = keyof typeof CONTEXT_MEASURES;

/** The measure string of a key at a cutoff (`Den(w=...)` when w is not the default). */
export function contextMeasure(key: ContextKey, cutoff: number | "oracle", w: number): string {
  return key === "denZ"
    ? formatMeasure({ name: "Den", params: { w }, cutoff })
    : `${CONTEXT_MEASURES[key]}@${cutoff}`;
}

/**
 * The `source` of stored context values: `contexts(tau=X)` for the contexts of
 * generation runs, `ranking(tau=X)` for the top-k of retrieval runs (relevance
 * and P* from the selection, sub-questions as subtopics at X).
 */
export function contextSource(kind: "contexts" | "ranking", tau: number): string {
  return `${kind}(tau=${tau})`;
}

/** One context to score: a name (generation or retrieval run), a topic and passage ids in rank order. */
export interface ContextSpec {
  name: string;
  topicId: string;
  ids: readonly string[];
}

/**
 * Per-topic values of context measures (rows: `run` = context name, `measure` =
 * key), the one computation of context values for the analyses: the evaluator
 * over the given contexts, `cutoff` for every measure (`oracle` = |P*|),
 * sub-questions as subtopics at `tau` (diversity qrels are not read), density
 * left out of every context when one holds a passage without a token count.
 *
 * @param inputs Judged inputs (ratings, the selection's qrels, token counts).
 * @param contexts The contexts.
 * @param opts Keys, cutoff, tau and w.
 * @returns Per-topic rows keyed by context name and key, and the density note (if left out).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreContexts } from "@lib/pipeline/mod.ts";
 * const inputs = {
 *   judgments: [{ topicId: "t", itemId: "t:0#0", ratings: [4, 0] }],
 *   qrels: [{ topicId: "t", docId: "t:0#0", grade: 3 }],
 * };
 * assert.deepEqual(scoreContexts(inputs, [{ name: "a", topicId: "t", ids: ["t:0#0"] }], {
 *   keys: ["covZ"], cutoff: "oracle", tau: 3,
 * }).rows, [{ run: "a", topicId: "t", measure: "covZ", value: 1 }]);
 * ```
 */
export function scoreContexts(
  inputs: JudgedInputs,
  contexts: readonly ContextSpec[],
  opts: { keys: readonly ContextKey[]; cutoff: number | "oracle"; tau: number; w?: number },
): { rows: MetricRow[]; leftOut?: string; result?: EvaluationResult } {
  if (contexts.length === 0) return { rows: [] };
  const run = contexts.flatMap((c) => contextRows(c.name, c.topicId, c.ids));
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const measures = opts.keys.map((k) => contextKeyMeasure(k, opts.cutoff, w));
  const { diversityQrels: _, ...plain } = inputs;
  const judged = prepareJudged(plain, { tau: opts.tau });
  const { result, kept, leftOut } = evaluateAvailable(run, measures, judged, { tau: opts.tau });
  const keys = kept.map((m) => opts.keys[measures.indexOf(m)]);
  const keyOf = new Map(result.measures.map((m, i) => [m, keys[i]]));
  return {
    rows: result.perTopic.map((r) => ({ ...r, measure: keyOf.get(r.measure)! })),
    leftOut,
    result,
  };
}

/** Run name of the oracle context P* (in qrels order) among the stored context values. */
export const ORACLE_CONTEXT = "P*";

const RPREC = "RPrec(rel=3)";

/**
 * The measure string of a key, as the measure step stores it: `rprec` is
 * R-precision over required passages (no cutoff), every other key is
 * {@linkcode contextMeasure}'s string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextKeyMeasure } from "@lib/pipeline/mod.ts";
 * assert.equal(contextKeyMeasure("rprec", 10, 1), "RPrec(rel=3)");
 * assert.equal(contextKeyMeasure("covZ", 10, 1), "Cov@10");
 * ```
 */
export function contextKeyMeasure(
  key: ContextKey | "rprec",
  cutoff: number | "oracle",
  w: number,
): string {
  return key === "rprec" ? RPREC : contextMeasure(key, cutoff, w);
}
