/**
 * Labels, P* and answerable sets of the analyses (private). The tables of
 * conditions score nothing: every value they show is a row of the measure
 * table; the context scoring below builds stored rows for hand-built test data.
 */
import {
  answerableQuestions,
  type JudgedInputs,
  oracleSets as qrelsOracleSets,
} from "@lib/metrics/mod.ts";
import {
  type ContextKey,
  type ContextSpec,
  MissingTokensError,
  scoreContexts as measureStepScores,
} from "@lib/pipeline/mod.ts";
import type { MetricRow } from "@lib/types/mod.ts";
import type { CruxData } from "./types.ts";

/** Context measures by analysis key (declared with the measure step). */
export { CONTEXT_MEASURES, type ContextKey, type ContextSpec } from "@lib/pipeline/mod.ts";

/** Display labels of every measure key. */
export const LABELS: Record<string, string> = {
  covZ: "Cov(Z)",
  andcg: "α-nDCG",
  covY: "Cov(y)",
  denZ: "Den(Z)",
  denY: "Den(y)",
  recall: "Recall",
  map: "MAP",
  ndcg: "nDCG",
  precision: "Precision",
};

/** P* of every topic (qrels grade 3, plain qrels only). */
export function dataOracleSets(data: CruxData): Map<string, string[]> {
  return qrelsOracleSets(data.qrels);
}

/** Answerable sub-questions A(tau) of every topic: those some passage of P* rates >= tau. */
export function answerableSets(data: CruxData, tau: number): Map<string, string[]> {
  const oracle = dataOracleSets(data);
  const rows = new Map(data.passageRatings.map((r) => [r.itemId, r.ratings]));
  const out = new Map<string, string[]>();
  for (const [topicId, ids] of oracle) {
    const qs = data.questions.get(topicId) ?? [];
    const mask = answerableQuestions(ids.map((p) => rows.get(p)), qs.length, { tau });
    out.set(topicId, qs.filter((_, q) => mask[q]));
  }
  return out;
}
const inputsCache = new WeakMap<CruxData, JudgedInputs>();

/** The evaluator's inputs of the data: passage ratings, plain qrels, token counts. */
function cruxInputs(data: CruxData): JudgedInputs {
  let inputs = inputsCache.get(data);
  if (!inputs) {
    inputs = {
      qrels: data.qrels.filter((q) => q.subtopic === undefined || q.subtopic === "0"),
      judgments: data.passageRatings,
      // A passage without text has no token count: density asks and fails, never 0.
      tokens: (id) => {
        const n = data.tokens.get(id);
        if (n === undefined) throw new MissingTokensError(id, false);
        return n;
      },
    };
    inputsCache.set(data, inputs);
  }
  return inputs;
}

/**
 * Per-topic values of context measures (rows: run = context name, measure =
 * key) by the measure step's computation (`scoreContexts` of the pipeline), for
 * the stored rows of hand-built test data (no table scores). `cutoff` applies to every measure
 * (`oracle` = |P*| of the topic); `w` is the density exponent (default 0.5).
 */
export function scoreDataContexts(
  data: CruxData,
  contexts: readonly ContextSpec[],
  opts: { keys: readonly ContextKey[]; cutoff: number | "oracle"; tau: number; w?: number },
): MetricRow[] {
  return measureStepScores(cruxInputs(data), contexts, opts).rows;
}
