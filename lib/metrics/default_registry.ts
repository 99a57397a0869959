/**
 * The registry of built-in measures and their trec_eval / ir_measures aliases.
 *
 * @module
 */
import { MeasureRegistry } from "./measure_registry.ts";
import { RELEVANCE_MEASURES } from "./relevance_measures.ts";
import { alphaNdcg } from "./alpha_ndcg.ts";
import { coverageMeasure, densityMeasure } from "./crux_measures.ts";
import { judgedMeasure } from "./judged_measure.ts";

let registry: MeasureRegistry | undefined;

/**
 * Builds a fresh registry holding every built-in measure and alias:
 * `P`, `R`, `AP`, `RPrec`, `RR`, `nDCG`, `alpha_nDCG`, `Cov`, `Den`, `judged`; aliases
 * `MAP`/`map` -> AP, `map_cut_N` -> AP@N, `ndcg_cut_N`/`ndcg_cut.N` -> nDCG@N,
 * `ndcg` -> nDCG, `P_N`/`P.N` -> P@N (any measure accepts `_N`/`.N`), `recall_N`/`recall.N` -> R@N,
 * `recip_rank` -> RR, `Rprec` -> RPrec, `alpha-nDCG`/`alpha_ndcg` -> alpha_nDCG.
 *
 * @returns A new registry; add your own measures to it freely.
 * @example
 * ```ts
 * import { builtinRegistry } from "@lib/metrics/mod.ts";
 * const registry = builtinRegistry();
 * registry.names(); // ["P", "R", "AP", ...]
 * ```
 */
export function builtinRegistry(): MeasureRegistry {
  const r = new MeasureRegistry();
  for (
    const def of [...RELEVANCE_MEASURES, alphaNdcg, coverageMeasure, densityMeasure, judgedMeasure]
  ) {
    r.register(def);
  }
  r.alias("MAP", "AP").alias("map", "AP").alias("map_cut", "AP", { cutoffSuffix: true });
  r.alias("ndcg_cut", "nDCG", { cutoffSuffix: true }).alias("ndcg", "nDCG");
  r.alias("recall", "R", { cutoffSuffix: true });
  r.alias("recip_rank", "RR").alias("Rprec", "RPrec");
  r.alias("alpha-nDCG", "alpha_nDCG").alias("alpha_ndcg", "alpha_nDCG");
  return r;
}

/**
 * The shared registry used when no registry is passed (built on first use).
 *
 * @returns The process-wide built-in registry.
 */
export function defaultRegistry(): MeasureRegistry {
  return registry ??= builtinRegistry();
}
