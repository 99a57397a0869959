/**
 * Nugget evaluation (TREC 2024 RAG track): nuggets created from the relevant
 * passages or imported, labelled vital or okay, assigned per answer.
 *
 * @module
 */
import { nuggetAnalyses } from "./analyses.ts";
import { llmNuggetBackend, type NuggetBackend, offlineNuggetBackend } from "@lib/nuggets/mod.ts";
import { NUGGET_STAGES, type NuggetsSection } from "./stages.ts";
import type { MethodDeclaration } from "../method_declaration.ts";

/** The nugget method: section `nuggets`, headline strict vital score. */
export const NUGGETS: MethodDeclaration<NuggetsSection, NuggetBackend> = {
  key: "nuggets",
  label: "Nuggets",
  section: NUGGET_STAGES,
  headlines: [{
    method: "nuggets",
    measure: "strict_vital",
    label: "Nuggets strict vital",
    range: [0, 1],
    higherIsBetter: true,
  }],
  roles: ["judge"],
  backends: ({ section, judge }) =>
    judge
      ? llmNuggetBackend(judge.client, { templatesDir: judge.templatesDir, reasks: section.reasks })
      : offlineNuggetBackend({
        support: section.support,
        partial: section.partial,
        vitalShare: section.vitalShare,
      }),
  analyses: (ws) => nuggetAnalyses(ws),
  tables: ["nugget_scores"],
  commands: ["nuggets"],
};
