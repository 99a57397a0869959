/**
 * CRUX: coverage and density of reports over sub-questions answerable from
 * the oracle passages. Its settings are the experiment config's own fields
 * (construct, retrieve, generate, measures, analysis), so it has no section.
 *
 * @module
 */
import type { MethodDeclaration } from "../method_declaration.ts";
import type { CruxBackends } from "./chain_env.ts";
import { cruxChain } from "./chain.ts";

export type { CruxBackends };

/** The CRUX method; its stages are the experiment's chain (`cruxChain`), its tables the analyze stage's own. */
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
  chain: cruxChain,
  tables: ["context_evaluation", "main_table"],
  commands: ["construct", "generate", "judge", "measure", "eval"],
};
