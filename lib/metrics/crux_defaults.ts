/**
 * The defaults of the CRUX measures and analyses, declared once: the measure
 * registry's parameter defaults, the experiment config's settings, the judges,
 * the selection and every table take them from here.
 *
 * @module
 */

/**
 * Defaults of the CRUX measures (see METRICS in the docs):
 *
 * - `tau`: rating (0-5) at which a sub-question counts as answered (CRUX: 3).
 * - `w`: density exponent of Den (the CRUX paper's tables: 0.5; the original code's default was 1).
 * - `alpha`: redundancy penalty of alpha-nDCG (0.5).
 * - `oracleGrade`: qrels grade of a required passage, the oracle set P* (3).
 * - `budgetCap`: the paper's cap on the generation length in tokens (2,500).
 * - `thresholds`: answerability thresholds the threshold table compares ([3, 5]).
 * - `contextCutoffs`: context sizes of the context-size table (|P*|, 10, 20).
 * - `evaluationCutoffs`: depths of the context-evaluation table (10, |P*|).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CRUX_DEFAULTS } from "@lib/metrics/mod.ts";
 * assert.equal(CRUX_DEFAULTS.tau, 3);
 * assert.equal(CRUX_DEFAULTS.w, 0.5);
 * ```
 */
export const CRUX_DEFAULTS: {
  readonly tau: number;
  readonly w: number;
  readonly alpha: number;
  readonly oracleGrade: number;
  readonly budgetCap: number;
  readonly thresholds: readonly number[];
  readonly contextCutoffs: readonly (number | "oracle")[];
  readonly evaluationCutoffs: readonly (number | "oracle")[];
} = Object.freeze({
  tau: 3,
  w: 0.5,
  alpha: 0.5,
  oracleGrade: 3,
  budgetCap: 2500,
  thresholds: Object.freeze([3, 5]),
  contextCutoffs: Object.freeze(["oracle", 10, 20] as (number | "oracle")[]),
  evaluationCutoffs: Object.freeze([10, "oracle"] as (number | "oracle")[]),
});
