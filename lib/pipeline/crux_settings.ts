/**
 * The CRUX settings of an experiment config with their defaults filled in from
 * the one declaration, `CRUX_DEFAULTS`.
 *
 * @module
 */
import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
import type { CruxExperimentConfig } from "./experiment_config.ts";

/** What {@linkcode cruxSettings} resolves. */
export interface CruxSettings {
  /** `construct.tau`: the selection's and the judge's threshold. */
  constructTau: number;
  /** `analysis.tau`: the tables' threshold. */
  tau: number;
  /** `analysis.w`: the tables' density exponent. */
  w: number;
  /** `analysis.thresholds`: thresholds of the threshold table. */
  thresholds: number[];
  /** `analysis.cutoffs`: context sizes of the context-size table. */
  cutoffs: (number | "oracle")[];
  /** Every threshold the analyses show: `tau` first, then the others of `thresholds`. */
  taus: number[];
  /** `analysis.contexts`: runs (default: the first retrieval run) and depths of the context-evaluation table. */
  evaluation: { runs: string[]; cutoffs: (number | "oracle")[] };
}

/**
 * Resolves an experiment config's CRUX settings: what is not given takes its
 * default from `CRUX_DEFAULTS` (tau 3, w 0.5, thresholds [3, 5], context sizes
 * |P*|, 10, 20), so the stages and the analyses never write a default of their own.
 *
 * @param config The checked experiment config.
 * @returns The settings.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cruxSettings } from "@lib/pipeline/mod.ts";
 * assert.deepEqual(cruxSettings({ analysis: { tau: 4 } }).taus, [4, 3, 5]);
 * ```
 */
export function cruxSettings(
  config: Pick<CruxExperimentConfig, "construct" | "analysis" | "retrieve">,
): CruxSettings {
  const tau = config.analysis?.tau ?? CRUX_DEFAULTS.tau;
  const thresholds = [...(config.analysis?.thresholds ?? CRUX_DEFAULTS.thresholds)];
  return {
    constructTau: config.construct?.tau ?? CRUX_DEFAULTS.tau,
    tau,
    w: config.analysis?.w ?? CRUX_DEFAULTS.w,
    thresholds,
    cutoffs: [...(config.analysis?.cutoffs ?? CRUX_DEFAULTS.contextCutoffs)],
    taus: [...new Set([tau, ...thresholds])],
    evaluation: {
      runs: config.analysis?.contexts?.runs ?? [(config.retrieve ?? [{ name: "bm25" }])[0].name],
      cutoffs: [...(config.analysis?.contexts?.cutoffs ?? CRUX_DEFAULTS.evaluationCutoffs)],
    },
  };
}
