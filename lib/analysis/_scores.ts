/**
 * The scoring engine of the analyses (private): context measures through the
 * metrics evaluator, report measures through the judge area's coverage scores,
 * both from the same passage ratings and P*.
 */
import {
  answerableQuestions,
  coverageScores,
  CRUX_DEFAULTS,
  type Judged,
  oracleSets as qrelsOracleSets,
  oracleTokens,
  prepareJudged,
} from "@lib/metrics/mod.ts";
import { reportItemId } from "@lib/judge/mod.ts";
import { evaluateAvailable, MissingTokensError } from "@lib/pipeline/mod.ts";
import type { MetricRow } from "@lib/types/mod.ts";
import type { CruxData } from "./types.ts";
import { contextRows } from "@lib/construct/mod.ts";

/** Context measures by analysis key: measure name and parameters (ir_measures syntax). */
export const CONTEXT_MEASURES = {
  covZ: "Cov",
  andcg: "alpha_nDCG",
  denZ: "Den",
  recall: "R(rel=3)",
  map: "AP(rel=3)",
  ndcg: "nDCG",
  precision: "P(rel=3)",
} as const;

/** A context measure key. */
export type ContextKey = keyof typeof CONTEXT_MEASURES;

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

/** One context to score: a name (condition or sample), a topic and passage ids in rank order. */
export interface ContextSpec {
  name: string;
  topicId: string;
  ids: readonly string[];
}

const judgedCache = new WeakMap<CruxData, Map<number, Judged>>();

/** P* of every topic (qrels grade 3, plain qrels only). */
export function oracleSets(data: CruxData): Map<string, string[]> {
  return qrelsOracleSets(data.qrels);
}

/** Answerable sub-questions A(tau) of every topic: those some passage of P* rates >= tau. */
export function answerableSets(data: CruxData, tau: number): Map<string, string[]> {
  const oracle = oracleSets(data);
  const rows = new Map(data.passageRatings.map((r) => [r.itemId, r.ratings]));
  const out = new Map<string, string[]>();
  for (const [topicId, ids] of oracle) {
    const qs = data.questions.get(topicId) ?? [];
    const mask = answerableQuestions(ids.map((p) => rows.get(p)), qs.length, { tau });
    out.set(topicId, qs.filter((_, q) => mask[q]));
  }
  return out;
}

function judged(data: CruxData, tau: number): Judged {
  let byTau = judgedCache.get(data);
  if (!byTau) judgedCache.set(data, byTau = new Map());
  let j = byTau.get(tau);
  if (!j) {
    const plain = data.qrels.filter((q) => q.subtopic === undefined || q.subtopic === "0");
    j = prepareJudged(
      {
        qrels: plain,
        judgments: data.passageRatings,
        // A passage without text has no token count: density asks and fails, never 0.
        tokens: (id) => {
          const n = data.tokens.get(id);
          if (n === undefined) throw new MissingTokensError(id, false);
          return n;
        },
      },
      { tau },
    );
    byTau.set(tau, j);
  }
  return j;
}

/**
 * Per-topic values of context measures (rows: run = context name, measure =
 * key). `cutoff` applies to every measure (`oracle` = |P*| of the topic);
 * `w` is the density exponent (default 0.5).
 */
export function scoreContexts(
  data: CruxData,
  contexts: readonly ContextSpec[],
  opts: { keys: readonly ContextKey[]; cutoff: number | "oracle"; tau: number; w?: number },
): MetricRow[] {
  if (contexts.length === 0) return [];
  const run = contexts.flatMap((c) => contextRows(c.name, c.topicId, c.ids));
  const w = opts.w ?? CRUX_DEFAULTS.w;
  const measures = opts.keys.map((k) =>
    `${k === "denZ" && w !== CRUX_DEFAULTS.w ? `Den(w=${w})` : CONTEXT_MEASURES[k]}@${opts.cutoff}`
  );
  // Density of a context holding a passage without text is left out (its rows
  // are missing, so tables show it as not measured), as in the measure stage.
  const { result, kept } = evaluateAvailable(run, measures, judged(data, opts.tau), {
    tau: opts.tau,
  });
  const keys = kept.map((m) => opts.keys[measures.indexOf(m)]);
  const keyOf = new Map(result.measures.map((m, i) => [m, keys[i]]));
  return result.perTopic.map((r) => ({ ...r, measure: keyOf.get(r.measure)! }));
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
  const oracle = oracleSets(data);
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
