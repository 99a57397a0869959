/**
 * trec_eval's relevance measures as declarations: `P`, `R`, `AP` (and
 * `map_cut`), `RPrec`, `RR` and `nDCG` (`ndcg_cut`). Each reproduces trec_eval
 * 10.0: unjudged documents are non-relevant, `rel` is the relevance level
 * (`-l`), P@k divides by k even when fewer documents were retrieved, and a
 * topic with no relevant document scores 0.
 *
 * @module
 */
import type { MeasureDef, MeasureParam, ResolvedMeasure } from "./measure.ts";
import type { TopicView } from "./topic_view.ts";
import { logRank } from "./_discount.ts";

const REL: Readonly<Record<string, MeasureParam>> = {
  rel: { default: 1, description: "minimum grade counted as relevant (trec_eval -l)" },
};
const TREC = "Buckley and Voorhees, trec_eval (NIST), version 10.0";

function relOf(m: ResolvedMeasure): number {
  return m.params.rel as number;
}

function numRel(view: TopicView, rel: number): number {
  return view.judged?.qrels?.numRel(rel) ?? 0;
}

/** Relevant documents among the first `depth` ranks. */
function relevantIn(grades: Float64Array, depth: number, rel: number): number {
  const n = Math.min(depth, grades.length);
  let hits = 0;
  for (let i = 0; i < n; i++) if (grades[i] >= rel) hits++;
  return hits;
}

/** Precision at k: relevant documents in the top k / k (trec_eval `P.k`). */
export const precision: MeasureDef = {
  name: "P",
  description: "Precision at k: relevant documents in the top k divided by k, " +
    "even when fewer than k documents were retrieved (trec_eval P.k).",
  citation: TREC,
  params: REL,
  cutoff: "required",
  oracleCutoff: true,
  needs: "qrels",
  compute: (view, m) => relevantIn(view.grades(), m.depth, relOf(m)) / m.depth,
};

/** Recall at k: relevant documents in the top k / all relevant documents (trec_eval `recall.k`). */
export const recall: MeasureDef = {
  name: "R",
  description: "Recall at k: relevant documents in the top k divided by the topic's " +
    "relevant documents; 0 when it has none (trec_eval recall.k).",
  citation: TREC,
  params: REL,
  cutoff: "required",
  oracleCutoff: true,
  needs: "qrels",
  compute(view, m) {
    const total = numRel(view, relOf(m));
    return total ? relevantIn(view.grades(), m.depth, relOf(m)) / total : 0;
  },
};

/** Average precision, optionally cut at k (trec_eval `map` / `map_cut.k`). */
export const averagePrecision: MeasureDef = {
  name: "AP",
  description: "Average precision: sum of the precision at the rank of each relevant " +
    "retrieved document (within the cutoff) divided by the topic's relevant documents " +
    "(trec_eval map, map_cut.k).",
  citation: TREC,
  params: REL,
  cutoff: "optional",
  oracleCutoff: true,
  needs: "qrels",
  compute(view, m) {
    const rel = relOf(m);
    const total = numRel(view, rel);
    if (!total) return 0;
    const grades = view.grades();
    const n = Math.min(m.depth, grades.length);
    let hits = 0;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      if (grades[i] >= rel) sum += ++hits / (i + 1);
    }
    return sum / total;
  },
};

/** R-precision: precision at rank R, R = the topic's relevant documents (trec_eval `Rprec`). */
export const rPrecision: MeasureDef = {
  name: "RPrec",
  description: "R-precision: precision at rank R, R = number of relevant documents " +
    "of the topic (trec_eval Rprec).",
  citation: TREC,
  params: REL,
  cutoff: "none",
  oracleCutoff: false,
  needs: "qrels",
  compute(view, m) {
    const total = numRel(view, relOf(m));
    return total ? relevantIn(view.grades(), total, relOf(m)) / total : 0;
  },
};

/** Reciprocal rank of the first relevant document (trec_eval `recip_rank`). */
export const reciprocalRank: MeasureDef = {
  name: "RR",
  description: "Reciprocal rank: 1 / rank of the first relevant document within the " +
    "cutoff, 0 if none (trec_eval recip_rank).",
  citation: TREC,
  params: REL,
  cutoff: "optional",
  oracleCutoff: false,
  needs: "qrels",
  compute(view, m) {
    const grades = view.grades();
    const n = Math.min(m.depth, grades.length);
    const rel = relOf(m);
    for (let i = 0; i < n; i++) if (grades[i] >= rel) return 1 / (i + 1);
    return 0;
  },
};

/** nDCG with gain = grade and discount 1/log2(rank+1) (trec_eval `ndcg_cut.k`). */
export const ndcg: MeasureDef = {
  name: "nDCG",
  description: "Normalised discounted cumulative gain: gain = the graded judgment, " +
    "discount 1/log2(rank+1); the ideal ranking sorts every judged document by grade " +
    "(trec_eval ndcg_cut.k; ndcg without a cutoff).",
  citation: "Järvelin and Kekäläinen, ACM TOIS 20(4), 2002; " + TREC,
  params: {},
  cutoff: "optional",
  oracleCutoff: true,
  needs: "qrels",
  compute(view, m) {
    const grades = view.grades();
    const n = Math.min(m.depth, grades.length);
    const log = logRank(n);
    let dcg = 0;
    for (let i = 0; i < n; i++) if (grades[i] > 0) dcg += grades[i] / log[i];
    const ideal = view.judged?.qrels?.idealDcg(m.depth) ?? 0;
    return ideal > 0 ? dcg / ideal : dcg;
  },
};

/** Every relevance measure of this file, in registration order. */
export const RELEVANCE_MEASURES: readonly MeasureDef[] = [
  precision,
  recall,
  averagePrecision,
  rPrecision,
  reciprocalRank,
  ndcg,
];
