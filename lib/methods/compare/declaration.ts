/**
 * The methods side by side: each method's headline per (run, topic) from the
 * measure table, their correlations across runs, and the judge-variance check.
 *
 * @module
 */
import { methodAnalyses } from "./analyses.ts";
import { type CompareBackends, type CompareSection, compareStages } from "./stages.ts";
import type { MethodDeclaration } from "../method_declaration.ts";

/** The comparison: section `compare`, after the other methods; no headline of its own. */
export const COMPARE: MethodDeclaration<CompareSection, CompareBackends> = {
  key: "compare",
  label: "Comparison",
  section: compareStages,
  headlines: [],
  roles: ["judge"],
  backends: ({ judge }) => ({ judge }),
  analyses: (ws, ctx) => {
    const s = ctx.section as CompareSection;
    return methodAnalyses(ws, {
      methods: s.methods
        ? ctx.headlines.filter((h) => s.methods!.includes(h.method))
        : ctx.headlines,
      judges: s.judges,
      sources: s.sources,
      minRuns: s.minRuns,
    });
  },
  tables: ["method_system", "method_correlations"],
  commands: ["compare"],
};
