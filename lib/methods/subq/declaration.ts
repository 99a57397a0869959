/**
 * Sub-question coverage by type: decomposition, typing, coverage judgments,
 * the pairwise comparison and the preference evaluation.
 *
 * @module
 */
import { basename } from "node:path";
import { subqAnalyses } from "./analyses.ts";
import { SUBQ_STAGES, type SubqBackends, type SubqSection } from "./stages.ts";
import type { MethodDeclaration } from "../method_declaration.ts";

/** The sub-question method: section `subq`, headline sub-question rating. */
export const SUBQ: MethodDeclaration<SubqSection, SubqBackends> = {
  key: "subq",
  label: "Sub-questions",
  section: SUBQ_STAGES,
  // The rating weighs each type's coverage (follow-up questions negatively, weights
  // set in the section), so neither end of its range is fixed.
  headlines: [{
    method: "subq",
    measure: "subq_rating",
    label: "Sub-q rating",
    range: [null, null],
    higherIsBetter: true,
  }],
  roles: ["judge", "generator"],
  backends: ({ judge, generator }) => ({
    client: judge?.client,
    templatesDir: judge?.templatesDir,
    generator,
  }),
  analyses: (ws, ctx) => {
    const s = ctx.section as SubqSection;
    return subqAnalyses(ws, {
      source: s.source,
      weights: s.weights,
      validation: s.validation,
      seed: s.seed,
      ...(s.preferences && s.preferencesOrigin
        ? { preferenceOrigins: { [basename(s.preferences)]: s.preferencesOrigin } }
        : {}),
    });
  },
  tables: ["subq_cells"],
  commands: ["subq"],
};
