/**
 * CRUX: coverage and density of reports over sub-questions answerable from
 * the oracle passages. Its settings are the experiment config's own fields
 * (construct, retrieve, generate, measures, analysis), so it has no section.
 *
 * @module
 */
import type { RoleClient } from "@lib/construct/mod.ts";
import type { MethodDeclaration } from "../method_declaration.ts";

/** CRUX's model clients: the judge rates passages and reports, the generator writes reports (none offline). */
export interface CruxBackends {
  judge?: RoleClient;
  generator?: RoleClient;
}

/** The CRUX method; its stages are the experiment's chain (`cruxStages`), its tables the analyze stage's own. */
export const CRUX: MethodDeclaration<Record<string, never>, CruxBackends> = {
  key: "crux",
  label: "CRUX",
  headlines: [{
    method: "crux",
    measure: "Cov",
    label: "CRUX Cov",
    source: "report",
    range: [0, 1],
    higherIsBetter: true,
  }],
  roles: ["judge", "generator"],
  backends: ({ judge, generator }) => ({ judge, generator }),
  tables: ["context_evaluation", "main_table"],
  commands: ["construct", "generate", "judge", "measure", "eval"],
};
