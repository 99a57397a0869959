/**
 * The evaluation methods, in order: CRUX first, the comparison last (its stages
 * read the others' measures). Adding a method is one line here plus its own
 * folder `lib/methods/<key>/`; an experiment runs and compares the methods
 * whose section its config has (and CRUX). Functions taking a `registry` use
 * this one unless given another (a test's own).
 *
 * @module
 */
import type { MethodHeadline, MethodStageContext, StageSpec } from "@lib/pipeline/mod.ts";
import { methodBackends } from "@lib/pipeline/mod.ts";
import type { MethodDeclaration } from "./method_declaration.ts";
import { CRUX } from "./crux/declaration.ts";
import { NUGGETS } from "./nuggets/declaration.ts";
import { KEYPOINTS } from "./keypoints/declaration.ts";
import { SUBQ } from "./subq/declaration.ts";
import { COMPARE } from "./compare/declaration.ts";

export { COMPARE, CRUX, KEYPOINTS, NUGGETS, SUBQ };
export type { CruxBackends } from "./crux/declaration.ts";
export type { KeyPointSection } from "./keypoints/stages.ts";
export type { CompareSection } from "./compare/stages.ts";
export { methodAnalyses, type MethodAnalysesData } from "./compare/analyses.ts";
export { measureRuns, type MeasureRunsOptions } from "./crux/measure_runs.ts";
export {
  clearMeasureValues,
  clearRunMeans,
  measureValues,
  type MeasureValuesOptions,
  type MeasureValuesResult,
  type MeasureValuesRun,
} from "./crux/measure_values.ts";
export {
  type GenerationContexts,
  measureContexts,
  type MeasureContextsOptions,
} from "./crux/measure_contexts.ts";

/** Every evaluation method, in stage and display order. */
export const METHOD_REGISTRY: readonly MethodDeclaration[] = [
  CRUX,
  NUGGETS,
  KEYPOINTS,
  SUBQ,
  COMPARE,
] as readonly MethodDeclaration[];

/** The methods' headline measures, in registry order (what the comparison reads). */
export const METHOD_HEADLINES: readonly MethodHeadline[] = METHOD_REGISTRY.flatMap((m) =>
  m.headlines
);

/**
 * The method of a key.
 *
 * @param key Method key (`crux`, `nuggets`, `keypoints`, `subq`, `compare`).
 * @param registry The methods to look in. Default {@linkcode METHOD_REGISTRY}.
 * @returns Its declaration.
 * @throws {RangeError} Naming the key and the known ones, when no method has it.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { methodByKey } from "@lib/methods/mod.ts";
 * assert.equal(methodByKey("keypoints").headlines[0].measure, "KPR");
 * ```
 */
export function methodByKey(
  key: string,
  registry: readonly MethodDeclaration[] = METHOD_REGISTRY,
): MethodDeclaration {
  const m = registry.find((d) => d.key === key);
  if (!m) {
    throw new RangeError(
      `Unknown method "${key}"; methods: ${registry.map((d) => d.key).join(", ")}`,
    );
  }
  return m;
}

/**
 * Checks a method's config section as the experiment config loader does
 * (the comparison's method names against the registry's headlines).
 *
 * @param key Method key with a config section.
 * @param raw The section as written (`{}` gives the defaults).
 * @param file The config file, for error messages.
 * @param registry The methods (their headlines are the names a section may use). Default {@linkcode METHOD_REGISTRY}.
 * @returns The checked section.
 * @throws {RangeError} When the method has no config section.
 * @throws {TypeError} As the method's parser, naming the file and the field.
 * @example
 * ```ts
 * import { parseMethodSection } from "@lib/methods/mod.ts";
 * parseMethodSection("compare", { methods: ["crux", "keypoints"] }, "x.json");
 * ```
 */
export function parseMethodSection(
  key: string,
  raw: unknown,
  file: string,
  registry: readonly MethodDeclaration[] = METHOD_REGISTRY,
): unknown {
  return sectionOf(key, registry).parse(raw, file, registry.flatMap((m) => m.headlines));
}

/**
 * The stage instances of a method's section, with the method's backends
 * (offline or the context's models) and the registry's headlines.
 *
 * @param key Method key with a config section.
 * @param section The checked section (see {@linkcode parseMethodSection}).
 * @param ctx The experiment's context (without `headlines`: the registry's).
 * @param registry The methods. Default {@linkcode METHOD_REGISTRY}.
 * @returns The stage instances in dependency order (as the method's stages return them).
 * @throws {RangeError} When the method has no config section; as the method's stages.
 * @example
 * ```ts
 * import { methodStages, parseMethodSection } from "@lib/methods/mod.ts";
 * const section = parseMethodSection("nuggets", {}, "x.json");
 * const specs = await methodStages("nuggets", section, {
 *   backend: "offline", answerRuns: ["rag-bm25"], answerStages: [], dataStages: [],
 *   judgeStages: [], outDir: "outputs/x", configFile: "x.json",
 * });
 * ```
 */
export function methodStages(
  key: string,
  section: unknown,
  ctx: MethodStageContext,
  registry: readonly MethodDeclaration[] = METHOD_REGISTRY,
): StageSpec[] | Promise<StageSpec[]> {
  const withHeadlines = {
    ...ctx,
    headlines: ctx.headlines ?? registry.flatMap((m) => m.headlines),
  };
  return sectionOf(key, registry).stages(
    section,
    withHeadlines,
    methodBackends(methodByKey(key, registry), section, withHeadlines),
  );
}

function sectionOf(key: string, registry: readonly MethodDeclaration[]) {
  const section = methodByKey(key, registry).section;
  if (!section) throw new RangeError(`Method "${key}" has no config section`);
  return section;
}
