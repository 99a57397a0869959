/**
 * The scoring of the analyses for data the measure step did not store (private):
 * context measures through the measure step's `scoreDataContexts`, report measures
 * through the one Cov(y) function `coverageScores`, both from the same passage
 * ratings and P*.
 */
import {
  answerableQuestions,
  coverageScores,
  type JudgedInputs,
  oracleSets as qrelsOracleSets,
  oracleTokens,
} from "@lib/metrics/mod.ts";
import { reportItemId } from "@lib/judge/mod.ts";
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
 * key) by the measure step's computation (`scoreDataContexts` of the pipeline), for
 * contexts the measure step did not store. `cutoff` applies to every measure
 * (`oracle` = |P*| of the topic); `w` is the density exponent (default 0.5).
 */
export function scoreDataContexts(
  data: CruxData,
  contexts: readonly ContextSpec[],
  opts: { keys: readonly ContextKey[]; cutoff: number | "oracle"; tau: number; w?: number },
): MetricRow[] {
  return measureStepScores(cruxInputs(data), contexts, opts).rows;
}

/**
 * Per-topic Cov(y) and Den(y) (measures `covY`, `denY`) of the reports of one
 * generation run, judged by the report judge; unjudged reports and topics with
 * |A| = 0 are left out.
 */
export function scoreReports(
  data: CruxData,
  generation: string,
  name: string,
  opts: { tau: number; w: number },
): MetricRow[] {
  const answerable = answerableSets(data, opts.tau);
  const oracle = dataOracleSets(data);
  const out: MetricRow[] = [];
  for (const g of data.generations) {
    if (g.run !== generation) continue;
    const ratings = data.reportRatings.get(reportItemId(g));
    const a = answerable.get(g.topicId);
    if (!ratings || !a || a.length === 0) continue;
    const pStar = oracleTokens(oracle.get(g.topicId) ?? [], data.tokens);
    const textless = pStar.missing !== undefined;
    const s = coverageScores(
      { ratings, answerable: a, tokens: g.tokens ?? 0, oracleTokens: pStar.tokens },
      { tau: opts.tau, w: opts.w },
    );
    if (s.coverage === null) continue;
    out.push({ run: name, topicId: g.topicId, measure: "covY", value: s.coverage });
    // Den(y) needs the tokens of P*: left out for a topic whose P* lacks text.
    if (!textless) out.push({ run: name, topicId: g.topicId, measure: "denY", value: s.density! });
  }
  return out;
}
