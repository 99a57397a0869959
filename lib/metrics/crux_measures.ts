/**
 * CRUX's context measures: sub-question coverage `Cov` and density `Den` of
 * the top-k passages of a run (Ju et al., CRUX: controlled retrieval-augmented
 * context evaluation).
 *
 * @module
 */
import type { MeasureDef, MeasureParam } from "./measure.ts";
import type { TopicView } from "./topic_view.ts";
import type { CruxTopic } from "./_crux_topic.ts";
import { countMask } from "./_crux_topic.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

const CITATION = "Ju et al., Controlled retrieval-augmented context evaluation for " +
  "long-form RAG (CRUX), 2025";
const TAU: MeasureParam = {
  default: CRUX_DEFAULTS.tau,
  description: "rating that counts as answered (0-5)",
  min: 0,
  max: 5,
  integer: true,
};
const FILTER: MeasureParam = {
  default: true,
  description: "restrict to sub-questions the oracle set P* answers (false: all sub-questions)",
};

interface CoverageParts {
  crux: CruxTopic;
  answerable: number;
  covered: number;
}

/**
 * Coverage parts of the top `depth` items of `view`, or the reason to leave the
 * topic out. `needsOracle`: whether the measure reads P* beyond `filter`.
 */
function coverage(
  view: TopicView,
  tau: number,
  filter: boolean,
  depth: number,
  needsOracle = false,
): CoverageParts | string {
  const crux = view.judged?.crux;
  if (!crux) return "no ratings for the topic";
  if (filter || needsOracle) {
    const missing = view.missingOracle;
    if (missing) return missing;
  }
  const mask = crux.answerable(tau, filter);
  const answerable = countMask(mask);
  if (answerable === 0) return "no answerable sub-question (|A| = 0)";
  const covered = countMask(crux.coveredBy(view.docs, depth, tau), mask);
  return { crux, answerable, covered };
}

/**
 * `Cov(tau)@k` = |{q in A : max over the top-k of G(z, q) >= tau}| / |A|.
 * Unjudged passages and passages of other topics rate 0. Topics with |A| = 0
 * are left out of the average.
 */
export const coverageMeasure: MeasureDef = {
  name: "Cov",
  description: "Sub-question coverage: share of the answerable sub-questions that some " +
    "passage of the top k answers with rating >= tau (topics with no answerable " +
    "sub-question are left out).",
  citation: CITATION,
  params: { tau: TAU, filter_by_oracle: FILTER },
  cutoff: "optional",
  oracleCutoff: true,
  needs: "crux",
  compute(view, m) {
    const parts = coverage(
      view,
      m.params.tau as number,
      m.params.filter_by_oracle as boolean,
      m.depth,
    );
    return typeof parts === "string" ? parts : parts.covered / parts.answerable;
  },
};

/**
 * `Den(tau, w)@k` = [(Cov(Z) / tokens(Z)) / (Cov(P*) / tokens(P*))]^w. Default
 * w = 0.5 as in the CRUX paper's tables; the original code's default was 1,
 * which `Den(w=1)` gives. Not capped: values above 1 are real. The oracle
 * context itself scores exactly 1.
 */
export const densityMeasure: MeasureDef = {
  name: "Den",
  description: "Density: coverage per token of the top k relative to that of the oracle " +
    "set P*, raised to w (w = 0.5 as in the CRUX paper; Den(w=1) is the original code's " +
    "default). Needs token counts.",
  citation: CITATION,
  params: {
    tau: TAU,
    w: { default: CRUX_DEFAULTS.w, description: "exponent of the density ratio", min: 0 },
    filter_by_oracle: FILTER,
  },
  cutoff: "optional",
  oracleCutoff: true,
  needs: "crux",
  compute(view, m) {
    const tau = m.params.tau as number;
    const filter = m.params.filter_by_oracle as boolean;
    const parts = coverage(view, tau, filter, m.depth, true);
    if (typeof parts === "string") return parts;
    const tokens = view.tokens;
    if (!tokens) throw new Error("Cannot compute Den: no token counter was given (pass a corpus)");
    if (parts.covered === 0) return 0;
    const oracleCovered = countMask(
      parts.crux.coveredBy(parts.crux.oracle, parts.crux.oracle.length, tau),
      parts.crux.answerable(tau, filter),
    );
    const oracleTokens = parts.crux.oracleTokens(tokens);
    if (oracleCovered === 0 || oracleTokens === 0) return "the oracle set covers nothing";
    let contextTokens = 0;
    const n = Math.min(m.depth, view.docs.length);
    for (let i = 0; i < n; i++) contextTokens += tokens(view.docs[i]);
    const ratio = (parts.covered / contextTokens) / (oracleCovered / oracleTokens);
    return Math.pow(ratio, m.params.w as number);
  },
};
