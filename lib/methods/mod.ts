/**
 * The evaluation methods, one folder `lib/methods/<key>/` each, whose
 * `declaration.ts` exports the method's declaration (key, config section with
 * its defaults, stages, headline measures, the one backends factory, analyses,
 * demo tables, commands), and the registry that lists them. Every place that
 * enumerates methods reads {@linkcode METHOD_REGISTRY}; the pipeline and the
 * analyses receive it as a parameter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { METHOD_REGISTRY } from "@lib/methods/mod.ts";
 * // CRUX first; the comparison, which reads the others' measures, last.
 * assert.equal(METHOD_REGISTRY[0].key, "crux");
 * assert.equal(METHOD_REGISTRY.at(-1)?.key, "compare");
 * ```
 *
 * @module
 */
export type { MethodAnalysesContext, MethodDeclaration } from "./method_declaration.ts";
export {
  clearMeasureValues,
  clearRunMeans,
  COMPARE,
  type CompareSection,
  CRUX,
  type CruxBackends,
  type GenerationContexts,
  KEYPOINTS,
  type KeyPointSection,
  measureContexts,
  type MeasureContextsOptions,
  measureRuns,
  type MeasureRunsOptions,
  measureValues,
  type MeasureValuesOptions,
  type MeasureValuesResult,
  type MeasureValuesRun,
  METHOD_HEADLINES,
  METHOD_REGISTRY,
  methodAnalyses,
  type MethodAnalysesData,
  methodByKey,
  methodStages,
  NUGGETS,
  parseMethodSection,
  SUBQ,
} from "./registry.ts";
