/**
 * The headline measures an experiment compares: those of the methods it
 * names, so a method added to the registry changes no existing experiment.
 *
 * @module
 */
import type { ExperimentMethod } from "./method_stage.ts";
import type { MethodHeadline } from "./method_scores.ts";

/**
 * The headlines of an experiment's methods, in registry order: each method
 * without a config section (CRUX, whose settings are the config's own fields)
 * and each method whose section the config has.
 *
 * @param methods The method registry (or a test's own).
 * @param sections The config's method sections by key (checked or as written).
 * @returns The headlines the experiment's comparison reads.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { experimentHeadlines, type ExperimentMethod } from "@lib/pipeline/mod.ts";
 * const h = (method: string) =>
 *   ({ method, measure: "m", label: method, range: [0, 1], higherIsBetter: true }) as const;
 * const parse = () => ({});
 * const stages = () => [];
 * const methods: ExperimentMethod[] = [
 *   { key: "base", headlines: [h("base")], roles: [], backends: () => ({}) },
 *   { key: "a", headlines: [h("a")], roles: [], backends: () => ({}), section: { key: "a", parse, stages } },
 *   { key: "b", headlines: [h("b")], roles: [], backends: () => ({}), section: { key: "b", parse, stages } },
 * ];
 * assert.deepEqual(experimentHeadlines(methods, { b: {} }).map((x) => x.method), ["base", "b"]);
 * ```
 */
export function experimentHeadlines(
  methods: readonly ExperimentMethod[],
  sections: Readonly<Record<string, unknown>> | undefined,
): MethodHeadline[] {
  return methods.filter((m) => !m.section || sections?.[m.key] !== undefined)
    .flatMap((m) => m.headlines);
}
