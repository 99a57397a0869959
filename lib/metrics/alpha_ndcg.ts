/**
 * alpha-nDCG, the novelty- and diversity-aware nDCG of Clarke et al. (SIGIR
 * 2008), computed with ndeval's rules.
 *
 * @module
 */
import type { MeasureDef } from "./measure.ts";
import { noveltyGain } from "./_diversity_topic.ts";
import { CRUX_DEFAULTS } from "./crux_defaults.ts";

/**
 * alpha-nDCG@k. Judgments are binary per subtopic. The gain at rank r is the
 * sum over the subtopics s of the document of (1 - alpha)^(documents above r
 * already relevant to s), discounted by 1/log2(r+1). The ideal ranking is
 * greedy (largest gain given those chosen, ties to the larger document id);
 * subtopics no document is relevant to are ignored. A topic with no relevant
 * document scores 0. In CRUX, sub-questions are the subtopics and a passage
 * is relevant to one when its rating is >= tau.
 */
export const alphaNdcg: MeasureDef = {
  name: "alpha_nDCG",
  description: "alpha-nDCG: novelty-discounted gain over subtopics with a greedy ideal " +
    "ranking (ndeval rules; CRUX treats sub-questions as subtopics).",
  citation: "Clarke et al., Novelty and diversity in information retrieval evaluation, " +
    "SIGIR 2008; ndeval (TREC Web track)",
  params: {
    alpha: {
      default: CRUX_DEFAULTS.alpha,
      description: "redundancy penalty per earlier relevant document",
      min: 0,
      max: 1,
    },
  },
  cutoff: "optional",
  oracleCutoff: true,
  needs: "diversity",
  compute(view, m) {
    const div = view.judged?.diversity;
    if (!div || div.docs.size === 0) return 0;
    const alpha = m.params.alpha as number;
    const seen = new Int32Array(div.subtopics);
    const n = Math.min(m.depth, view.docs.length);
    let dcg = 0;
    for (let i = 0; i < n; i++) {
      const subs = div.docs.get(view.docs[i]);
      if (!subs) continue;
      dcg += noveltyGain(subs, seen, alpha) / Math.log2(i + 2);
      for (let j = 0; j < subs.length; j++) seen[subs[j]]++;
    }
    const ideal = div.idealGains(alpha);
    const depth = Math.min(m.depth, ideal.length);
    let idcg = 0;
    for (let i = 0; i < depth; i++) idcg += ideal[i] / Math.log2(i + 2);
    return idcg > 0 ? dcg / idcg : 0;
  },
};
